#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_decode.h"
#include "fuzz_settings.h"
#include "gm_hash.h"

#ifndef GMFUZZ_DEFAULT_BASELINE
#define GMFUZZ_DEFAULT_BASELINE "corpus/known.json"
#endif

/* GMFUZZ_SCHEDULE and GMFUZZ_CLASS_* (fuzz_settings.def); *by_class: -1 auto. */
static bool fuzz_harness_schedule(fuzz_harness *h, int *by_class, gm_error *err) {
    const fuzz_settings *set = &h->settings;
    const char *mode = set->schedule;
    *by_class = strcmp(mode, "classes") == 0 ? 1 : strcmp(mode, "naive") == 0 ? 0 : -1;
    if (*by_class < 0 && strcmp(mode, "auto") != 0) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: '%s' is not auto, classes or naive",
                            fuzz_settings_name(FUZZ_SETTING_SCHEDULE), mode);
    }
    h->sched = (fuzz_sched_config){.budget = set->class_budget / 100.0,
                                   .warm = (unsigned)set->class_warm,
                                   .run = set->class_run};
    return true;
}

static bool fuzz_harness_settings(fuzz_harness *h, gm_error *err) {
    if (!fuzz_settings_read(&h->settings, err)) {
        return false;
    }
    const fuzz_settings *set = &h->settings;
    if (!gm_compare_from_name(set->compare, &h->check.level)) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: '%s' is not live or strict",
                            fuzz_settings_name(FUZZ_SETTING_COMPARE), set->compare);
    }
    h->check.failure_dir = set->failure_dir;
    h->check.strict_baseline = set->strict_baseline;
    h->keep_going = set->keep_going;
    h->case_mutation_percent = set->case_mutation;
    return true;
}

/* The baseline when $GMFUZZ_BASELINE is not set: BINARY.baseline.json next
 * to the binary (how OSS-Fuzz and ClusterFuzzLite ship it: everything in
 * $OUT), else the source tree's, fixed at build time. */
static const char *fuzz_harness_default_baseline(char *buf, size_t size) {
    ssize_t n = readlink("/proc/self/exe", buf, size - 32);
    if (n > 0) {
        snprintf(buf + n, size - (size_t)n, ".baseline.json");
        if (access(buf, R_OK) == 0) {
            return buf;
        }
    }
    return GMFUZZ_DEFAULT_BASELINE;
}

static bool fuzz_harness_load_baseline(fuzz_harness *h, gm_error *err) {
    if (h->check.strict_baseline) {
        return triage_baseline_empty(&h->baseline, err);
    }
    char beside[4096];
    const char *path = h->settings.baseline != NULL
                           ? h->settings.baseline
                           : fuzz_harness_default_baseline(beside, sizeof beside);
    if (!triage_baseline_load(path, &h->baseline, err)) {
        gm_error_prefix(err, fuzz_settings_name(FUZZ_SETTING_BASELINE));
        return false;
    }
    return true;
}

/* GMFUZZ_TARGET_HUB (and GMFUZZ_TARGET_HUBS, N): the target runs in the
 * campaign's hub @NAME.K, K = our pid mod N (campaign/campaign_hub.h). */
static bool fuzz_harness_hub(const fuzz_settings *set, harness_target_spec *t, gm_error *err) {
    const char *hub = set->target_hub;
    uint64_t n = set->target_hubs;
    int len = n > 0 ? snprintf(t->hub, sizeof t->hub, "%s.%ld", hub, (long)getpid() % (long)n)
                    : snprintf(t->hub, sizeof t->hub, "%s", hub);
    return len < (int)sizeof t->hub ||
           gm_error_set(err, GM_ERR_USAGE, "%s: '%s' is too long",
                        fuzz_settings_name(FUZZ_SETTING_TARGET_HUB), hub);
}

/* The fused side: GMFUZZ_TARGET (with GMFUZZ_TARGET_DEVICE and the
 * GMFUZZ_TARGET_*TIMEOUTs) when set, else the binary's builtin backend. */
static bool fuzz_harness_target(const fuzz_settings *set, harness_backend_kind kind,
                                harness_target_spec *t, gm_error *err) {
    harness_target_builtin(t, kind);
    if (set->target != NULL && !harness_target_parse(set->target, t, err)) {
        gm_error_prefix(err, fuzz_settings_name(FUZZ_SETTING_TARGET));
        return false;
    }
    if (!fuzz_harness_hub(set, t, err)) {
        return false;
    }
    t->device_cpu = strcmp(set->target_device, "cpu") == 0;
    t->timeout_s = set->target_timeout > 0 ? set->target_timeout : t->timeout_s;
    t->compile_timeout_s =
        set->target_compile_timeout > 0 ? set->target_compile_timeout : t->compile_timeout_s;
    t->start_timeout_s =
        set->target_start_timeout > 0 ? set->target_start_timeout : t->start_timeout_s;
    return true;
}

/* GMFUZZ_REFERENCE: a three-way run against the torch legacy sequence. */
static bool fuzz_harness_reference(fuzz_harness *h, double timeout_s, gm_error *err) {
    const char *spec = h->settings.reference;
    bool cuda = strcmp(h->settings.reference_device, "cuda") == 0;
    if (spec != NULL && !harness_run_legacy_open(spec, cuda, timeout_s, &h->legacy, err)) {
        gm_error_prefix(err, fuzz_settings_name(FUZZ_SETTING_REFERENCE));
        return false;
    }
    h->check.legacy = h->legacy;
    return true;
}

/* GMFUZZ_TARGET_BATCH (fuzz_defer.h): how many inputs a libFuzzer job
 * queues for an external target; by default FUZZ_HARNESS_PYTHON_BATCH for
 * a python: target and 1 (none) otherwise. Only libFuzzer keeps a process
 * across inputs, and only in keep-going mode is a finding not an abort of
 * the input that showed it: otherwise it is 1. */
#define FUZZ_HARNESS_PYTHON_BATCH 32

static bool fuzz_harness_batch(fuzz_harness *h, const harness_target_spec *t, const char *engine,
                               gm_error *err) {
    uint64_t n = h->settings.target_batch;
    if (n == 0) {
        n = t->kind == HARNESS_TARGET_PYTHON ? FUZZ_HARNESS_PYTHON_BATCH : 1;
    }
    bool can = h->keep_going && strcmp(engine, "libfuzzer") == 0 && harness_target_is_external(t);
    return n < 2 || !can || fuzz_defer_init(&h->defer, (size_t)n, err);
}

static double fuzz_harness_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The checked counts for the driver: when they changed and a second has
 * passed since they were last said (a fast target would otherwise fill the
 * log), or `always`. A call that took long is said at once when it ends,
 * and so is the first answer: a job killed in a call it waits on later
 * has said that its target answered. */
static void fuzz_harness_say_checked(fuzz_harness *h, bool always) {
    if (h->backend == NULL) {
        return;
    }
    uint64_t answered = harness_backend_answered(h->backend);
    double now = fuzz_harness_now();
    bool changed = answered != h->answered_said || h->checked != h->checked_said;
    bool first = (h->checked_said == 0 && h->checked > 0) ||
                 (h->answered_said == 0 && answered > 0);
    if (always || (changed && (first || now - h->checked_said_at >= 1.0))) {
        fprintf(stderr, "stat::gmfuzz_target_checked: %llu\n", (unsigned long long)h->checked);
        fprintf(stderr, "stat::gmfuzz_target_answered: %llu\n", (unsigned long long)answered);
        if (h->legacy != NULL) { /* three-way: the torch reference's share */
            harness_run_legacy_spent t = harness_run_legacy_spent_of(h->legacy);
            fprintf(stderr, "stat::gmfuzz_target_torch_cases: %llu\n",
                    (unsigned long long)t.cases);
            fprintf(stderr, "stat::gmfuzz_target_torch_calls: %llu\n",
                    (unsigned long long)t.calls);
            fprintf(stderr, "stat::gmfuzz_target_torch_ms: %llu\n",
                    (unsigned long long)(t.seconds * 1000.0));
            fprintf(stderr, "stat::gmfuzz_target_torch_start_ms: %llu\n",
                    (unsigned long long)(t.start_seconds * 1000.0));
            fprintf(stderr, "stat::gmfuzz_target_job_ms: %llu\n",
                    (unsigned long long)((now - h->opened_at) * 1000.0));
        }
        h->checked_said = h->checked;
        h->answered_said = answered;
        h->checked_said_at = now;
    }
}

bool fuzz_harness_open(fuzz_harness *h, harness_backend_kind kind, const char *engine, gm_error *err) {
    memset(h, 0, sizeof *h);
    fuzz_reuse_init(&h->reuse);
    double opening = fuzz_harness_now();
    h->opened_at = opening;
    h->check.engine = engine;
    harness_target_spec target;
    int by_class = -1;
    if (!fuzz_harness_settings(h, err) || !fuzz_harness_schedule(h, &by_class, err) ||
        !fuzz_harness_load_baseline(h, err) ||
        !fuzz_harness_target(&h->settings, kind, &target, err) ||
        !harness_backend_open_target(&target, &h->backend, err) ||
        !fuzz_harness_reference(h, target.timeout_s, err) ||
        !fuzz_harness_batch(h, &target, engine, err)) {
        fuzz_harness_close(h);
        return false;
    }
    h->by_class = by_class == 1 || (by_class < 0 && harness_backend_sees_jit(h->backend));
    if (h->by_class && h->defer.cap > 0 && !fuzz_sched_budget_init(&h->admitted, &h->sched, err)) {
        fuzz_harness_close(h);
        return false;
    }
    /* A target that dies or hangs: the case is on disk before anything else. */
    harness_backend_set_crash_dir(h->backend, h->check.failure_dir);
    harness_backend_set_unreliable_dir(h->backend, h->settings.unreliable_dir);
    h->check.backend = h->backend;
    h->check.baseline = h->baseline;
    fprintf(stderr, "stat::gmfuzz_target_started_ms: %llu\n",
            (unsigned long long)((fuzz_harness_now() - opening) * 1000.0));
    fuzz_harness_say_checked(h, true);
    return true;
}

/* The target's counts for the campaign driver (campaign/campaign_stats.h
 * reads the last ones): restarts, unreliable crashes and hangs, its JIT's
 * compiles and loads; printed when they change and at the end: a job
 * killed at the campaign's deadline, or while it waits for a hub started
 * again, never reaches its end, and the counts it saw would be lost. */
static void fuzz_harness_say_restarts(fuzz_harness *h, bool always) {
    if (h->backend == NULL || !harness_target_is_external(harness_backend_spec(h->backend))) {
        return;
    }
    fuzz_harness_said now = {.restarts = harness_backend_restart_counts(h->backend),
                             .unreliable = harness_backend_unreliable_counts(h->backend),
                             .jit = harness_backend_jit_counts(h->backend),
                             .held = h->held};
    const harness_backend_restarts n = now.restarts;
    const harness_backend_unreliable u = now.unreliable;
    const harness_backend_jit j = now.jit;
    if (always || memcmp(&now, &h->said, sizeof now) != 0) {
        fprintf(stderr, "stat::gmfuzz_target_restarts_crashed: %u\n", n.crashed);
        fprintf(stderr, "stat::gmfuzz_target_restarts_hung: %u\n", n.hung);
        fprintf(stderr, "stat::gmfuzz_target_unreliable_crashed: %u\n", u.crashed);
        fprintf(stderr, "stat::gmfuzz_target_unreliable_hung: %u\n", u.hung);
        fprintf(stderr, "stat::gmfuzz_target_compiles: %llu\n", (unsigned long long)j.compiles);
        fprintf(stderr, "stat::gmfuzz_target_loads: %llu\n", (unsigned long long)j.loads);
        fprintf(stderr, "stat::gmfuzz_target_jit_ms: %llu\n",
                (unsigned long long)(j.seconds * 1000.0));
        fprintf(stderr, "stat::gmfuzz_target_held: %llu\n", (unsigned long long)now.held);
        h->said = now;
    }
}

static fuzz_check_result fuzz_harness_flush(fuzz_harness *h);

void fuzz_harness_close(fuzz_harness *h) {
    if (h->defer.n > 0 && h->backend != NULL) { /* the job's end: its last inputs' targets */
        fuzz_check_result r = fuzz_harness_flush(h);
        if (r == FUZZ_CHECK_UNSAVED) {
            fprintf(stderr, "gmfuzz: a failure of the last batch could not be saved in %s/\n",
                    h->check.failure_dir);
        }
    }
    fuzz_defer_free(&h->defer);
    fuzz_reuse_free(&h->reuse);
    fuzz_sched_budget_free(&h->admitted);
    fuzz_harness_say_restarts(h, true);
    fuzz_harness_say_checked(h, true); /* with the torch counts: before it closes */
    harness_run_legacy_close(h->legacy);
    h->legacy = NULL;
    if (h->backend != NULL) {
        harness_backend_close(h->backend);
    }
    if (h->baseline != NULL) {
        triage_baseline_free(h->baseline);
    }
    memset(h, 0, sizeof *h);
}

static uint64_t fuzz_harness_hash(const triage_finding *f) {
    return gm_hash_fnv1a_string(f->signature);
}

/* Keep-going mode: whether signature f was saved before. Past
 * FUZZ_HARNESS_SEEN_MAX signatures, every one counts as new. */
static bool fuzz_harness_seen(const fuzz_harness *h, const triage_finding *f) {
    uint64_t hash = fuzz_harness_hash(f);
    for (size_t k = 0; k < h->n_seen; k++) {
        if (h->seen[k] == hash) {
            return true;
        }
    }
    return false;
}

/* Marks f as saved: only once it is on disk, so a save that failed is
 * tried again the next time the signature shows up. */
static void fuzz_harness_mark_seen(fuzz_harness *h, const triage_finding *f) {
    if (h->n_seen < FUZZ_HARNESS_SEEN_MAX) {
        h->seen[h->n_seen++] = fuzz_harness_hash(f);
    }
}

/* The harness's check with saving off: to learn a verdict, whose new
 * signatures are then saved once. */
static fuzz_check_config fuzz_harness_quiet(const fuzz_harness *h) {
    fuzz_check_config quiet = h->check;
    quiet.failure_dir = NULL;
    return quiet;
}

/* Keep-going: check without saving, and run a new signature's case once
 * more with saving on. */
static fuzz_check_result fuzz_harness_check_once(fuzz_harness *h, const gm_case *c,
                                                 triage_finding *f) {
    fuzz_check_config quiet = fuzz_harness_quiet(h);
    fuzz_check_result r = fuzz_check_case(&quiet, c, f);
    if (r == FUZZ_CHECK_FAILURE && !fuzz_harness_seen(h, f)) {
        r = fuzz_check_case(&h->check, c, f);
        if (r == FUZZ_CHECK_FAILURE) {
            fuzz_harness_mark_seen(h, f);
            fprintf(stderr, "gmfuzz: new finding %s (saved in %s/), going on\n", f->signature,
                    h->check.failure_dir);
        }
    }
    return r;
}

static fuzz_check_result fuzz_harness_run_deferred(fuzz_harness *h, gm_case *c,
                                                   triage_finding *f);

/* Deferred: the queue takes the case (fuzz_defer_push), so it is built
 * afresh and owned here. */
static fuzz_check_result fuzz_harness_run_owned(fuzz_harness *h, const uint8_t *data, size_t size,
                                                triage_finding *f) {
    gm_case c;
    gm_error err = {0};
    if (!fuzz_decode(data, size, &c, &err)) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
        return FUZZ_CHECK_BROKEN;
    }
    h->check.execs++;
    fuzz_check_result r = fuzz_harness_run_deferred(h, &c, f);
    gm_case_free(&c);
    return r;
}

/* At once: the case is the keeper's (fuzz_reuse.h), its records taken
 * back after the check. */
static fuzz_check_result fuzz_harness_run_kept(fuzz_harness *h, const uint8_t *data, size_t size,
                                               triage_finding *f) {
    const gm_case *c;
    gm_error err = {0};
    if (!fuzz_reuse_decode(&h->reuse, data, size, &c, &err)) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
        return FUZZ_CHECK_BROKEN;
    }
    h->check.execs++;
    fuzz_check_result r = h->keep_going ? fuzz_harness_check_once(h, c, f)
                                        : fuzz_check_case(&h->check, c, f);
    fuzz_reuse_done(&h->reuse);
    return r;
}

fuzz_check_result fuzz_harness_run(fuzz_harness *h, const uint8_t *data, size_t size,
                                   triage_finding *finding) {
    triage_finding local;
    triage_finding *f = finding != NULL ? finding : &local;
    fuzz_check_result r = h->defer.cap > 0 ? fuzz_harness_run_owned(h, data, size, f)
                                           : fuzz_harness_run_kept(h, data, size, f);
    h->checked += h->defer.cap == 0 && r != FUZZ_CHECK_BROKEN ? 1 : 0; /* deferred: as judged */
    fuzz_harness_say_restarts(h, false);
    fuzz_harness_say_checked(h, false);
    return r;
}

void fuzz_harness_report(const fuzz_harness *h, fuzz_check_result r, const triage_finding *f) {
    if (r == FUZZ_CHECK_FAILURE && h->keep_going) {
        return; /* a new signature was saved and said so; repeats are silent */
    }
    if (r == FUZZ_CHECK_UNSAVED) {
        fprintf(stderr, "gmfuzz: the failure %s could not be saved in %s/: exiting (%d)\n",
                f->signature, h->check.failure_dir, FUZZ_CHECK_EXIT_UNSAVED);
        return;
    }
    if (r == FUZZ_CHECK_FAILURE) {
        fprintf(stderr, "gmfuzz: new finding %s (saved in %s/)\n", f->signature,
                h->check.failure_dir);
    } else if (r == FUZZ_CHECK_BROKEN) {
        fprintf(stderr, "gmfuzz: the harness itself failed (see above)\n");
    }
}

bool fuzz_harness_must_abort(const fuzz_harness *h, fuzz_check_result r) {
    return r == FUZZ_CHECK_BROKEN || r == FUZZ_CHECK_UNSAVED ||
           (r == FUZZ_CHECK_FAILURE && !h->keep_going);
}

void fuzz_harness_abort(fuzz_check_result r) {
    if (r == FUZZ_CHECK_UNSAVED) {
        fflush(NULL);
        _exit(FUZZ_CHECK_EXIT_UNSAVED); /* not a crash: no engine crash file either */
    }
    abort();
}

/* A case whose run is finished (harness_run_finish): decide, and in
 * keep-going mode save a signature only the first time. */
static fuzz_check_result fuzz_harness_judged_once(fuzz_harness *h, const gm_case *c,
                                                  const harness_run_result *r, triage_finding *f) {
    fuzz_check_config quiet = fuzz_harness_quiet(h);
    fuzz_check_result res = fuzz_check_judged(h->keep_going ? &quiet : &h->check, c, r, f);
    if (res == FUZZ_CHECK_FAILURE && h->keep_going && !fuzz_harness_seen(h, f)) {
        res = fuzz_check_judged(&h->check, c, r, f);
        if (res == FUZZ_CHECK_FAILURE) {
            fuzz_harness_mark_seen(h, f);
            fprintf(stderr, "gmfuzz: new finding %s (saved in %s/), going on\n", f->signature,
                    h->check.failure_dir);
        }
    }
    return res;
}

/* One case of a batch whose fused side is done: the reference, then judge. */
static fuzz_check_result fuzz_harness_judge(fuzz_harness *h, const gm_case *c, harness_run_result *r,
                                            triage_finding *f) {
    gm_error err = {0};
    if (!harness_run_finish(h->check.legacy, c, h->check.level, r, &err)) {
        fprintf(stderr, "gmfuzz: the run failed: %s\n", err.msg);
        return FUZZ_CHECK_BROKEN;
    }
    return fuzz_harness_judged_once(h, c, r, f);
}

/* The queued inputs on the target in one batch (fuzz_defer.h). An input
 * whose target returned its model's buffers exactly was judged when it
 * came, on the same buffers; the others (the target deviated, raised, died
 * or hung, or the model's verdict was a new finding) are judged again on
 * the target's, and saved as usual. */
static fuzz_check_result fuzz_harness_flush(fuzz_harness *h) {
    fuzz_defer *d = &h->defer;
    size_t n = d->n;
    gm_outputs *outs = calloc(n ? n : 1, sizeof *outs);
    gm_error err = {0};
    fuzz_check_result worst = FUZZ_CHECK_MATCH;
    double jit_before = harness_backend_jit_counts(h->backend).seconds;
    if (outs == NULL ||
        !harness_backend_run_modeled(h->backend, d->ptrs, d->model_of, outs, n, &err)) {
        fprintf(stderr, "gmfuzz: the batch failed: %s\n", err.msg[0] ? err.msg : "out of memory");
        worst = FUZZ_CHECK_BROKEN;
    }
    fuzz_sched_budget_charge(&h->admitted,
                             harness_backend_jit_counts(h->backend).seconds - jit_before);
    fuzz_harness_say_restarts(h, false);
    for (size_t k = 0; worst != FUZZ_CHECK_BROKEN && k < n; k++) {
        if (outs[k].error == NULL && !d->rejudge[k]) {
            continue;
        }
        harness_run_result r;
        harness_run_result_init(&r);
        r.fused = outs[k]; /* moved */
        gm_outputs_init(&outs[k]);
        triage_finding f;
        fuzz_check_result res = fuzz_harness_judge(h, d->ptrs[k], &r, &f);
        worst = res > worst ? res : worst;
        harness_run_result_free(&r);
    }
    h->checked += worst != FUZZ_CHECK_BROKEN ? n : 0;
    for (size_t k = 0; outs != NULL && k < n; k++) {
        gm_outputs_free(&outs[k]);
    }
    free(outs);
    fuzz_defer_clear(d);
    fuzz_harness_say_checked(h, false);
    return worst;
}

/* By class (fuzz_sched.h): whether `c`'s class is one the target is sent:
 * one met before, or a new one while the budget allows. */
static bool fuzz_harness_admits(fuzz_harness *h, const gm_case *c) {
    if (!h->by_class) {
        return true;
    }
    uint64_t key = harness_class_key_of(c);
    return fuzz_sched_budget_knows(&h->admitted, key) ||
           (fuzz_sched_budget_allows(&h->admitted) && fuzz_sched_budget_add(&h->admitted, key));
}

/* Deferred mode (fuzz_defer.h): the whole C side now, on the fused model's
 * buffers; the target's with the queue. A case the model finds out of
 * bounds is never sent (docs/TARGETS.md): it is judged now, for good; so is
 * one whose class is not admitted (counted as held: its coverage and its
 * C side count, the target does not see it). */
static fuzz_check_result fuzz_harness_run_deferred(fuzz_harness *h, gm_case *c,
                                                   triage_finding *f) {
    harness_run_result r;
    harness_run_result_init(&r);
    gm_error err = {0};
    bool safe = false;
    if (!harness_backend_run_model(c, &r.fused, &safe, &err) ||
        !harness_run_finish(h->check.legacy, c, h->check.level, &r, &err)) {
        fprintf(stderr, "gmfuzz: the run failed: %s\n", err.msg);
        harness_run_result_free(&r);
        return FUZZ_CHECK_BROKEN;
    }
    fuzz_check_result res;
    bool admitted = safe && fuzz_harness_admits(h, c);
    h->held += safe && !admitted;
    if (!admitted) {
        res = fuzz_harness_judged_once(h, c, &r, f);
        h->checked += res != FUZZ_CHECK_BROKEN ? 1 : 0;
    } else {
        fuzz_check_config quiet = fuzz_harness_quiet(h);
        res = fuzz_check_judged(&quiet, c, &r, f);
        bool rejudge = res == FUZZ_CHECK_FAILURE && !fuzz_harness_seen(h, f);
        fuzz_defer_push(&h->defer, c, &r.fused, rejudge);
    }
    harness_run_result_free(&r);
    if (fuzz_defer_due(&h->defer)) {
        fuzz_check_result flushed = fuzz_harness_flush(h);
        res = flushed >= FUZZ_CHECK_BROKEN ? flushed : res;
    }
    return res;
}

fuzz_check_result fuzz_harness_run_batch(fuzz_harness *h, const gm_case *const *cases, size_t n,
                                         size_t *failures) {
    harness_run_result *runs = calloc(n ? n : 1, sizeof *runs);
    gm_outputs *outs = calloc(n ? n : 1, sizeof *outs);
    gm_error err = {0};
    fuzz_check_result worst = FUZZ_CHECK_MATCH;
    *failures = 0;
    if (runs == NULL || outs == NULL || !harness_backend_run_batch(h->backend, cases, outs, n, &err)) {
        fprintf(stderr, "gmfuzz: the batch failed: %s\n", err.msg[0] ? err.msg : "out of memory");
        worst = FUZZ_CHECK_BROKEN;
    }
    fuzz_harness_say_restarts(h, false);
    for (size_t k = 0; runs != NULL && k < n; k++) {
        harness_run_result_init(&runs[k]);
        runs[k].fused = outs[k]; /* moved */
        gm_outputs_init(&outs[k]);
    }
    /* the C reference of each, then the torch reference of all in one call */
    if (worst != FUZZ_CHECK_BROKEN &&
        !harness_run_finish_batch(h->check.legacy, cases, n, h->check.level, runs, &err)) {
        fprintf(stderr, "gmfuzz: the run failed: %s\n", err.msg);
        worst = FUZZ_CHECK_BROKEN;
    }
    for (size_t k = 0; worst != FUZZ_CHECK_BROKEN && k < n; k++) {
        triage_finding f;
        h->check.execs++;
        fuzz_check_result r = fuzz_harness_judged_once(h, cases[k], &runs[k], &f);
        *failures += r == FUZZ_CHECK_FAILURE;
        worst = r > worst ? r : worst;
    }
    for (size_t k = 0; runs != NULL && k < n; k++) {
        harness_run_result_free(&runs[k]);
    }
    h->checked += worst != FUZZ_CHECK_BROKEN ? n : 0;
    fuzz_harness_say_checked(h, false);
    for (size_t k = 0; outs != NULL && k < n; k++) {
        gm_outputs_free(&outs[k]);
    }
    free(runs);
    free(outs);
    return worst;
}
