/* triage_baseline: loads and queries the baseline of accepted differences.
 *
 * The loader is as strict as the document readers in core/: every problem
 * is one message naming the file, the field and the index
 * ("known.json: classes[2].decision: expected accepted, bug or wontfix,
 * found \"maybe\""). A listed signature must be in the canonical form that
 * triage_finding_sign writes, or it could never match a finding: a typo there
 * would silently turn a known difference back into a failure.
 */
#include "triage.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gm_json_tree.h"
#include "gm_jsonint.h"
#include "gm_textfile.h"
#include "triage_bucket.h"

#define TRIAGE_BASELINE_FORMAT "gmfuzz-known-v1"
/* A baseline is a short hand-written list; anything bigger is a mistake. */
#define TRIAGE_BASELINE_MAX_BYTES ((size_t)16 << 20)

typedef struct {
    char *signature;
    triage_decision decision;
    char *explanation;
} triage_baseline_listed;

struct triage_baseline {
    bool class_listed[TRIAGE_CLASS_COUNT];
    triage_decision class_decision[TRIAGE_CLASS_COUNT];
    char *class_explanation[TRIAGE_CLASS_COUNT];
    triage_baseline_listed *entries;
    size_t n_entries;
    triage_baseline_listed *buckets; /* "buckets": `signature` holds the bucket's key */
    size_t n_buckets;
};

/* Where the loader is, for messages: "<file>: <list>[<index>].<field>". */
typedef struct {
    const char *path;
    const char *list;
    size_t index;
    gm_error *err;
} triage_baseline_where;

static const char *const triage_baseline_decision_names[] = {"accepted", "bug", "wontfix"};

__attribute__((format(printf, 3, 4)))
static bool triage_baseline_fail(const triage_baseline_where *w, const char *field, const char *fmt,
                                 ...) {
    char problem[GM_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
    if (w->list == NULL) {
        return gm_error_set(w->err, GM_ERR_FORMAT, "%s: %s: %s", w->path, field, problem);
    }
    return gm_error_set(w->err, GM_ERR_FORMAT, "%s: %s[%zu].%s: %s", w->path, w->list, w->index,
                        field, problem);
}

bool triage_baseline_empty(triage_baseline **out, gm_error *err) {
    *out = calloc(1, sizeof **out);
    return *out != NULL || gm_error_set(err, GM_ERR_MEMORY, "out of memory for a baseline");
}

void triage_baseline_free(triage_baseline *b) {
    if (b == NULL) {
        return;
    }
    for (size_t k = 0; k < b->n_entries; k++) {
        free(b->entries[k].signature);
        free(b->entries[k].explanation);
    }
    for (size_t k = 0; k < b->n_buckets; k++) {
        free(b->buckets[k].signature);
        free(b->buckets[k].explanation);
    }
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        free(b->class_explanation[k]);
    }
    free(b->entries);
    free(b->buckets);
    free(b);
}

/* ---- fields ------------------------------------------------------------ */

/* A required string member; `found` quotes hostile text safely. */
static bool triage_baseline_string(const triage_baseline_where *w, const cJSON *obj,
                                   const char *field, const char **out) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (item == NULL) {
        return triage_baseline_fail(w, field, "missing");
    }
    if (!cJSON_IsString(item) || item->valuestring == NULL) {
        return triage_baseline_fail(w, field, "expected a string, found %s",
                                    gm_jsonint_type_name(item));
    }
    *out = item->valuestring;
    return true;
}

static bool triage_baseline_decision(const triage_baseline_where *w, const cJSON *obj,
                                     triage_decision *out) {
    const char *text = NULL;
    if (!triage_baseline_string(w, obj, "decision", &text)) {
        return false;
    }
    for (int d = TRIAGE_DECISION_ACCEPTED; d <= TRIAGE_DECISION_WONTFIX; d++) {
        if (strcmp(text, triage_baseline_decision_names[d]) == 0) {
            *out = (triage_decision)d;
            return true;
        }
    }
    char quoted[64];
    gm_jsonint_quote(text, quoted, sizeof quoted);
    return triage_baseline_fail(w, "decision", "expected accepted, bug or wontfix, found %s",
                                quoted);
}

/* A person's reason is part of every entry: a bare "accepted" says nothing.
 * `out` receives a copy, the caller's to free. */
static bool triage_baseline_explanation(const triage_baseline_where *w, const cJSON *obj,
                                        char **out) {
    const char *text = NULL;
    if (!triage_baseline_string(w, obj, "explanation", &text)) {
        return false;
    }
    if (text[0] == '\0') {
        return triage_baseline_fail(w, "explanation", "is empty");
    }
    *out = strdup(text);
    return *out != NULL || gm_error_set(w->err, GM_ERR_MEMORY, "%s: out of memory", w->path);
}

/* ---- signatures ---------------------------------------------------------- */

/* A listed signature must be one that triage_finding_sign writes, or it could
 * never match a finding; the parser's message says which part is wrong. */
static bool triage_baseline_signature(const triage_baseline_where *w, const cJSON *obj,
                                      const char **out) {
    triage_finding f;
    gm_error problem = {0};
    if (!triage_baseline_string(w, obj, "signature", out)) {
        return false;
    }
    if (!triage_finding_parse(*out, &f, &problem)) {
        return triage_baseline_fail(w, "signature", "%s", problem.msg);
    }
    return true;
}

/* ---- lists ------------------------------------------------------------- */

static bool triage_baseline_class_entry(triage_baseline *b, const triage_baseline_where *w,
                                        const cJSON *item) {
    const char *name = NULL;
    triage_class k = TRIAGE_CLASS_UNCLASSIFIED;
    triage_decision d = TRIAGE_DECISION_ACCEPTED;
    char quoted[64];
    if (!triage_baseline_string(w, item, "class", &name)) {
        return false;
    }
    gm_jsonint_quote(name, quoted, sizeof quoted);
    if (!triage_class_from_name(name, &k)) {
        return triage_baseline_fail(w, "class", "unknown class %s", quoted);
    }
    if (k == TRIAGE_CLASS_UNCLASSIFIED) {
        return triage_baseline_fail(w, "class", "unclassified differences cannot be accepted as a "
                                            "class; list their signature instead");
    }
    if (b->class_listed[k]) {
        return triage_baseline_fail(w, "class", "%s is listed twice", quoted);
    }
    if (!triage_baseline_decision(w, item, &d) ||
        !triage_baseline_explanation(w, item, &b->class_explanation[k])) {
        return false;
    }
    b->class_listed[k] = true;
    b->class_decision[k] = d;
    return true;
}

static bool triage_baseline_signature_entry(triage_baseline *b, const triage_baseline_where *w,
                                            const cJSON *item) {
    const char *signature = NULL;
    triage_decision d = TRIAGE_DECISION_ACCEPTED;
    if (!triage_baseline_signature(w, item, &signature)) {
        return false;
    }
    for (size_t k = 0; k < b->n_entries; k++) {
        if (strcmp(b->entries[k].signature, signature) == 0) {
            return triage_baseline_fail(w, "signature", "\"%s\" is listed twice", signature);
        }
    }
    char *explanation = NULL;
    if (!triage_baseline_decision(w, item, &d) ||
        !triage_baseline_explanation(w, item, &explanation)) {
        return false;
    }
    triage_baseline_listed *grown = realloc(b->entries, (b->n_entries + 1) * sizeof *grown);
    char *copy = grown != NULL ? strdup(signature) : NULL;
    if (grown != NULL) {
        b->entries = grown;
    }
    if (copy == NULL) {
        free(explanation);
        return gm_error_set(w->err, GM_ERR_MEMORY, "%s: out of memory", w->path);
    }
    triage_baseline_listed *e = &b->entries[b->n_entries];
    e->signature = copy;
    e->explanation = explanation;
    e->decision = d;
    b->n_entries++;
    return true;
}

/* A bucket key is "<what>|<where>|<how>" (triage_bucket.h): three parts, no
 * empty one; its names are not checked further, since a bucket a newer
 * gmfuzz writes must stay listable. */
static bool triage_baseline_bucket_key(const triage_baseline_where *w, const char *key) {
    const char *a = strchr(key, '|');
    const char *b = a != NULL ? strchr(a + 1, '|') : NULL;
    bool ok = a != NULL && b != NULL && strchr(b + 1, '|') == NULL && a > key && b > a + 1 &&
              b[1] != '\0' && strlen(key) < TRIAGE_BUCKET_MAX;
    if (!ok) {
        char quoted[TRIAGE_BUCKET_MAX + 16];
        gm_jsonint_quote(key, quoted, sizeof quoted);
        return triage_baseline_fail(w, "bucket", "%s is not WHAT|WHERE|HOW (triage_bucket.h)",
                                    quoted);
    }
    return true;
}

static bool triage_baseline_bucket_entry(triage_baseline *b, const triage_baseline_where *w,
                                         const cJSON *item) {
    const char *key = NULL;
    triage_decision d = TRIAGE_DECISION_ACCEPTED;
    if (!triage_baseline_string(w, item, "bucket", &key) || !triage_baseline_bucket_key(w, key)) {
        return false;
    }
    for (size_t k = 0; k < b->n_buckets; k++) {
        if (strcmp(b->buckets[k].signature, key) == 0) {
            return triage_baseline_fail(w, "bucket", "\"%s\" is listed twice", key);
        }
    }
    char *explanation = NULL;
    if (!triage_baseline_decision(w, item, &d) ||
        !triage_baseline_explanation(w, item, &explanation)) {
        return false;
    }
    triage_baseline_listed *grown = realloc(b->buckets, (b->n_buckets + 1) * sizeof *grown);
    char *copy = grown != NULL ? strdup(key) : NULL;
    if (grown != NULL) {
        b->buckets = grown;
    }
    if (copy == NULL) {
        free(explanation);
        return gm_error_set(w->err, GM_ERR_MEMORY, "%s: out of memory", w->path);
    }
    b->buckets[b->n_buckets++] = (triage_baseline_listed){copy, d, explanation};
    return true;
}

typedef bool (*triage_baseline_entry_fn)(triage_baseline *b, const triage_baseline_where *w,
                                         const cJSON *item);

/* An optional array member whose elements are objects read by `entry`. */
static bool triage_baseline_list(triage_baseline *b, const char *path, const cJSON *root,
                                 const char *list, triage_baseline_entry_fn entry, gm_error *err) {
    triage_baseline_where w = {path, NULL, 0, err};
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, list);
    if (arr == NULL) {
        return true;
    }
    if (!cJSON_IsArray(arr)) {
        return triage_baseline_fail(&w, list, "expected an array, found %s",
                                    gm_jsonint_type_name(arr));
    }
    w.list = list;
    for (const cJSON *it = arr->child; it != NULL; it = it->next, w.index++) {
        if (!cJSON_IsObject(it)) {
            return gm_error_set(err, GM_ERR_FORMAT, "%s: %s[%zu]: expected an object, found %s",
                                path, list, w.index, gm_jsonint_type_name(it));
        }
        if (!entry(b, &w, it)) {
            return false;
        }
    }
    return true;
}

/* ---- the document ------------------------------------------------------ */

static bool triage_baseline_read_doc(triage_baseline *b, const char *path, const cJSON *root,
                                     gm_error *err) {
    triage_baseline_where w = {path, NULL, 0, err};
    const char *format = NULL;
    if (!cJSON_IsObject(root)) {
        return gm_error_set(err, GM_ERR_FORMAT, "%s: the document must be a JSON object, found %s",
                            path, gm_jsonint_type_name(root));
    }
    if (!triage_baseline_string(&w, root, "format", &format)) {
        return false;
    }
    if (strcmp(format, TRIAGE_BASELINE_FORMAT) != 0) {
        char quoted[64];
        gm_jsonint_quote(format, quoted, sizeof quoted);
        return triage_baseline_fail(&w, "format",
                                    "expected \"" TRIAGE_BASELINE_FORMAT "\", found %s", quoted);
    }
    return triage_baseline_list(b, path, root, "classes", triage_baseline_class_entry, err) &&
           triage_baseline_list(b, path, root, "signatures", triage_baseline_signature_entry,
                                err) &&
           triage_baseline_list(b, path, root, "buckets", triage_baseline_bucket_entry, err);
}

bool triage_baseline_load(const char *path, triage_baseline **out, gm_error *err) {
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    /* Sized by the file (gm_textfile), not by the limit: a reader that
     * allocated its 16 MiB maximum for every file was slow under ASan. */
    if (!gm_textfile_read(path, TRIAGE_BASELINE_MAX_BYTES, &text, &len, err)) {
        return false;
    }
    triage_baseline *b = NULL;
    cJSON *root = gm_json_tree_parse(text, len, err);
    bool ok = root != NULL;
    if (!ok) {
        gm_error_prefix(err, path);
    }
    ok = ok && triage_baseline_empty(&b, err) && triage_baseline_read_doc(b, path, root, err);
    cJSON_Delete(root);
    free(text);
    if (!ok) {
        triage_baseline_free(b);
        return false;
    }
    *out = b;
    return true;
}

/* ---- queries ----------------------------------------------------------- */

bool triage_baseline_is_known(const triage_baseline *b, const triage_finding *f) {
    triage_baseline_entry e;
    triage_baseline_lookup(b, f, &e);
    return e.known;
}

const char *triage_decision_name(triage_decision d) {
    return triage_baseline_decision_names[d];
}

/* Known by its classes: every class listed and accepted, none unclassified.
 * The explanation is the first class's (the one the signature starts with). */
static void triage_baseline_lookup_classes(const triage_baseline *b, const triage_finding *f,
                                           triage_baseline_entry *out) {
    if (f->classes == 0 || (f->classes & (1u << TRIAGE_CLASS_UNCLASSIFIED))) {
        return;
    }
    const char *first = NULL;
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        if (!(f->classes & (1u << k))) {
            continue;
        }
        if (!(b->class_listed[k] && b->class_decision[k] == TRIAGE_DECISION_ACCEPTED)) {
            return;
        }
        first = first != NULL ? first : b->class_explanation[k];
    }
    out->known = true;
    out->decision = TRIAGE_DECISION_ACCEPTED;
    out->explanation = first;
}

void triage_baseline_lookup(const triage_baseline *b, const triage_finding *f,
                            triage_baseline_entry *out) {
    *out = (triage_baseline_entry){.known = false, .decision = TRIAGE_DECISION_ACCEPTED};
    /* A drift of the C reference from real PyTorch undermines every other
     * verdict: no baseline entry accepts it (docs/TARGETS.md). */
    if (b == NULL || f->status == GM_STATUS_MATCH ||
        (f->classes & (1u << TRIAGE_CLASS_REFERENCE_DRIFT))) {
        return;
    }
    for (size_t k = 0; k < b->n_entries; k++) {
        if (strcmp(b->entries[k].signature, f->signature) == 0) {
            out->known = true;
            out->by_signature = true;
            out->decision = b->entries[k].decision;
            out->explanation = b->entries[k].explanation;
            return;
        }
    }
    for (size_t k = 0; f->bucket[0] != '\0' && k < b->n_buckets; k++) {
        if (triage_bucket_covers(b->buckets[k].signature, f->bucket)) {
            out->known = true;
            out->by_bucket = true;
            out->decision = b->buckets[k].decision;
            out->explanation = b->buckets[k].explanation;
            return;
        }
    }
    triage_baseline_lookup_classes(b, f, out);
}
