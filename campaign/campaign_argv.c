#include "campaign_argv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void campaign_argv_init(campaign_argv *a) {
    memset(a, 0, sizeof *a);
}

void campaign_argv_free(campaign_argv *a) {
    for (size_t i = 0; i < a->count; i++) {
        free(a->items[i]);
    }
    free(a->items);
    campaign_argv_init(a);
}

/* Takes ownership of `s` (NULL: an allocation already failed). */
static void campaign_argv_take(campaign_argv *a, char *s) {
    if (s == NULL || a->failed) {
        free(s);
        a->failed = true;
        return;
    }
    if (a->count + 2 > a->capacity) {
        size_t cap = a->capacity ? a->capacity * 2 : 16;
        char **grown = realloc(a->items, cap * sizeof *grown);
        if (grown == NULL) {
            free(s);
            a->failed = true;
            return;
        }
        a->items = grown;
        a->capacity = cap;
    }
    a->items[a->count++] = s;
    a->items[a->count] = NULL;
}

void campaign_argv_add(campaign_argv *a, const char *s) {
    char *copy = malloc(strlen(s) + 1);
    if (copy != NULL) {
        strcpy(copy, s);
    }
    campaign_argv_take(a, copy);
}

/* `prefix` then fmt's text, as one new item. */
static void campaign_argv_vaddf(campaign_argv *a, const char *prefix, const char *fmt,
                                va_list ap) {
    va_list again;
    va_copy(again, ap);
    size_t head = strlen(prefix);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = n >= 0 ? malloc(head + (size_t)n + 1) : NULL;
    if (s != NULL) {
        memcpy(s, prefix, head);
        vsnprintf(s + head, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    campaign_argv_take(a, s);
}

void campaign_argv_addf(campaign_argv *a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    campaign_argv_vaddf(a, "", fmt, ap);
    va_end(ap);
}

void campaign_argv_setting(campaign_argv *a, fuzz_setting id, const char *fmt, ...) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s=", fuzz_settings_name(id));
    va_list ap;
    va_start(ap, fmt);
    campaign_argv_vaddf(a, prefix, fmt, ap);
    va_end(ap);
}

char *const *campaign_argv_items(campaign_argv *a) {
    static char *const empty[] = {NULL};
    return a->count > 0 ? a->items : empty;
}
