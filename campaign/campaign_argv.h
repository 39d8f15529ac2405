/* campaign_argv: a growable NULL-terminated list of owned strings, for the
 * argument vectors and extra environments of the engine processes. */
#ifndef CAMPAIGN_ARGV_H
#define CAMPAIGN_ARGV_H

#include <stdbool.h>
#include <stddef.h>

#include "fuzz.h"

typedef struct {
    char **items; /* NULL-terminated once anything was added */
    size_t count;
    size_t capacity;
    bool failed;  /* an allocation failed: the list is incomplete */
} campaign_argv;

void campaign_argv_init(campaign_argv *a);
void campaign_argv_free(campaign_argv *a);

/* Appends a copy of `s`; printf-style for the second. Failures are sticky
 * (a->failed) so a caller checks once after building the list. */
void campaign_argv_add(campaign_argv *a, const char *s);
void campaign_argv_addf(campaign_argv *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends GMFUZZ_<ID>=VALUE for a job setting (fuzz/fuzz_settings.def: the
 * names are spelled there only), VALUE printf-style. */
void campaign_argv_setting(campaign_argv *a, fuzz_setting id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The list for exec (never NULL: an empty list is {NULL}). */
char *const *campaign_argv_items(campaign_argv *a);

#endif
