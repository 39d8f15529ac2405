#include "fuzz_settings.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

typedef enum {
    FUZZ_SETTINGS_TEXT,
    FUZZ_SETTINGS_FLAG,
    FUZZ_SETTINGS_PERCENT,
    FUZZ_SETTINGS_COUNT,
    FUZZ_SETTINGS_SECONDS
} fuzz_settings_type;

typedef struct {
    const char *name;
    fuzz_settings_type type;
    size_t offset;
    unsigned long max;
} fuzz_settings_row;

static const fuzz_settings_row fuzz_settings_rows[FUZZ_SETTING_COUNT] = {
#define FUZZ_SETTING(id, field, type, def, max, help)                                      \
    {"GMFUZZ_" #id, FUZZ_SETTINGS_##type, offsetof(fuzz_settings, field), max},
#include "fuzz_settings.def"
};

static const char *const fuzz_settings_others[] = {
#define FUZZ_SETTING_OTHER(name, reader) #name,
#include "fuzz_settings.def"
};
enum { FUZZ_SETTINGS_N_OTHERS = sizeof fuzz_settings_others / sizeof fuzz_settings_others[0] };

static const fuzz_settings fuzz_settings_defaults = {
#define FUZZ_SETTING(id, field, type, def, max, help) .field = def,
#include "fuzz_settings.def"
};

const char *fuzz_settings_name(fuzz_setting s) {
    return (unsigned)s < FUZZ_SETTING_COUNT ? fuzz_settings_rows[s].name : "GMFUZZ_?";
}

/* A whole decimal number in [lo, max], no sign. */
static bool fuzz_settings_decimal(const char *v, unsigned long lo, unsigned long max,
                                  unsigned long *out) {
    char *end = NULL;
    unsigned long n = strtoul(v, &end, 10);
    *out = n;
    return *end == '\0' && v[0] != '-' && n >= lo && n <= max;
}

static bool fuzz_settings_parse(const fuzz_settings_row *r, const char *v, void *field,
                                gm_error *err) {
    unsigned long n = 0;
    switch (r->type) {
    case FUZZ_SETTINGS_TEXT:
        *(const char **)field = v;
        return true;
    case FUZZ_SETTINGS_FLAG:
        *(bool *)field = v[0] == '1';
        return (strcmp(v, "0") == 0 || strcmp(v, "1") == 0) ||
               gm_error_set(err, GM_ERR_USAGE, "%s: '%s' is not 0 or 1", r->name, v);
    case FUZZ_SETTINGS_PERCENT:
        if (!fuzz_settings_decimal(v, 0, r->max, &n)) {
            return gm_error_set(err, GM_ERR_USAGE, "%s: '%s' is not a percentage 0..100",
                                r->name, v);
        }
        *(unsigned *)field = (unsigned)n;
        return true;
    case FUZZ_SETTINGS_COUNT:
        if (!fuzz_settings_decimal(v, 1, r->max, &n)) {
            return gm_error_set(err, GM_ERR_USAGE, "%s: '%s' is not 1..%lu", r->name, v, r->max);
        }
        *(uint64_t *)field = n;
        return true;
    case FUZZ_SETTINGS_SECONDS: {
        char *end = NULL;
        double s = strtod(v, &end);
        *(double *)field = s;
        return (*end == '\0' && s > 0) ||
               gm_error_set(err, GM_ERR_USAGE, "%s: '%s' is not seconds", r->name, v);
    }
    }
    return false;
}

bool fuzz_settings_read(fuzz_settings *out, gm_error *err) {
    fuzz_settings_warn(environ, stderr);
    *out = fuzz_settings_defaults;
    for (int i = 0; i < FUZZ_SETTING_COUNT; i++) {
        const fuzz_settings_row *r = &fuzz_settings_rows[i];
        const char *v = getenv(r->name);
        if (v != NULL && v[0] != '\0' && !fuzz_settings_parse(r, v, (char *)out + r->offset, err)) {
            return false;
        }
    }
    return true;
}

/* Levenshtein distance of a[0..na) and b[0..nb), names being short. */
static size_t fuzz_settings_distance(const char *a, size_t na, const char *b) {
    size_t nb = strlen(b);
    size_t row[128];
    if (nb >= sizeof row / sizeof row[0] || na >= sizeof row / sizeof row[0]) {
        return (size_t)-1;
    }
    for (size_t j = 0; j <= nb; j++) {
        row[j] = j;
    }
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            best = up + 1 < best ? up + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

static const char *fuzz_settings_known(int k) {
    return k < FUZZ_SETTING_COUNT ? fuzz_settings_rows[k].name
                                  : fuzz_settings_others[k - FUZZ_SETTING_COUNT];
}

/* The nearest known name to name[0..n); *exact when it is one. */
static const char *fuzz_settings_nearest(const char *name, size_t n, bool *exact) {
    const char *best = fuzz_settings_known(0);
    size_t best_d = (size_t)-1;
    for (int k = 0; k < FUZZ_SETTING_COUNT + FUZZ_SETTINGS_N_OTHERS; k++) {
        size_t d = fuzz_settings_distance(name, n, fuzz_settings_known(k));
        if (d < best_d) {
            best = fuzz_settings_known(k);
            best_d = d;
        }
    }
    *exact = best_d == 0;
    return best;
}

const char *fuzz_settings_closest(const char *name) {
    bool exact = false;
    return fuzz_settings_nearest(name, strlen(name), &exact);
}

int fuzz_settings_warn(char *const *env, FILE *to) {
    int n = 0;
    for (size_t i = 0; env != NULL && env[i] != NULL; i++) {
        const char *eq = strchr(env[i], '=');
        size_t len = eq != NULL ? (size_t)(eq - env[i]) : strlen(env[i]);
        bool exact = false;
        if (strncmp(env[i], "GMFUZZ_", 7) != 0) {
            continue;
        }
        const char *near = fuzz_settings_nearest(env[i], len, &exact);
        if (!exact) {
            fprintf(to, "gmfuzz: warning: %.*s is not a setting gmfuzz knows (did you mean %s?); "
                        "it is ignored\n", (int)len, env[i], near);
            n++;
        }
    }
    return n;
}
