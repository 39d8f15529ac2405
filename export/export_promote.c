#include "export.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "minimize.h"
#include "harness.h"
#include "repro.h"

#ifndef GMFUZZ_SOURCE_DIR
#define GMFUZZ_SOURCE_DIR "."
#endif

const char *export_promote_default_corpus(void) { return GMFUZZ_SOURCE_DIR "/corpus/regress"; }

const char *export_promote_action_name(export_promote_action a) {
    switch (a) {
    case EXPORT_PROMOTE_ADDED: return "added";
    case EXPORT_PROMOTE_REPLACED: return "replaced";
    case EXPORT_PROMOTE_KEPT: return "kept";
    }
    return "unknown";
}

void export_promote_candidate_init(export_promote_candidate *cand) {
    memset(cand, 0, sizeof *cand);
    gm_doc_init(&cand->doc);
    harness_run_result_init(&cand->run);
}

void export_promote_candidate_free(export_promote_candidate *cand) {
    gm_doc_free(&cand->doc);
    harness_run_result_free(&cand->run);
    export_promote_candidate_init(cand);
}

__attribute__((format(printf, 2, 3)))
static bool export_promote_refuse(export_promote_candidate *cand, const char *fmt, ...) {
    cand->refused = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cand->why, sizeof cand->why, fmt, ap);
    va_end(ap);
    return true; /* a refusal is an answer, not an error */
}

/* Runs the candidate's case at its recorded level and classifies it. */
static bool export_promote_run(harness_backend *b, export_promote_candidate *cand, gm_error *err) {
    harness_run_result_free(&cand->run);
    harness_run_result_init(&cand->run);
    if (!harness_run_case(b, &cand->doc.c, cand->doc.repro.verdict.compare, &cand->run, err)) {
        return false;
    }
    triage_classify(&cand->doc.c, &cand->run, &cand->finding);
    return true;
}

/* The replay must give the recorded verdict and outputs (harness/harness.h)
 * and the recorded signature. */
static bool export_promote_check_replay(harness_backend *b, const char *path,
                                        export_promote_candidate *cand, gm_error *err) {
    harness_replay_outcome outcome = {0};
    if (!harness_replay_doc(b, &cand->doc, GM_COMPARE_LIVE, &outcome, err) ||
        !export_promote_run(b, cand, err)) {
        return false;
    }
    if (!outcome.passed) {
        return export_promote_refuse(cand, "%s does not replay as recorded: %s", path,
                                     outcome.message);
    }
    if (strcmp(cand->finding.signature, cand->doc.repro.signature) != 0) {
        return export_promote_refuse(cand, "%s replays as %s, but records %s", path,
                                     cand->finding.signature, cand->doc.repro.signature);
    }
    return true;
}

/* Shrinks the case keeping its signature, then runs the result. */
static bool export_promote_minimize(harness_backend *b, const char *path,
                                    const export_promote_options *o, export_promote_candidate *cand,
                                    gm_error *err) {
    minimize_stats stats = {.max_runs = o->max_runs};
    triage_finding target = cand->finding;
    if (!minimize_case(b, cand->doc.repro.verdict.compare, &target, &cand->doc.c, &stats, err) ||
        !export_promote_run(b, cand, err)) {
        return false;
    }
    cand->minimize_runs = stats.runs;
    cand->minimized_now = true;
    if (strcmp(cand->finding.signature, target.signature) != 0) {
        return export_promote_refuse(cand, "%s: the minimized case replays as %s, not %s", path,
                                     cand->finding.signature, target.signature);
    }
    return true;
}

bool export_promote_prepare(harness_backend *b, const char *path, const export_promote_options *o,
                            export_promote_candidate *cand, gm_error *err) {
    if (!gm_json_read_file(path, &o->limits, &cand->doc, err)) {
        return false;
    }
    if (cand->doc.kind != GM_DOC_REPRO) {
        return export_promote_refuse(cand,
                                     "%s is a %s, not a reproducer (gmfuzz minimize makes one)",
                                     path, gm_doc_kind_name(cand->doc.kind));
    }
    if (cand->doc.repro.verdict.status == GM_STATUS_MATCH) {
        return export_promote_refuse(cand, "%s records no difference (status match)", path);
    }
    if (!export_promote_check_replay(b, path, cand, err)) {
        gm_error_prefix(err, path);
        return false;
    }
    if (cand->refused || cand->doc.repro.minimized) {
        return true;
    }
    if (!o->minimize) {
        return export_promote_refuse(cand, "%s is not minimized (\"minimized\": false): pass "
                                       "--minimize, or run gmfuzz minimize first", path);
    }
    if (!export_promote_minimize(b, path, o, cand, err)) {
        gm_error_prefix(err, path);
        return false;
    }
    return true;
}

/* ---- commit ------------------------------------------------------------- */

static long export_promote_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* The corpus files whose reproducer has `signature` (into `holders`), and
 * the smallest of them. */
static bool export_promote_holders(const char *dir, const char *signature, const gm_limits *lim,
                                   harness_paths *holders, size_t *smallest, gm_error *err) {
    harness_paths all;
    harness_paths_init(&all);
    bool ok = harness_paths_add(&all, dir, err);
    for (size_t i = 0; ok && i < all.count; i++) {
        gm_doc doc;
        ok = gm_json_read_file(all.items[i], lim, &doc, err);
        bool holds = ok && doc.kind == GM_DOC_REPRO && strcmp(doc.repro.signature, signature) == 0;
        if (holds) {
            ok = harness_paths_add(holders, all.items[i], err);
        }
        if (holds && ok &&
            export_promote_size(all.items[i]) < export_promote_size(holders->items[*smallest])) {
            *smallest = holders->count - 1;
        }
        gm_doc_free(&doc);
    }
    harness_paths_free(&all);
    return ok;
}

/* The candidate written to `path` (repro_write, atomic). */
static bool export_promote_write(const export_promote_candidate *cand, harness_backend_kind backend,
                                 const char *path, gm_error *err) {
    const gm_repro *rec = &cand->doc.repro;
    repro_origin origin = {"promote", 0, rec->minimized || cand->minimized_now, NULL,
                              rec->has_target ? &rec->target : NULL};
    if (rec->has_found) {
        origin.found_by = rec->found_by;
        origin.execs = rec->found_execs;
        origin.found_at = rec->found_at;
    }
    return repro_write(path, &cand->doc.c, &cand->run, &cand->finding, backend, &origin, err);
}

/* Moves the new file into place and removes every other holder. */
static bool export_promote_publish(const char *tmp, const char *target, const harness_paths *holders,
                                   gm_error *err) {
    if (rename(tmp, target) != 0) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot rename %s onto it: %s", target, tmp,
                            strerror(errno));
    }
    for (size_t i = 0; i < holders->count; i++) {
        if (strcmp(holders->items[i], target) != 0 && remove(holders->items[i]) != 0) {
            return gm_error_set(err, GM_ERR_IO, "%s: cannot remove it: %s", holders->items[i],
                                strerror(errno));
        }
    }
    return true;
}

/* Keeps the smallest holder, or publishes the new file (at `tmp`). */
static bool export_promote_decide(const char *tmp, const char *target, const harness_paths *holders,
                                  size_t smallest, export_promote_result *res, gm_error *err) {
    long new_bytes = export_promote_size(tmp);
    long old_bytes = holders->count > 0 ? export_promote_size(holders->items[smallest]) : -1;
    if (holders->count > 0 && old_bytes <= new_bytes) {
        res->action = EXPORT_PROMOTE_KEPT;
        snprintf(res->path, sizeof res->path, "%s", holders->items[smallest]);
        res->bytes = old_bytes;
        res->other_bytes = new_bytes;
        remove(tmp);
        return true;
    }
    res->action = holders->count > 0 ? EXPORT_PROMOTE_REPLACED : EXPORT_PROMOTE_ADDED;
    snprintf(res->path, sizeof res->path, "%s", target);
    res->bytes = new_bytes;
    if (holders->count > 0) {
        snprintf(res->other, sizeof res->other, "%s", holders->items[smallest]);
        res->other_bytes = old_bytes;
    }
    if (!export_promote_publish(tmp, target, holders, err)) {
        remove(tmp);
        return false;
    }
    return true;
}

bool export_promote_commit(const export_promote_candidate *cand, harness_backend_kind backend,
                           const char *corpus_dir, const char *file_name, const gm_limits *lim,
                           export_promote_result *res, gm_error *err) {
    memset(res, 0, sizeof *res);
    char target[PATH_MAX], tmp[PATH_MAX];
    /* the temporary name does not end in .json: a scan of the corpus never sees it */
    if (snprintf(target, sizeof target, "%s/%s", corpus_dir, file_name) >= (int)sizeof target ||
        snprintf(tmp, sizeof tmp, "%s.promote-%ld.tmp", target, (long)getpid()) >=
            (int)sizeof tmp) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: path too long", corpus_dir);
    }
    harness_paths holders;
    harness_paths_init(&holders);
    size_t smallest = 0;
    bool ok = export_promote_holders(corpus_dir, cand->finding.signature, lim, &holders, &smallest,
                                     err) &&
              export_promote_write(cand, backend, tmp, err) &&
              export_promote_decide(tmp, target, &holders, smallest, res, err);
    harness_paths_free(&holders);
    return ok;
}
