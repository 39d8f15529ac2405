/* fuzz_check: run, classify, decide; save a failure before returning.
 *
 * This runs on every fuzz input, so the path of an input that matches or
 * differs in a known way does nothing beyond the run and the classifier:
 * no file, no allocation of its own. Only a failure pays for a directory
 * check and a reproducer file.
 */
#include "fuzz.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "repro.h"
#include "gm_file.h"

/* <dir>/failure-<key>-<pid>-<execs>.json: one file per signature, bucket
 * and moment, and parallel jobs (pids) never collide. The key (a stable
 * hash of the signature and the bucket, repro.h) tells the driver and
 * triage a large file's bucket without reading it whole. */
static void fuzz_check_failure_path(const fuzz_check_config *cfg, const triage_finding *f, char *buf,
                                    size_t size) {
    snprintf(buf, size, "%s/failure-%016" PRIx64 "-%ld-%" PRIu64 ".json", cfg->failure_dir,
             repro_failure_name_key(f->signature, f->bucket), (long)getpid(), cfg->execs);
}

/* Writes the unminimized reproducer (repro_write: temporary file,
 * fsync, rename, fsync of the folder, so it is on disk once this says so).
 * A write that fails is tried again a few times, a moment apart (another
 * job's temporary file may be holding the last free blocks); false when
 * it never succeeded, said on stderr. */
static bool fuzz_check_save(const fuzz_check_config *cfg, const gm_case *c,
                            const harness_run_result *r, const triage_finding *f) {
    char path[4200];
    gm_error err = {0};
    repro_origin origin = {
        .found_by = cfg->engine != NULL ? cfg->engine : "fuzz",
        .execs = cfg->execs,
        .target = harness_backend_identity(cfg->backend),
        .minimized = false,
    };
    fuzz_check_failure_path(cfg, f, path, sizeof path);
    for (int attempt = 0; attempt < FUZZ_CHECK_SAVE_TRIES; attempt++) {
        if (attempt > 0) {
            const struct timespec pause = {0, 50L * 1000 * 1000 * attempt};
            nanosleep(&pause, NULL);
        }
        memset(&err, 0, sizeof err);
        if (gm_file_make_dirs(cfg->failure_dir, &err) &&
            repro_write(path, c, r, f, harness_backend_kind_of(cfg->backend), &origin, &err)) {
            return true;
        }
    }
    fprintf(stderr, "gmfuzz: could not save the failure %s (%d tries): %s\n", f->signature,
            FUZZ_CHECK_SAVE_TRIES, err.msg);
    return false;
}

static fuzz_check_result fuzz_check_decide(const fuzz_check_config *cfg, const triage_finding *f) {
    if (f->status == GM_STATUS_MATCH) {
        return FUZZ_CHECK_MATCH;
    }
    if (!cfg->strict_baseline && triage_baseline_is_known(cfg->baseline, f)) {
        return FUZZ_CHECK_KNOWN;
    }
    return FUZZ_CHECK_FAILURE;
}

fuzz_check_result fuzz_check_case(const fuzz_check_config *cfg, const gm_case *c,
                                  triage_finding *finding) {
    triage_finding local;
    triage_finding *f = finding != NULL ? finding : &local;
    harness_run_result r;
    harness_run_result_init(&r);
    gm_error err = {0};
    if (!harness_run_case3(cfg->backend, cfg->legacy, c, cfg->level, &r, &err)) {
        fprintf(stderr, "gmfuzz: the run failed: %s\n", err.msg);
        harness_run_result_free(&r);
        memset(f, 0, sizeof *f);
        return FUZZ_CHECK_BROKEN;
    }
    fuzz_check_result result = fuzz_check_judged(cfg, c, &r, f);
    harness_run_result_free(&r);
    return result;
}

fuzz_check_result fuzz_check_judged(const fuzz_check_config *cfg, const gm_case *c,
                                    const harness_run_result *r, triage_finding *f) {
    triage_classify(c, r, f);
    fuzz_check_result result = fuzz_check_decide(cfg, f);
    if (result == FUZZ_CHECK_FAILURE && cfg->failure_dir != NULL &&
        !fuzz_check_save(cfg, c, r, f)) {
        return FUZZ_CHECK_UNSAVED;
    }
    return result;
}
