/* repro_rundir: reads a run folder and groups its failing inputs by
 * signature and bucket.
 *
 * Every reproducer is read with repro_fields (the fields triage needs,
 * not the buffers); a file up to 256 KiB is read whole too, for the bucket
 * its recorded outputs give; a larger one takes the bucket its name says
 * (repro_failure_name_key) where a file read has it, as the campaign does
 * (campaign_failures.c), else it is read whole too: a reproducer of
 * repros/ or of a plain folder, whose name holds no key, always is (an
 * unminimized one can be megabytes: right before fast). The inputs are sorted by
 * signature and bucket, so that each group's inputs are one run of the
 * array; the minimized reproducers
 * of repros/ join the run of their signature (matched by their
 * "signature" field: file names are only a convenience). A signature that
 * has a reproducer in repros/ but no input in failures/ (failures/ cleaned
 * up, or a reproducer added by hand) still appears, with the reproducer as
 * its one input: nothing found is dropped.
 */
#include "repro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "repro_rundir_bucket.h"

/* Files up to this size are read whole for their bucket (as the campaign
 * reads its failure files: campaign_failures.c). */
#define REPRO_RUNDIR_WHOLE_MAX (256 * 1024)

/* One reproducer file that was read. */
typedef struct {
    const char *path;   /* owned by the loader's harness_paths */
    bool minimized;     /* from repros/: the signature's minimized reproducer */
    repro_fields f;
    char bucket[TRIAGE_BUCKET_MAX]; /* from its recorded outputs; "" not yet */
    char *stale;        /* why its recorded signature is not what they give, or NULL */
} repro_rundir_input;

typedef struct {
    repro_rundir_input *items;
    size_t n;
} repro_rundir_inputs;

/* The loader's state: the files found and the inputs read from them. */
typedef struct {
    repro_rundir *out;
    harness_paths failures, repros;
    repro_rundir_inputs inputs;
    gm_error *err;
} repro_rundir_loader;

static bool repro_rundir_is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool repro_rundir_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static bool repro_rundir_join(char *out, size_t size, const char *dir, const char *name,
                              gm_error *err) {
    if ((size_t)snprintf(out, size, "%s/%s", dir, name) >= size) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: path too long", dir);
    }
    return true;
}

/* ---- reading the files ------------------------------------------------- */

/* Reads every file of `files` into the inputs; a file that is not a
 * reproducer is counted, and why is kept, but does not stop the load. */
static bool repro_rundir_read_all(repro_rundir_loader *ld, const harness_paths *files, bool minimized) {
    repro_rundir_inputs *in = &ld->inputs;
    repro_rundir_input *grown = realloc(in->items, (in->n + files->count + 1) * sizeof *grown);
    if (grown == NULL) {
        return gm_error_set(ld->err, GM_ERR_MEMORY, "%s: out of memory for %zu files",
                            ld->out->path, files->count);
    }
    in->items = grown;
    for (size_t k = 0; k < files->count; k++) {
        repro_rundir_input *it = &in->items[in->n];
        gm_error problem = {0};
        it->path = files->items[k];
        it->minimized = minimized;
        it->bucket[0] = '\0';
        it->stale = NULL;
        if (repro_fields_read(it->path, &it->f, &problem)) {
            in->n++;
        } else if (problem.code == GM_ERR_MEMORY) {
            *ld->err = problem;
            return false;
        } else {
            ld->out->unreadable++;
            snprintf(ld->out->last_problem, sizeof ld->out->last_problem, "%s", problem.msg);
        }
    }
    return true;
}

/* Lists `dir`'s *.json files (recursively, sorted) into `files`. */
static bool repro_rundir_list(repro_rundir_loader *ld, const char *dir, harness_paths *files) {
    if (!harness_paths_add(files, dir, ld->err)) {
        gm_error_prefix(ld->err, "cannot list the folder");
        return false;
    }
    return true;
}

/* failures/ and repros/ of a run folder; every *.json of a plain one. */
static bool repro_rundir_read_inputs(repro_rundir_loader *ld) {
    char failures[4096], repros[4096];
    const char *dir = ld->out->path;
    if (!ld->out->is_campaign) {
        return repro_rundir_list(ld, dir, &ld->failures) &&
               repro_rundir_read_all(ld, &ld->failures, false);
    }
    if (!repro_rundir_join(failures, sizeof failures, dir, "failures", ld->err) ||
        !repro_rundir_join(repros, sizeof repros, dir, "repros", ld->err)) {
        return false;
    }
    return (!repro_rundir_is_dir(failures) || repro_rundir_list(ld, failures, &ld->failures)) &&
           (!repro_rundir_is_dir(repros) || repro_rundir_list(ld, repros, &ld->repros)) &&
           repro_rundir_read_all(ld, &ld->failures, false) &&
           repro_rundir_read_all(ld, &ld->repros, true);
}

/* campaign.json and stats.jsonl, when the folder has them. */
static bool repro_rundir_read_campaign(repro_rundir *out, gm_error *err) {
    char path[4096];
    if (!repro_rundir_join(path, sizeof path, out->path, "campaign.json", err)) {
        return false;
    }
    if (repro_rundir_exists(path) && !repro_rundir_campaign_read(path, &out->campaign, err)) {
        return false;
    }
    if (!repro_rundir_join(path, sizeof path, out->path, "stats.jsonl", err)) {
        return false;
    }
    return !repro_rundir_exists(path) ||
           repro_rundir_stats_read(path, &out->samples, &out->n_samples, err);
}

/* ---- buckets ----------------------------------------------------------- */

static bool repro_rundir_bucket_input(repro_rundir_loader *ld, repro_rundir_input *it) {
    if (!repro_rundir_bucket_of(it->path, it->bucket, sizeof it->bucket, &it->stale)) {
        return gm_error_set(ld->err, GM_ERR_MEMORY, "%s: out of memory", ld->out->path);
    }
    return true;
}

static int repro_rundir_by_signature_only(const void *a, const void *b) {
    const repro_rundir_input *x = a, *y = b;
    return strcmp(x->f.finding.signature, y->f.finding.signature);
}

/* An input of the run whose signature and bucket give the key `it`'s
 * name holds (the bucket its job computed), or NULL. */
static const repro_rundir_input *repro_rundir_same_key(const repro_rundir_input *run, size_t n,
                                                       const repro_rundir_input *it) {
    uint64_t key;
    if (!repro_failure_name_parse(it->path, &key)) {
        return NULL;
    }
    for (size_t k = 0; k < n; k++) {
        if (run[k].bucket[0] != '\0' &&
            repro_failure_name_key(run[k].f.finding.signature, run[k].bucket) == key) {
            return &run[k];
        }
    }
    return NULL;
}

/* The bucket of every input of one signature's run: a small file its own;
 * a large one the bucket its name says when a file read has it (as the
 * campaign gives it, campaign_failures.c), else its own, read whole. */
static bool repro_rundir_bucket_run(repro_rundir_loader *ld, repro_rundir_input *run, size_t n) {
    for (size_t k = 0; k < n; k++) {
        if (run[k].f.bytes <= REPRO_RUNDIR_WHOLE_MAX && !repro_rundir_bucket_input(ld, &run[k])) {
            return false;
        }
    }
    for (size_t k = 0; k < n; k++) {
        if (run[k].f.bytes <= REPRO_RUNDIR_WHOLE_MAX) {
            continue;
        }
        const repro_rundir_input *same = repro_rundir_same_key(run, n, &run[k]);
        if (same == NULL) {
            if (!repro_rundir_bucket_input(ld, &run[k])) {
                return false;
            }
            continue;
        }
        snprintf(run[k].bucket, sizeof run[k].bucket, "%s", same->bucket);
        run[k].stale = same->stale != NULL ? strdup(same->stale) : NULL;
        if (same->stale != NULL && run[k].stale == NULL) {
            return gm_error_set(ld->err, GM_ERR_MEMORY, "%s: out of memory", ld->out->path);
        }
    }
    return true;
}

/* The end of the run of inputs from `from` that `same` holds equal to it
 * (the inputs sorted by it). */
static size_t repro_rundir_run_end(const repro_rundir_inputs *in, size_t from,
                                   int (*same)(const void *, const void *)) {
    size_t to = from + 1;
    while (to < in->n && same(&in->items[to], &in->items[from]) == 0) {
        to++;
    }
    return to;
}

static bool repro_rundir_bucket_inputs(repro_rundir_loader *ld) {
    repro_rundir_inputs *in = &ld->inputs;
    qsort(in->items, in->n, sizeof *in->items, repro_rundir_by_signature_only);
    for (size_t from = 0, to; from < in->n; from = to) {
        to = repro_rundir_run_end(in, from, repro_rundir_by_signature_only);
        if (!repro_rundir_bucket_run(ld, &in->items[from], to - from)) {
            return false;
        }
    }
    return true;
}

/* ---- grouping ---------------------------------------------------------- */

/* Whether two inputs are of one group: signature and bucket. */
static int repro_rundir_group_cmp(const void *a, const void *b) {
    const repro_rundir_input *x = a, *y = b;
    int c = strcmp(x->f.finding.signature, y->f.finding.signature);
    return c != 0 ? c : strcmp(x->bucket, y->bucket);
}

/* By signature and bucket; within one, the failures before the minimized
 * ones, then the order of the files (their paths are sorted). */
static int repro_rundir_by_signature(const void *a, const void *b) {
    const repro_rundir_input *x = a, *y = b;
    int c = repro_rundir_group_cmp(x, y);
    if (c != 0) {
        return c;
    }
    if (x->minimized != y->minimized) {
        return x->minimized ? 1 : -1;
    }
    return strcmp(x->path, y->path);
}

/* Whether `it` was found before the signature's earliest so far. */
static bool repro_rundir_earlier(const repro_rundir_input *it, const repro_rundir_signature *s) {
    int c = strcmp(it->f.found_at, s->first_seen);
    return s->first_seen[0] == '\0' || c < 0 || (c == 0 && it->f.found_execs < s->first_execs);
}

/* Counts one input of signature `s`: times seen. */
static void repro_rundir_count(repro_rundir_signature *s, const repro_rundir_input *it) {
    s->count++;
    if (!it->f.has_found) {
        return;
    }
    if (repro_rundir_earlier(it, s)) {
        snprintf(s->first_seen, sizeof s->first_seen, "%s", it->f.found_at);
        s->first_execs = it->f.found_execs;
    }
    if (strcmp(it->f.found_at, s->last_seen) > 0) {
        snprintf(s->last_seen, sizeof s->last_seen, "%s", it->f.found_at);
    }
}

/* The file that represents the signature: the smallest minimized
 * reproducer, else the smallest input (the first of equal ones). */
static const repro_rundir_input *repro_rundir_pick(const repro_rundir_input *run, size_t n,
                                                   bool minimized) {
    const repro_rundir_input *best = NULL;
    for (size_t k = 0; k < n; k++) {
        if (run[k].minimized == minimized && (best == NULL || run[k].f.bytes < best->f.bytes)) {
            best = &run[k];
        }
    }
    return best;
}

/* The signature of one run of inputs with one signature and bucket. */
static bool repro_rundir_signature_of(const repro_rundir_input *run, size_t n,
                                      const triage_baseline *baseline, repro_rundir_signature *s) {
    const repro_rundir_input *repro = repro_rundir_pick(run, n, true);
    const repro_rundir_input *smallest = repro != NULL ? repro : repro_rundir_pick(run, n, false);
    bool only_repros = run[0].minimized; /* failures sort first: none here */
    memset(s, 0, sizeof *s);
    s->finding = run[0].f.finding;
    for (size_t k = 0; k < n; k++) {
        if (run[k].minimized == only_repros) {
            repro_rundir_count(s, &run[k]);
        }
    }
    s->repro = repro != NULL ? strdup(repro->path) : NULL;
    s->smallest = strdup(smallest->path);
    s->smallest_bytes = smallest->f.bytes;
    s->smallest_bs = smallest->f.bs;
    s->first_difference = smallest->f.first_difference;
    snprintf(s->bucket_key, sizeof s->bucket_key, "%s", smallest->bucket);
    triage_baseline_lookup(baseline, &s->finding, &s->baseline);
    if (smallest->stale != NULL) {
        /* what it records is not what it shows: new, whatever the
         * baseline says of the signature it claims */
        s->stale = strdup(smallest->stale);
        s->baseline = (triage_baseline_entry){.known = false};
    }
    return s->smallest != NULL && (repro == NULL || s->repro != NULL) &&
           (smallest->stale == NULL || s->stale != NULL);
}

/* Earliest first; a signature never timed (no "found") after the timed
 * ones; then by signature, so that the order is total. */
static int repro_rundir_by_first_seen(const void *a, const void *b) {
    const repro_rundir_signature *x = a, *y = b;
    bool x_timed = x->first_seen[0] != '\0', y_timed = y->first_seen[0] != '\0';
    if (x_timed != y_timed) {
        return x_timed ? -1 : 1;
    }
    int c = strcmp(x->first_seen, y->first_seen);
    return c != 0 ? c : strcmp(x->finding.signature, y->finding.signature);
}

/* The totals over signatures: inputs and inputs naming each class. */
static void repro_rundir_totals(repro_rundir *r) {
    for (size_t i = 0; i < r->n_sigs; i++) {
        const repro_rundir_signature *s = &r->sigs[i];
        r->inputs += s->count;
        for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
            r->class_inputs[k] += (s->finding.classes & (1u << k)) ? s->count : 0;
        }
    }
}

static bool repro_rundir_group(repro_rundir_loader *ld, const triage_baseline *baseline) {
    repro_rundir_inputs *in = &ld->inputs;
    repro_rundir *r = ld->out;
    if (in->n == 0) {
        return true;
    }
    if (!repro_rundir_bucket_inputs(ld)) {
        return false;
    }
    qsort(in->items, in->n, sizeof *in->items, repro_rundir_by_signature);
    r->sigs = calloc(in->n, sizeof *r->sigs);
    if (r->sigs == NULL) {
        return gm_error_set(ld->err, GM_ERR_MEMORY, "%s: out of memory", r->path);
    }
    for (size_t from = 0, to; from < in->n; from = to) {
        to = repro_rundir_run_end(in, from, repro_rundir_group_cmp);
        repro_rundir_signature *into = &r->sigs[r->n_sigs++];
        if (!repro_rundir_signature_of(&in->items[from], to - from, baseline, into)) {
            return gm_error_set(ld->err, GM_ERR_MEMORY, "%s: out of memory", r->path);
        }
    }
    qsort(r->sigs, r->n_sigs, sizeof *r->sigs, repro_rundir_by_first_seen);
    repro_rundir_totals(r);
    return repro_rundir_bucket_build(r, baseline, ld->err);
}

/* ---- the folder -------------------------------------------------------- */

/* A run folder: what `gmfuzz fuzz` writes (failures/, repros/ or
 * campaign.json); anything else is a plain folder of reproducers. */
static bool repro_rundir_detect(repro_rundir *r, gm_error *err) {
    static const char *const marks[] = {"failures", "repros", "campaign.json"};
    char path[4096];
    for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++) {
        if (!repro_rundir_join(path, sizeof path, r->path, marks[k], err)) {
            return false;
        }
        r->is_campaign = r->is_campaign || (k < 2 ? repro_rundir_is_dir(path)
                                                  : repro_rundir_exists(path));
    }
    return true;
}

bool repro_rundir_load(const char *dir, const triage_baseline *baseline, repro_rundir *out,
                       gm_error *err) {
    memset(out, 0, sizeof *out);
    out->campaign.exit_code = -1;
    if (!repro_rundir_is_dir(dir)) {
        return gm_error_set(err, GM_ERR_IO, "%s: %s", dir,
                            repro_rundir_exists(dir) ? "not a folder" : "no such folder");
    }
    out->path = strdup(dir);
    if (out->path == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", dir);
    }
    repro_rundir_loader ld = {.out = out, .err = err};
    harness_paths_init(&ld.failures);
    harness_paths_init(&ld.repros);
    bool ok = repro_rundir_detect(out, err) &&
              (!out->is_campaign || repro_rundir_read_campaign(out, err)) &&
              repro_rundir_read_inputs(&ld) && repro_rundir_group(&ld, baseline);
    for (size_t k = 0; k < ld.inputs.n; k++) {
        free(ld.inputs.items[k].stale);
    }
    free(ld.inputs.items);
    harness_paths_free(&ld.failures);
    harness_paths_free(&ld.repros);
    if (!ok) {
        repro_rundir_free(out);
    }
    return ok;
}

size_t repro_rundir_new_buckets(const repro_rundir *r) {
    size_t n = 0;
    for (size_t b = 0; b < r->n_buckets; b++) {
        n += r->buckets[b].fresh ? 1 : 0;
    }
    return n;
}

size_t repro_rundir_stale(const repro_rundir *r) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_sigs; i++) {
        n += r->sigs[i].stale != NULL ? 1 : 0;
    }
    return n;
}

size_t repro_rundir_new(const repro_rundir *r) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_sigs; i++) {
        n += r->sigs[i].baseline.known ? 0 : 1;
    }
    return n;
}

void repro_rundir_free(repro_rundir *r) {
    for (size_t i = 0; i < r->n_sigs; i++) {
        free(r->sigs[i].repro);
        free(r->sigs[i].smallest);
        free(r->sigs[i].stale);
    }
    repro_rundir_bucket_free(r);
    free(r->sigs);
    free(r->samples);
    free(r->path);
    repro_rundir_campaign_free(&r->campaign);
    memset(r, 0, sizeof *r);
    r->campaign.exit_code = -1;
}
