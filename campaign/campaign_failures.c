#include "campaign_failures.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm_json.h"
#include "repro.h"

void campaign_failures_init(campaign_failures *f) {
    memset(f, 0, sizeof *f);
}

void campaign_failures_free(campaign_failures *f) {
    for (size_t i = 0; i < f->n_names; i++) {
        free(f->names[i]);
    }
    for (size_t i = 0; i < f->n_sigs; i++) {
        free(f->sigs[i].smallest);
        free(f->sigs[i].first);
    }
    free(f->names);
    free(f->sigs);
    campaign_failures_init(f);
}

bool campaign_failures_is_failure_name(const char *name) {
    size_t n = strlen(name);
    return strncmp(name, "failure-", 8) == 0 && n > 13 && strcmp(name + n - 5, ".json") == 0;
}

static char *campaign_failures_strdup(const char *s) {
    char *copy = malloc(strlen(s) + 1);
    if (copy != NULL) {
        strcpy(copy, s);
    }
    return copy;
}

/* Where `name` is, or would go, in the sorted list of names read. */
static size_t campaign_failures_slot(const campaign_failures *f, const char *name, bool *found) {
    size_t lo = 0, hi = f->n_names;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(f->names[mid], name);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    *found = false;
    return lo;
}

/* Records `name` as read; false when memory runs out. */
static bool campaign_failures_remember(campaign_failures *f, size_t slot, const char *name) {
    if (f->n_names == f->cap_names) {
        size_t cap = f->cap_names ? f->cap_names * 2 : 64;
        char **grown = realloc(f->names, cap * sizeof *grown);
        if (grown == NULL) {
            return false;
        }
        f->names = grown;
        f->cap_names = cap;
    }
    char *copy = campaign_failures_strdup(name);
    if (copy == NULL) {
        return false;
    }
    memmove(&f->names[slot + 1], &f->names[slot], (f->n_names - slot) * sizeof *f->names);
    f->names[slot] = copy;
    f->n_names++;
    return true;
}

static campaign_signature *campaign_failures_signature(campaign_failures *f, const char *sig,
                                                       const char *bucket, bool *is_new) {
    *is_new = false;
    for (size_t i = 0; i < f->n_sigs; i++) {
        if (strcmp(f->sigs[i].signature, sig) == 0 && strcmp(f->sigs[i].bucket, bucket) == 0) {
            return &f->sigs[i];
        }
    }
    if (f->n_sigs == f->cap_sigs) {
        size_t cap = f->cap_sigs ? f->cap_sigs * 2 : 8;
        campaign_signature *grown = realloc(f->sigs, cap * sizeof *grown);
        if (grown == NULL) {
            return NULL;
        }
        f->sigs = grown;
        f->cap_sigs = cap;
    }
    campaign_signature *s = &f->sigs[f->n_sigs++];
    memset(s, 0, sizeof *s);
    snprintf(s->signature, sizeof s->signature, "%s", sig);
    snprintf(s->bucket, sizeof s->bucket, "%s", bucket);
    *is_new = true;
    return s;
}

/* One file's facts, from its reproducer. */
typedef struct {
    const char *path;
    long long bytes;
    double at_s;
    uint64_t execs;
    const char *signature;
    const char *bucket;
} campaign_failure_file;

/* Adds the file to its signature; true when that signature is new. */
static bool campaign_failures_add(campaign_failures *f, const campaign_failure_file *file) {
    bool is_new = false;
    campaign_signature *s = campaign_failures_signature(f, file->signature, file->bucket, &is_new);
    if (s == NULL) {
        return false;
    }
    s->count++;
    if (s->smallest == NULL || file->bytes < s->smallest_bytes) {
        free(s->smallest);
        s->smallest = campaign_failures_strdup(file->path);
        s->smallest_bytes = file->bytes;
    }
    if (s->first == NULL || file->at_s < s->first_s) {
        free(s->first);
        s->first = campaign_failures_strdup(file->path);
        s->first_s = file->at_s;
        s->first_execs = file->execs;
    }
    return is_new;
}

/* Failure files up to this size are read whole for their bucket. */
#define CAMPAIGN_FAILURES_WHOLE_MAX (256 * 1024)

static double campaign_failures_seconds_since(struct timespec t, struct timespec start) {
    return (double)(t.tv_sec - start.tv_sec) + (double)(t.tv_nsec - start.tv_nsec) * 1e-9;
}

/* The bucket of a failure file, from its recorded outputs (the whole
 * document); false when it is not a reproducer. */
static bool campaign_failures_bucket_of(const char *path, char *out, size_t size) {
    gm_limits limits;
    gm_limits_default(&limits);
    gm_doc doc;
    gm_doc_init(&doc);
    gm_error err = {0};
    bool ok = gm_json_read_file(path, &limits, &doc, &err) && doc.kind == GM_DOC_REPRO;
    if (ok) {
        triage_finding now;
        repro_recorded_finding(&doc, &now);
        snprintf(out, size, "%s", now.bucket);
    }
    gm_doc_free(&doc);
    return ok;
}

/* The bucket of a signature already kept whose signature and bucket give
 * the key of failure file `path`'s name (the bucket its job computed), or
 * NULL: none, or a name without the key. */
static const char *campaign_failures_known_bucket(const campaign_failures *f, const char *path,
                                                  const char *sig) {
    uint64_t key;
    if (!repro_failure_name_parse(path, &key)) {
        return NULL;
    }
    for (size_t i = 0; i < f->n_sigs; i++) {
        if (strcmp(f->sigs[i].signature, sig) == 0 &&
            repro_failure_name_key(sig, f->sigs[i].bucket) == key) {
            return f->sigs[i].bucket;
        }
    }
    return NULL;
}

/* Reads one new failure file; true when it brought a new signature. The
 * few fields needed are read first (repro.h): an unminimized
 * failure can be megabytes, and the whole document would take the
 * driver's loop a second to build. The bucket needs the recorded outputs:
 * a small file is read whole for it; a large one takes the bucket its name
 * says (repro_failure_name_key) when a file already read has it, and is
 * read whole only for a signature and bucket not met before, as triage
 * reads it (repro_rundir.c): the two give every file the same bucket. */
static bool campaign_failures_read(campaign_failures *f, const char *path, struct timespec start) {
    struct stat st;
    static repro_fields fields;
    gm_error err = {0};
    f->files++;
    if (stat(path, &st) != 0 || !repro_fields_read(path, &fields, &err)) {
        f->unreadable++;
        snprintf(f->last_problem, sizeof f->last_problem, "%s",
                 err.msg[0] ? err.msg : "not a reproducer with a signature");
        return false;
    }
    char computed[TRIAGE_BUCKET_MAX];
    const char *bucket = st.st_size > CAMPAIGN_FAILURES_WHOLE_MAX
                             ? campaign_failures_known_bucket(f, path, fields.finding.signature)
                             : NULL;
    if (bucket == NULL && !campaign_failures_bucket_of(path, computed, sizeof computed)) {
        f->unreadable++;
        snprintf(f->last_problem, sizeof f->last_problem, "%.400s: not a whole reproducer", path);
        return false;
    }
    campaign_failure_file file = {path, (long long)st.st_size,
                                  campaign_failures_seconds_since(st.st_mtim, start),
                                  fields.found_execs, fields.finding.signature,
                                  bucket ? bucket : computed};
    return campaign_failures_add(f, &file);
}

static double campaign_failures_clock(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

size_t campaign_failures_scan(campaign_failures *f, const char *dir, struct timespec start) {
    return campaign_failures_scan_some(f, dir, start, SIZE_MAX, 0.0, NULL);
}

size_t campaign_failures_scan_some(campaign_failures *f, const char *dir, struct timespec start,
                                   size_t max_files, double budget_s, bool *more) {
    double until = budget_s > 0.0 ? campaign_failures_clock() + budget_s : 0.0;
    if (more != NULL) {
        *more = false;
    }
    DIR *d = opendir(dir);
    if (d == NULL) {
        return 0;
    }
    size_t fresh = 0;
    char path[4096];
    size_t read = 0;
    bool out_of_time = false;
    for (struct dirent *e = readdir(d); e != NULL && read < max_files && !out_of_time;
         e = readdir(d)) {
        bool known = false;
        size_t slot = campaign_failures_slot(f, e->d_name, &known);
        if (known || !campaign_failures_is_failure_name(e->d_name) ||
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            !campaign_failures_remember(f, slot, e->d_name)) {
            continue;
        }
        fresh += campaign_failures_read(f, path, start) ? 1 : 0;
        read++;
        out_of_time = until > 0.0 && campaign_failures_clock() >= until;
    }
    if (more != NULL) {
        *more = read == max_files || out_of_time;
    }
    closedir(d);
    return fresh;
}

static int campaign_failures_order(const void *a, const void *b) {
    const campaign_signature *x = a, *y = b;
    if (x->first_s != y->first_s) {
        return x->first_s < y->first_s ? -1 : 1;
    }
    return strcmp(x->signature, y->signature);
}

/* After the time order: each bucket's signatures together, the buckets in
 * the order of their first signature. Quadratic, over the few thousand
 * signatures a campaign has at most. */
static void campaign_failures_group(campaign_failures *f) {
    campaign_signature *grouped = malloc(f->n_sigs * sizeof *grouped);
    bool *taken = calloc(f->n_sigs, sizeof *taken);
    size_t n = 0;
    for (size_t i = 0; grouped != NULL && taken != NULL && i < f->n_sigs; i++) {
        if (taken[i]) {
            continue;
        }
        for (size_t j = i; j < f->n_sigs; j++) {
            if (!taken[j] && strcmp(f->sigs[j].bucket, f->sigs[i].bucket) == 0) {
                grouped[n++] = f->sigs[j];
                taken[j] = true;
            }
        }
    }
    if (grouped != NULL && taken != NULL) {
        memcpy(f->sigs, grouped, f->n_sigs * sizeof *grouped);
    } /* else: out of memory, the time order stays */
    free(grouped);
    free(taken);
}

void campaign_failures_sort(campaign_failures *f) {
    if (f->n_sigs > 1) {
        qsort(f->sigs, f->n_sigs, sizeof *f->sigs, campaign_failures_order);
        campaign_failures_group(f);
    }
}
