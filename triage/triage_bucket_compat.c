/* triage_bucket_compat: keys of the form written before issue 23, as a
 * baseline may still list them (the format: triage_bucket.h).
 *
 * Two parts changed. A scan's rows were absolute ("@rows<32", "@rows<256",
 * "@rows<1024", "@rows>=1024" by the first row that differs); they are now
 * relative to the case (triage_bucket_scan_rows), and an old range covers
 * the new keys whose first row lies in it: "@edgeN" and "@rows<N" say that
 * row, "@last" does not (a last-row finding is new to such a baseline,
 * which is the safe side). And an external target's failures were
 * "<class>|-|-" whatever went wrong; such a key covers every bucket of
 * its class now (triage_target.h).
 */
#include "triage_bucket.h"

#include <stdio.h>
#include <string.h>

/* The three parts of a key, as offsets: false unless there are three. */
typedef struct {
    size_t what, where, how; /* lengths of the first two; `how` its start */
} triage_bucket_compat_parts;

static bool triage_bucket_compat_split(const char *key, triage_bucket_compat_parts *p) {
    const char *a = strchr(key, '|');
    const char *b = a != NULL ? strchr(a + 1, '|') : NULL;
    if (b == NULL) {
        return false;
    }
    p->what = (size_t)(a - key);
    p->where = (size_t)(b - a - 1);
    p->how = (size_t)(b + 1 - key);
    return true;
}

/* The old range ("<32", "<256", "<1024", ">=1024") of a new scan part
 * after "live@", or NULL ("last", or not a scan's). */
static const char *triage_bucket_compat_old_range(const char *rows, size_t n) {
    static const struct {
        const char *now, *then;
    } table[] = {
        {"rows<32", "rows<32"},      {"edge32", "rows<256"},      {"rows<256", "rows<256"},
        {"edge256", "rows<1024"},    {"edge512", "rows<1024"},    {"rows<512", "rows<1024"},
        {"rows<1024", "rows<1024"},  {"edge1024", "rows>=1024"},  {"edge2048", "rows>=1024"},
        {"edge4096", "rows>=1024"},  {"rows<2048", "rows>=1024"}, {"rows<4096", "rows>=1024"},
        {"rows>=4096", "rows>=1024"},
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
        if (strlen(table[k].now) == n && strncmp(rows, table[k].now, n) == 0) {
            return table[k].then;
        }
    }
    return NULL;
}

/* An old scan key: the same buffer and relation, and the range the new
 * key's first row falls in. */
static bool triage_bucket_compat_scan(const char *listed, const triage_bucket_compat_parts *l,
                                      const char *key, const triage_bucket_compat_parts *k) {
    const char *live = "live@";
    size_t n = strlen(live);
    if (l->what != k->what || strncmp(listed, key, l->what) != 0 ||
        strcmp(listed + l->how, key + k->how) != 0 || l->where <= n || k->where <= n ||
        strncmp(listed + l->what + 1, live, n) != 0 || strncmp(key + k->what + 1, live, n) != 0) {
        return false;
    }
    const char *then = triage_bucket_compat_old_range(key + k->what + 1 + n, k->where - n);
    return then != NULL && strlen(then) == l->where - n &&
           strncmp(listed + l->what + 1 + n, then, l->where - n) == 0;
}

/* "<class>|-|-" of a target class, or of reference_drift (before issue 27
 * every drift was "reference_drift|-|-"): every key of that class. */
static bool triage_bucket_compat_target(const char *listed, const char *key) {
    static const char *const classes[] = {"target_deviates", "target_raised", "target_crashed",
                                          "target_hung", "reference_drift"};
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        char old[64];
        size_t n = strlen(classes[k]);
        snprintf(old, sizeof old, "%s|-|-", classes[k]);
        if (strcmp(listed, old) == 0) {
            return strncmp(key, classes[k], n) == 0 && (key[n] == '|' || key[n] == ':');
        }
    }
    return false;
}

bool triage_bucket_covers(const char *listed, const char *key) {
    if (strcmp(listed, key) == 0) {
        return true;
    }
    if (triage_bucket_compat_target(listed, key)) {
        return true;
    }
    triage_bucket_compat_parts l, k;
    return triage_bucket_compat_split(listed, &l) && triage_bucket_compat_split(key, &k) &&
           triage_bucket_compat_scan(listed, &l, key, &k);
}
