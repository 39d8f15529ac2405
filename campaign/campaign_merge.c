#define _XOPEN_SOURCE 700 /* realpath */
#include "campaign_merge.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign_lock.h"
#include "campaign_merge_corpus.h"
#include "campaign_merge_failures.h"
#include "campaign_merge_record.h"
#include "triage.h"
#include "gm_file.h"
#include "harness.h"
#include "repro.h"
#include "report.h"

#define CAMPAIGN_MERGE_EMPTY_BASELINE \
    "{\"format\": \"gmfuzz-known-v1\", \"classes\": [], \"signatures\": []}\n"

bool campaign_merge_join(char *out, const char *dir, const char *name, gm_error *err) {
    if (snprintf(out, CAMPAIGN_PATH_MAX, "%s/%s", dir, name) >= CAMPAIGN_PATH_MAX) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: path too long", dir);
    }
    return true;
}

bool campaign_merge_copy_file(const char *from, const char *to, gm_error *err) {
    gm_file_atomic a;
    if (!gm_file_atomic_begin(&a, to, err)) {
        return false;
    }
    if (!gm_file_append(a.f, from)) {
        int saved = errno;
        gm_file_atomic_abort(&a);
        return gm_error_set(err, GM_ERR_IO, "%s: cannot read it (to copy to %s): %s", from, to,
                            strerror(saved));
    }
    return gm_file_atomic_commit(&a, err);
}

static bool campaign_merge_is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "K-BASENAME", with anything but [A-Za-z0-9._-] as '_'. */
static void campaign_merge_name(const char *path, size_t k, char *out, size_t size) {
    char copy[CAMPAIGN_PATH_MAX];
    snprintf(copy, sizeof copy, "%s", path);
    size_t len = strlen(copy);
    while (len > 1 && copy[len - 1] == '/') {
        copy[--len] = '\0';
    }
    const char *slash = strrchr(copy, '/');
    const char *base = slash != NULL && slash[1] != '\0' ? slash + 1 : copy;
    int n = snprintf(out, size, "%zu-%.100s", k + 1, base);
    for (int i = 0; i < n && (size_t)i < size; i++) {
        unsigned char c = (unsigned char)out[i];
        out[i] = isalnum(c) || c == '.' || c == '_' || c == '-' ? (char)c : '_';
    }
}

/* Reads source `path`: its campaign.json and what its failures hold. */
static bool campaign_merge_read_source(const char *path, size_t k, campaign_merge_source *s,
                                       gm_error *err) {
    char record[CAMPAIGN_PATH_MAX];
    memset(s, 0, sizeof *s);
    s->path = path;
    s->record.exit_code = -1;
    campaign_merge_name(path, k, s->name, sizeof s->name);
    if (!campaign_merge_is_dir(path)) {
        return gm_error_set(err, GM_ERR_IO, "%s: no such folder", path);
    }
    struct stat st;
    if (!campaign_merge_join(record, path, "campaign.json", err)) {
        return false;
    }
    if (stat(record, &st) != 0) {
        return gm_error_set(err, GM_ERR_FORMAT, "%s: not a campaign folder (no campaign.json: "
                            "merge takes folders that gmfuzz fuzz --out wrote)", path);
    }
    repro_rundir run;
    if (!repro_rundir_campaign_read(record, &s->record, err) ||
        !repro_rundir_load(path, NULL, &run, err)) {
        return false;
    }
    s->signatures = run.n_sigs;
    s->buckets = run.n_buckets;
    s->inputs = run.inputs;
    repro_rundir_free(&run);
    return true;
}

/* The real path of OUT's nearest folder that exists (OUT itself when it
 * does): checked before OUT is made, so that a refused OUT leaves no
 * folder behind in a source. */
static bool campaign_merge_real_out(const char *out, char real[PATH_MAX], gm_error *err) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", out);
    while (realpath(path, real) == NULL) {
        if (errno != ENOENT) {
            return gm_error_set(err, GM_ERR_IO, "%s: %s", out, strerror(errno));
        }
        char *slash = strrchr(path, '/');
        if (slash == NULL) {
            snprintf(path, sizeof path, "."); /* a new folder in the current one */
        } else if (slash == path) {
            snprintf(path, sizeof path, "/");
        } else {
            *slash = '\0';
        }
    }
    return true;
}

/* OUT is none of the sources, nor inside one (nothing in them changes). */
static bool campaign_merge_check_out(const campaign_merge_options *o,
                                     const campaign_merge_source *src, size_t n, gm_error *err) {
    char out_real[PATH_MAX], src_real[PATH_MAX];
    if (!campaign_merge_real_out(o->out, out_real, err)) {
        return false;
    }
    for (size_t k = 0; k < n; k++) {
        if (realpath(src[k].path, src_real) == NULL) {
            return gm_error_set(err, GM_ERR_IO, "%s: %s", src[k].path, strerror(errno));
        }
        size_t len = strlen(src_real);
        if (strcmp(out_real, src_real) == 0 ||
            (strncmp(out_real, src_real, len) == 0 && out_real[len] == '/')) {
            return gm_error_set(err, GM_ERR_USAGE, "OUT %s is source %zu (%s) or inside it: "
                                "merge into a new folder", o->out, k + 1, src[k].path);
        }
        for (size_t j = 0; j < k; j++) {
            if (strcmp(src[j].path, src[k].path) == 0) {
                return gm_error_set(err, GM_ERR_USAGE, "%s is given twice", src[k].path);
            }
        }
    }
    return true;
}

/* OUT must hold nothing but its lock: a merge never mixes with old files. */
static bool campaign_merge_check_empty(const char *out, gm_error *err) {
    DIR *d = opendir(out);
    if (d == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot read: %s", out, strerror(errno));
    }
    char found[256] = "";
    for (struct dirent *e = readdir(d); e != NULL && found[0] == '\0'; e = readdir(d)) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            strcmp(e->d_name, CAMPAIGN_LOCK_NAME) != 0) {
            snprintf(found, sizeof found, "%s", e->d_name);
        }
    }
    closedir(d);
    return found[0] == '\0' ||
           gm_error_set(err, GM_ERR_USAGE, "%s: not empty (it holds %s): merge into a new or "
                        "empty folder", out, found);
}

/* OUT/known.json: the first source's copy of its baseline (else empty). */
static bool campaign_merge_baseline(const campaign_merge_options *o,
                                    const campaign_merge_source *src, size_t n, FILE *say,
                                    gm_error *err) {
    char to[CAMPAIGN_PATH_MAX], from[CAMPAIGN_PATH_MAX];
    struct stat st;
    if (!campaign_merge_join(to, o->out, "known.json", err)) {
        return false;
    }
    for (size_t k = 0; k < n; k++) {
        if (campaign_merge_join(from, src[k].path, "known.json", err) && stat(from, &st) == 0) {
            fprintf(say, "  baseline: %s\n", from);
            return campaign_merge_copy_file(from, to, err);
        }
    }
    fprintf(say, "  baseline: none of the sources has a known.json: an empty one\n");
    return gm_file_write_atomic(to, CAMPAIGN_MERGE_EMPTY_BASELINE,
                                strlen(CAMPAIGN_MERGE_EMPTY_BASELINE), err);
}

static void campaign_merge_say_sources(const campaign_merge_source *src, size_t n, FILE *say) {
    for (size_t k = 0; k < n; k++) {
        const repro_rundir_campaign *c = &src[k].record;
        fprintf(say, "  source %zu: %s (host %s, started %s, %.1f s, %llu execs, %zu signatures, "
                     "%zu buckets, %zu inputs, exit %d)%s\n",
                k + 1, src[k].path, c->host[0] ? c->host : "?",
                c->started_at[0] ? c->started_at : "?", c->elapsed_s,
                (unsigned long long)c->execs, src[k].signatures, src[k].buckets, src[k].inputs,
                c->exit_code, c->exit_code < 0 ? " (still running, or killed)" : "");
    }
}

static void campaign_merge_say_corpus(const campaign_merge_corpus_result *c, FILE *say) {
    if (c->by_libfuzzer) {
        fprintf(say, "  corpus: by coverage, libFuzzer -merge=1 (%s): %zu files in, %zu kept "
                     "(%lld features, %lld edges)\n",
                c->binary, c->files_in, c->files_out, c->new_features, c->new_edges);
    } else {
        fprintf(say, "  corpus: NOT merged by coverage (%s): the union of the corpora, "
                     "deduplicated by content: %zu files in, %zu kept\n",
                c->note, c->files_in, c->files_out);
    }
}

static void campaign_merge_say_failures(const campaign_merge_failures_result *f, FILE *say) {
    fprintf(say, "  failures: %zu signatures (the union of the sources'): kept %zu of %zu "
                 "failing inputs and %zu of %zu reproducers, the smallest of each signature\n",
            f->signatures, f->failures_out, f->failures_in, f->repros_out, f->repros_in);
    if (f->unreadable > 0) {
        fprintf(say, "  skipped %zu files that are not reproducers (the last: %s)\n",
                f->unreadable, f->last_problem);
    }
}

typedef struct {
    const campaign_merge_options *o;
    campaign_merge_source *src;
    size_t n;
    FILE *say;
    campaign_merge_corpus_result corpus;
    campaign_merge_failures_result failures;
    triage_baseline *baseline;
    char problem[GM_ERROR_MSG_MAX + 32];
} campaign_merge_state;

/* The folders and files of OUT, from the sources (the record last). */
static int campaign_merge_fill(campaign_merge_state *m, gm_error *err) {
    char logs[CAMPAIGN_PATH_MAX], known[CAMPAIGN_PATH_MAX];
    if (!campaign_merge_join(logs, m->o->out, "logs", err) || !gm_file_make_dirs(logs, err) ||
        !campaign_merge_baseline(m->o, m->src, m->n, m->say, err) ||
        !campaign_merge_record_sources(m->o, m->src, m->n, err) ||
        !campaign_merge_failures_run(m->o, m->src, m->n, &m->failures, err)) {
        return CAMPAIGN_MERGE_EXIT_INFRA;
    }
    campaign_merge_say_failures(&m->failures, m->say);
    if (!campaign_merge_corpus_run(m->o, m->src, m->n, &m->corpus, err)) {
        return err->code == GM_ERR_USAGE ? CAMPAIGN_MERGE_EXIT_USAGE : CAMPAIGN_MERGE_EXIT_INFRA;
    }
    campaign_merge_say_corpus(&m->corpus, m->say);
    if (!campaign_merge_join(known, m->o->out, "known.json", err) ||
        !triage_baseline_load(known, &m->baseline, err)) {
        return CAMPAIGN_MERGE_EXIT_SOURCE;
    }
    return CAMPAIGN_MERGE_EXIT_OK;
}

/* The record (with the exit code it implies), then the reports. */
static int campaign_merge_finish(campaign_merge_state *m, gm_error *err) {
    repro_rundir run;
    if (!repro_rundir_load(m->o->out, m->baseline, &run, err)) {
        return CAMPAIGN_MERGE_EXIT_INFRA;
    }
    size_t fresh = repro_rundir_new(&run);
    campaign_merge_record_outcome how = {
        .corpus = &m->corpus, .failures = &m->failures, .buckets = run.n_buckets,
        .problem = NULL, /* a union is said in corpus_merge, not an infrastructure problem */
        .exit_code = fresh > 0 ? CAMPAIGN_MERGE_EXIT_NEW : CAMPAIGN_MERGE_EXIT_OK};
    repro_rundir_free(&run);
    if (!campaign_merge_record_write(m->o, m->src, m->n, &how, err)) {
        return CAMPAIGN_MERGE_EXIT_INFRA;
    }
    bool ok = repro_rundir_load(m->o->out, m->baseline, &run, err) &&
              report_write_all(&run, m->o->out, err);
    if (ok) {
        fprintf(m->say, "  report: %s/report.html (and report.md, summary.json, junit.xml)\n"
                        "%zu signatures, %zu new, %zu buckets\n",
                m->o->out, run.n_sigs, fresh, run.n_buckets);
    }
    repro_rundir_free(&run);
    if (!ok) {
        snprintf(m->problem, sizeof m->problem, "reports: %s", err->msg);
        how.problem = m->problem;
        how.exit_code = CAMPAIGN_MERGE_EXIT_INFRA;
        gm_error ignored = {0};
        campaign_merge_record_write(m->o, m->src, m->n, &how, &ignored);
    }
    return how.exit_code;
}

/* With the sources read: OUT checked, locked and filled. */
static int campaign_merge_into(campaign_merge_state *m, gm_error *err) {
    bool busy = false;
    campaign_lock lock = {0};
    if (!campaign_merge_check_out(m->o, m->src, m->n, err)) {
        return err->code == GM_ERR_USAGE ? CAMPAIGN_MERGE_EXIT_USAGE : CAMPAIGN_MERGE_EXIT_INFRA;
    }
    if (!gm_file_make_dirs(m->o->out, err)) {
        return CAMPAIGN_MERGE_EXIT_INFRA;
    }
    if (!campaign_lock_take(&lock, m->o->out, &busy, err)) {
        return busy ? CAMPAIGN_MERGE_EXIT_LOCKED : CAMPAIGN_MERGE_EXIT_INFRA;
    }
    int rc = campaign_merge_check_empty(m->o->out, err) ? CAMPAIGN_MERGE_EXIT_OK
                                                         : CAMPAIGN_MERGE_EXIT_USAGE;
    rc = rc == CAMPAIGN_MERGE_EXIT_OK ? campaign_merge_fill(m, err) : rc;
    rc = rc == CAMPAIGN_MERGE_EXIT_OK ? campaign_merge_finish(m, err) : rc;
    campaign_lock_release(&lock);
    return rc;
}

int campaign_merge_run(const campaign_merge_options *o, FILE *say) {
    campaign_merge_state m = {.o = o, .n = o->n_sources, .say = say};
    gm_error err = {0};
    int rc = CAMPAIGN_MERGE_EXIT_OK;
    m.src = calloc(o->n_sources + 1, sizeof *m.src);
    if (m.src == NULL) {
        fprintf(stderr, "gmfuzz merge: out of memory\n");
        return CAMPAIGN_MERGE_EXIT_INFRA;
    }
    fprintf(say, "gmfuzz merge: %zu campaign%s into %s\n", o->n_sources,
            o->n_sources == 1 ? "" : "s", o->out);
    for (size_t k = 0; k < o->n_sources && rc == CAMPAIGN_MERGE_EXIT_OK; k++) {
        m.src[k].record.exit_code = -1;
        rc = campaign_merge_read_source(o->sources[k], k, &m.src[k], &err)
                 ? CAMPAIGN_MERGE_EXIT_OK : CAMPAIGN_MERGE_EXIT_SOURCE;
    }
    if (rc == CAMPAIGN_MERGE_EXIT_OK) {
        campaign_merge_say_sources(m.src, m.n, say);
        rc = campaign_merge_into(&m, &err);
    }
    if (rc > CAMPAIGN_MERGE_EXIT_NEW) {
        fprintf(stderr, "gmfuzz merge: %s\n", err.msg);
    }
    for (size_t k = 0; k < o->n_sources; k++) {
        repro_rundir_campaign_free(&m.src[k].record);
    }
    triage_baseline_free(m.baseline);
    free(m.src);
    return rc;
}
