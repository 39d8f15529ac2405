#include "report_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void report_text_init(report_text *t) {
    memset(t, 0, sizeof *t);
}

void report_text_free(report_text *t) {
    free(t->data);
    report_text_init(t);
}

/* Room for `extra` more bytes and the NUL. */
static bool report_text_reserve(report_text *t, size_t extra) {
    if (t->failed) {
        return false;
    }
    if (extra >= (size_t)-1 / 2 - t->len) {
        t->failed = true;
        return false;
    }
    size_t need = t->len + extra + 1;
    if (need <= t->cap) {
        return true;
    }
    size_t cap = t->cap > 0 ? t->cap : 4096;
    while (cap < need) {
        cap *= 2;
    }
    char *grown = realloc(t->data, cap);
    if (grown == NULL) {
        t->failed = true;
        return false;
    }
    t->data = grown;
    t->cap = cap;
    return true;
}

void report_text_putn(report_text *t, const char *s, size_t n) {
    if (!report_text_reserve(t, n)) {
        return;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

void report_text_put(report_text *t, const char *s) {
    report_text_putn(t, s, strlen(s));
}

void report_text_putc(report_text *t, char c) {
    report_text_putn(t, &c, 1);
}

void report_text_printf(report_text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = true;
        return;
    }
    if (!report_text_reserve(t, (size_t)n)) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(t->data + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

const char *report_text_str(const report_text *t) {
    return t->data != NULL ? t->data : "";
}
