/* fuzz: the fuzzing room's contract (docs/ARCHITECTURE.md): what the
 * campaign, coverage, bench and the command line call. Fuzzer bytes to a
 * case (fuzz_decode), a command's case file (fuzz_casefile), one checked
 * case (fuzz_check) and the engines' shared harness (fuzz_harness). The
 * decoder's parts, the encoder, the mutator and the recipes are private to
 * fuzz/. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_json.h"
#include "gm_oracle.h"
#include "fuzz_defer.h"
#include "fuzz_reuse.h"
#include "fuzz_sched.h"
#include "fuzz_settings.h"
#include "harness.h"
#include "triage.h"

/* ---- fuzz_decode: fuzzer bytes -> a case (fuzz/fuzz_decode.h says how).
 * EVERY byte string decodes, to a case that passes gm_case_check; the only
 * failure is running out of memory. `out` is overwritten (not freed
 * first); free it with gm_case_free. */
bool fuzz_decode(const uint8_t *data, size_t size, gm_case *out, gm_error *err);

/* ---- fuzz_casefile.c ------------------------------------------------ */

/* fuzz_casefile: what a command given a case file reads. A file is the raw
 * input of a fuzzing engine (a libFuzzer, AFL++ or ClusterFuzzLite crash or
 * corpus file, which becomes the case it decodes to: fuzz/fuzz_decode.h,
 * every byte string decodes) only where that is unambiguous: the command
 * was told so (--raw: fuzz_casefile_read_raw), or the bytes cannot be the
 * start of a JSON document and the name does not end in ".json". Anything
 * else is read as a JSON document (docs/FORMATS.md), and a malformed one is
 * an error naming the file, the byte and the reason: an empty file, `[1,2]`
 * or a truncated document is never decoded as something else. */

/* The whole file (malloc'd, < 1 GiB); NULL with err set when unreadable. */
uint8_t *fuzz_casefile_slurp(const char *path, size_t *size, gm_error *err);

/* Whether a file named `path` whose first bytes are head[0..n) is an
 * engine's raw input: the name does not end in ".json" and, after JSON
 * whitespace, the first byte is none of `{ [ " - 0-9 t f n` (an empty or
 * blank file is a missing document, not an input). */
bool fuzz_casefile_is_raw(const char *path, const uint8_t *head, size_t n);

/* A document, or (fuzz_casefile_is_raw) an engine's input as a case
 * document (doc->kind CASE, its name "decoded from PATH"). */
bool fuzz_casefile_read(const char *path, const gm_limits *lim, gm_doc *doc, gm_error *err);

/* The file as an engine's raw input, whatever its bytes and name (--raw). */
bool fuzz_casefile_read_raw(const char *path, gm_doc *doc, gm_error *err);

/* ---- fuzz_check.c --------------------------------------------------- */

/* fuzz_check: what every fuzzing harness (libFuzzer, AFL++) does with one
 * decoded case: run both sides, classify, and decide whether it is a
 * failure. A failure is written to disk (an unminimized gmfuzz-repro-v1 in
 * the failure folder) BEFORE this returns, so nothing found is lost when
 * the harness then aborts.
 *
 * A failure is a finding whose signature the baseline does not know
 * (triage/triage.h), or, with strict_baseline, any non-match.
 *
 * A failure that could not be written (disk full, I/O error), after
 * FUZZ_CHECK_SAVE_TRIES tries, is FUZZ_CHECK_UNSAVED: the harness then
 * exits with FUZZ_CHECK_EXIT_UNSAVED, and the campaign driver ends the
 * campaign with its own exit code for it (docs/FUZZING.md).
 */

#define FUZZ_CHECK_SAVE_TRIES 3
/* The exit code of a target whose failure could not be saved (_exit, so
 * that the engine does not take it for a crash of the target). */
#define FUZZ_CHECK_EXIT_UNSAVED 86

typedef struct {
    harness_backend *backend;
    harness_run_legacy *legacy;        /* three-way runs (harness_run_case3); NULL: none */
    gm_compare level;
    const triage_baseline *baseline;
    bool strict_baseline;
    const char *failure_dir;  /* where failing cases are saved; NULL: not saved */
    const char *engine;       /* "libfuzzer", "afl++": recorded in found.by */
    uint64_t execs;           /* caller's running count: recorded in found.execs */
} fuzz_check_config;

typedef enum {
    FUZZ_CHECK_MATCH,     /* the two sides agree */
    FUZZ_CHECK_KNOWN,     /* they differ in a known, accepted way */
    FUZZ_CHECK_FAILURE,   /* a new signature: saved, the harness aborts */
    FUZZ_CHECK_BROKEN,    /* the harness itself failed (device, memory) */
    FUZZ_CHECK_UNSAVED,   /* a failure that could not be saved: the harness exits
                           * (last: only a check that saves can give it) */
} fuzz_check_result;

fuzz_check_result fuzz_check_case(const fuzz_check_config *cfg, const gm_case *c,
                                  triage_finding *finding);

/* The same for a run already done (harness_run_finish): classify, decide, save. */
fuzz_check_result fuzz_check_judged(const fuzz_check_config *cfg, const gm_case *c,
                                    const harness_run_result *r, triage_finding *f);

/* ---- fuzz_harness.c ------------------------------------------------- */

/* fuzz_harness: what the libFuzzer and AFL++ targets share: their
 * settings, read from the environment once at start-up (GMFUZZ_*: the one
 * table of them, with their types, defaults and meaning, is
 * fuzz/fuzz_settings.def; fuzz_settings.h reads it, and warns about a
 * GMFUZZ_* name it does not know), and one input through decode + check
 * (fuzz.h). */
#define FUZZ_HARNESS_SEEN_MAX 4096

/* The target's counts as last printed for the campaign driver. */
typedef struct {
    harness_backend_restarts restarts;
    harness_backend_unreliable unreliable;
    harness_backend_jit jit;
    uint64_t held; /* inputs not sent to the target: their class was not admitted */
} fuzz_harness_said;

typedef struct {
    harness_backend *backend;
    harness_run_legacy *legacy;
    triage_baseline *baseline;
    fuzz_check_config check;
    fuzz_settings settings;        /* as read at start-up */
    unsigned case_mutation_percent;
    bool keep_going;
    uint64_t seen[FUZZ_HARNESS_SEEN_MAX]; /* keep-going: hashes of the signatures saved */
    size_t n_seen;
    fuzz_harness_said said;        /* the target's counts last printed for the driver */
    fuzz_defer defer;              /* cap 0: every input checked on the target at once */
    fuzz_reuse reuse;              /* defer.cap 0: the case of the last header, kept */
    fuzz_sched_config sched;       /* GMFUZZ_CLASS_*: how a job meets classes */
    bool by_class;                 /* GMFUZZ_SCHEDULE: in runs of a class, new ones budgeted */
    fuzz_sched_budget admitted;    /* libFuzzer, by class: the classes sent to the target */
    uint64_t held;                 /* inputs whose class was not admitted: C side only */
    uint64_t checked;              /* inputs whose verdict is in (both sides done) */
    double checked_said_at;        /* when the checked counts were last printed (monotonic) */
    uint64_t checked_said, answered_said; /* what was printed then */
    double opened_at;              /* when the job started opening (monotonic): three-way,
                                    * the torch reference's share of the time since */
} fuzz_harness;

/* Opens the backend and loads the baseline the environment names;
 * `engine` ("libfuzzer", "afl++") is recorded in saved failures. Once the
 * target is open, says so for the campaign driver
 * ("stat::gmfuzz_target_started_ms: N", its start-up's milliseconds); from
 * then on, at most once a second and at the end, how many inputs were
 * checked and how many calls the target answered
 * ("stat::gmfuzz_target_checked: N", "stat::gmfuzz_target_answered: N"):
 * the driver tells a campaign that checked nothing, and a call still in
 * flight, from these (campaign/campaign_stats.h). */
bool fuzz_harness_open(fuzz_harness *h, harness_backend_kind kind, const char *engine, gm_error *err);
void fuzz_harness_close(fuzz_harness *h);

/* Decodes and checks one input; `finding` (may be NULL) gets the
 * classification. A failure is saved before this returns. Decoding fails
 * only when memory runs out: FUZZ_CHECK_BROKEN. */
fuzz_check_result fuzz_harness_run(fuzz_harness *h, const uint8_t *data, size_t size,
                                   triage_finding *finding);

/* Runs n cases as one batch on the target (harness_backend_run_batch: one round
 * trip for external targets), then judges each as fuzz_harness_run does;
 * `failures` counts the failing ones. The most serious result is returned
 * (BROKEN when the batch itself failed). */
fuzz_check_result fuzz_harness_run_batch(fuzz_harness *h, const gm_case *const *cases, size_t n,
                                         size_t *failures);

/* One line on stderr for a failure or a broken run (the target aborts next). */
void fuzz_harness_report(const fuzz_harness *h, fuzz_check_result r, const triage_finding *f);

/* Whether the target must abort after result r: a broken run and an
 * unsaved failure always, a failure unless GMFUZZ_KEEP_GOING. */
bool fuzz_harness_must_abort(const fuzz_harness *h, fuzz_check_result r);

/* Ends the target after result r: abort() (the engine records a crash),
 * or for an unsaved failure _exit(FUZZ_CHECK_EXIT_UNSAVED), which the
 * campaign driver reads as "a finding could not be saved". */
_Noreturn void fuzz_harness_abort(fuzz_check_result r);

#endif
