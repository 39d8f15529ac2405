/* harness: the contract of the harness room, what the other rooms (cli/,
 * fuzz/, triage/, reports/, bench/, the campaign) may call. Everything else
 * in harness/ is private to it (tests/ may include internals).
 *
 *   targets      which implementation the fused side runs, as named on the
 *                command line (harness_target.c)
 *   the seam     a backend opened on a target, one case or a batch at a time
 *                (harness_backend.c)
 *   one run      a differential run of a case: reference, fused, verdict
 *                (harness_run.c)
 *   replay       a document run again and checked against what it records
 *                (harness_replay.c)
 *   agree        the fused kernel on several backends, bit for bit
 *                (harness_agree.c)
 *   generator    seeded random cases for comparing backends (harness_gen.c)
 *   paths        the files named on a command line, sorted (harness_paths.c)
 *   target hub   one process running a target for every job of a campaign
 *                (harness_hub.c, harness_hub_client.c)
 */
#ifndef HARNESS_H
#define HARNESS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "gm_case.h"
#include "gm_error.h"
#include "gm_json.h"
#include "gm_oracle.h"
#include "gm_outputs.h"
#include "reference.h"

/* ---- targets (harness_target.c) ------------------------------------------
 * Which implementation the fused side of a differential runs
 * (docs/TARGETS.md), as named on the command line:
 *
 *   builtin:cpu|cuda|cuda-graph|cuda-raw   gmfuzz's own fused kernel
 *   lib:PATH.so                            a library exporting gmfuzz's C ABI
 *   python:[MODULE][:FUNCTION]             a Python entry point in a worker
 *
 * A spec is plain data (no process, no library loaded): the seam opens it.
 * The reference side of a three-way run is named the same way
 * (`python:[MODULE][:FUNCTION]`, role legacy). */

typedef enum {
    HARNESS_TARGET_BUILTIN,
    HARNESS_TARGET_LIB,
    HARNESS_TARGET_PYTHON
} harness_target_kind;

/* The builtin backends, in the order of their names. */
typedef enum {
    HARNESS_BACKEND_CPU,
    HARNESS_BACKEND_CUDA,
    HARNESS_BACKEND_CUDA_GRAPH,
    HARNESS_BACKEND_CUDA_RAW,
    HARNESS_BACKEND_LIB,    /* lib: targets */
    HARNESS_BACKEND_PYTHON, /* python: targets */
    HARNESS_BACKEND_COUNT
} harness_backend_kind;

#define HARNESS_TARGET_PATH_MAX 1024
#define HARNESS_TARGET_NAME_MAX 128
#define HARNESS_TARGET_DEFAULT_TIMEOUT_S 10.0
/* A compile or a load of the target's JIT (docs/TARGETS.md, "Compiles and
 * loads") is not execution: it has a limit of its own. */
#define HARNESS_TARGET_DEFAULT_COMPILE_TIMEOUT_S 300.0
/* An external target's start-up (a python: worker importing its module and
 * saying HELLO) has a limit of its own too: past it, the target is an
 * infrastructure failure (GM_ERR_START), never a finding. */
#define HARNESS_TARGET_DEFAULT_START_TIMEOUT_S 180.0
/* The exit code of a process (a campaign's job or target hub) whose target
 * did not finish its start-up in time (GM_ERR_START): the campaign driver
 * tells it from a crash by this code, and names it as infrastructure. */
#define HARNESS_EXIT_NO_START 87

typedef struct {
    harness_target_kind kind;
    harness_backend_kind builtin;           /* builtin: which backend */
    char path[HARNESS_TARGET_PATH_MAX];     /* lib: the library; python: MODULE ("" = sglang's) */
    char function[HARNESS_TARGET_NAME_MAX]; /* python: FUNCTION ("" = the role's default) */
    bool device_cpu;                        /* python: tensors on the CPU (--target-device cpu) */
    double timeout_s;                       /* external: the limit of one call's execution */
    double compile_timeout_s;               /* external: the limit of one compile or load, and
                                             * of a re-run that confirms a hang of a target
                                             * whose compiles gmfuzz cannot see */
    double start_timeout_s;                 /* python: the limit of the worker's start-up
                                             * (import, HELLO); past it GM_ERR_START */
    char hub[HARNESS_TARGET_NAME_MAX];      /* "": run here; else the target hub @hub runs it */
} harness_target_spec;

const char *harness_target_backend_name(harness_backend_kind kind);
/* Only the four builtin backends have names that `--backend` takes. */
bool harness_target_backend_from_name(const char *name, harness_backend_kind *out);

/* The builtin target `kind` (device cuda, default timeout). */
void harness_target_builtin(harness_target_spec *out, harness_backend_kind kind);

/* Parses "builtin:B", "lib:PATH" or "python:[MODULE][:FUNCTION]"; a bare
 * builtin name ("cpu") is accepted as builtin:cpu. The error names what is
 * wrong and lists the forms. Device and timeout keep their defaults. */
bool harness_target_parse(const char *text, harness_target_spec *out, gm_error *err);

/* The canonical text of a spec ("python:examples/torch_fused.py:update"). */
void harness_target_format(const harness_target_spec *t, char *out, size_t size);

/* Whether the target runs outside gmfuzz (lib:, python:): such a target is
 * never sent a case on which the fused model goes out of bounds. */
bool harness_target_is_external(const harness_target_spec *t);

/* ---- the seam (harness_backend.c) ----------------------------------------
 * Where the fused kernel runs:
 *
 *   cpu         kernel/fused_cpu.c: the semantics executed on the host,
 *               every access checked (always available);
 *   cuda        kernel/fused_cuda.cu: the checked CUDA variant, one launch
 *               per case (needs a build with nvcc and a GPU at run time);
 *   cuda-graph  the same launch recorded once per key (every shape and
 *               scalar the launch bakes in) into a CUDA graph over
 *               persistent device buffers; each case writes its inputs
 *               into those buffers and replays the graph, as a server does;
 *   cuda-raw    the production (unchecked) kernel: an out-of-bounds case
 *               really touches device memory. For testing the recovery
 *               from device faults, never for hostile inputs otherwise;
 *   lib:, python:  external targets, each in a worker process.
 *
 * Every backend takes a case, fills `out` with the buffers' prior contents
 * (gm_outputs_prepare) and lets the kernel rewrite them. An out-of-bounds
 * access is not a failure of the backend: it sets out->error to
 * "out_of_bounds: ..." and the run succeeds. A false return means the
 * backend itself failed (no GPU, CUDA error, out of memory). */

typedef struct harness_backend harness_backend;

/* Opens a builtin backend; for cuda this fails with GM_ERR_DEVICE (and a
 * message saying why) when the build has no CUDA or the machine has no GPU. */
bool harness_backend_open(harness_backend_kind kind, harness_backend **out, gm_error *err);

/* Opens any target (docs/TARGETS.md): a builtin backend, a lib: library in
 * a worker process, or a python: entry point in a Python worker. An
 * external target is never sent a case on which gmfuzz's fused model goes
 * out of bounds: the model's outputs and error stand for it. What an
 * external target does wrong is a finding, not a failed run: `error` of
 * the fused outputs becomes "target_raised: TYPE: MESSAGE",
 * "target_crashed: ..." or "target_hung: ..." (the case saved under the
 * crash folder first, the worker restarted). */
bool harness_backend_open_target(const harness_target_spec *spec, harness_backend **out,
                                 gm_error *err);

/* The spec it was opened with, and what ran: for external targets the
 * record of a reproducer's "target" (module, file, sha256, version...);
 * NULL for the builtin ones (their reproducers record only "backend"). */
const harness_target_spec *harness_backend_spec(const harness_backend *b);
const gm_target_record *harness_backend_identity(const harness_backend *b);

bool harness_backend_run(harness_backend *b, const gm_case *c, gm_outputs *out, gm_error *err);

/* Runs n cases at once: an external target receives them in one batch
 * (one round trip, one synchronization); the builtin ones in turn. */
bool harness_backend_run_batch(harness_backend *b, const gm_case *const *cases, gm_outputs *outs,
                               size_t n, gm_error *err);

/* The fused model on the host (prior contents, then the builtin CPU
 * execution): what an external target must return, and whether `c` is
 * safe to send it (no out-of-bounds access; SPEC section 3). */
bool harness_backend_run_model(const gm_case *c, gm_outputs *model, bool *safe, gm_error *err);

/* An external target's batch whose fused models are already known (each
 * safe): as harness_backend_run_batch without running them again; outs[i]
 * is the target's, with the same errors (deviation from models[i], raised,
 * crashed, hung). */
bool harness_backend_run_modeled(harness_backend *b, const gm_case *const *cases,
                                 const gm_outputs *const *models, gm_outputs *outs, size_t n,
                                 gm_error *err);

/* How many times the worker was replaced, by cause. */
typedef struct {
    unsigned crashed; /* died, or a sticky device error */
    unsigned hung;    /* no answer within the target timeout */
} harness_backend_restarts;
harness_backend_restarts harness_backend_restart_counts(const harness_backend *b);

/* What the target's JIT did (a python: worker watching Triton or
 * python/gmfuzz_jit.py; docs/TARGETS.md, "Compiles and loads"): kernels
 * compiled, kernels loaded from an on-disk cache, and their seconds. */
typedef struct {
    uint64_t compiles, loads;
    double seconds;
} harness_backend_jit;
harness_backend_jit harness_backend_jit_counts(const harness_backend *b);
/* Whether the target reports its compiles and loads (else its counts stay 0). */
bool harness_backend_sees_jit(const harness_backend *b);

/* A crash or a hang is confirmed before it is a finding: the case runs
 * again alone on a fresh worker (with the compile limit where gmfuzz cannot
 * see the target's compiles). One that does not happen again is
 * unreliable: counted here, written to the unreliable folder when one is
 * set (harness_backend_set_unreliable_dir), and the case is judged on its
 * second run. */
typedef struct {
    unsigned crashed, hung;
} harness_backend_unreliable;
harness_backend_unreliable harness_backend_unreliable_counts(const harness_backend *b);

/* How many calls the target answered (returned from, or raised in) since
 * it was opened: a crash, a hang or a call still waiting is no answer. A
 * campaign whose target never answered checked nothing on it (docs/FUZZING.md). */
uint64_t harness_backend_answered(const harness_backend *b);

/* Whether crashes and hangs are confirmed (the default). The minimizer
 * turns it off: the signature it keeps was confirmed when found, and a
 * re-run per step would cost it a call's limit (or the compile limit) each
 * time. */
void harness_backend_set_confirm(harness_backend *b, bool confirm);
void harness_backend_close(harness_backend *b);
harness_backend_kind harness_backend_kind_of(const harness_backend *b);

/* Where a GPU backend saves the case that made the device fail (a CUDA
 * error, sticky ones included), before it resets the device and reports
 * the error; NULL (the default): not saved. The folder is created. */
void harness_backend_set_crash_dir(harness_backend *b, const char *dir);

/* Where an unreliable crash or hang is kept (a case file with what happened
 * each time: docs/FORMATS.md, "Unreliable findings"); NULL (the default):
 * counted only. The folder is created when the first one comes. */
void harness_backend_set_unreliable_dir(harness_backend *b, const char *dir);

/* ---- one differential run (harness_run.c) --------------------------------
 * In the Cryptofuzz manner: the same typed operation through every
 * implementation, then compared.
 *
 *   reference  reference_run (the legacy sequence in C)
 *   fused      the chosen backend
 *   verdict    gm_oracle_judge at the chosen level */

typedef struct harness_run_legacy harness_run_legacy;

typedef struct {
    gm_outputs reference;
    gm_outputs fused;
    reference_result raised;
    gm_verdict verdict;
    char drift[512]; /* three-way runs: how real PyTorch disagreed with the C reference; "" */
    /* Three-way runs: what the torch legacy sequence returned (its buffers;
     * torch.error holds its exception when it raised), kept so that triage
     * (the drift's bucket, triage_drift.h), `show` and the reproducer see
     * both references. has_torch is false in a two-way run; torch_failed:
     * the worker crashed or hung (no buffers). */
    gm_outputs torch;
    bool has_torch, torch_failed;
} harness_run_result;

void harness_run_result_init(harness_run_result *r);
void harness_run_result_free(harness_run_result *r);

/* Runs both sides on `c` and judges them. False only when a side could not
 * run at all (memory, device): a mismatch is a successful run. */
bool harness_run_case(harness_backend *b, const gm_case *c, gm_compare level, harness_run_result *r,
                      gm_error *err);

/* A three-way run (docs/TARGETS.md): as harness_run_case, and the legacy
 * sequence in real PyTorch (`legacy`, NULL: none) must agree with the C
 * reference; when it does not, the verdict is reference_drift and r->drift
 * says where. */
bool harness_run_case3(harness_backend *b, harness_run_legacy *legacy, const gm_case *c,
                       gm_compare level, harness_run_result *r, gm_error *err);

/* The rest of a run whose fused side r->fused is done (harness_backend_run,
 * harness_backend_run_batch): the reference, the verdict, the torch legacy. */
bool harness_run_finish(harness_run_legacy *legacy, const gm_case *c, gm_compare level,
                        harness_run_result *r, gm_error *err);

/* The same for n runs whose fused sides are done (runs[k] for cases[k]):
 * the torch legacy sequence of all of them goes to the worker in one
 * message (docs/TARGETS.md, "Three-way differential"). */
bool harness_run_finish_batch(harness_run_legacy *legacy, const gm_case *const *cases, size_t n,
                              gm_compare level, harness_run_result *runs, gm_error *err);

/* A backend that runs three-way: every harness_run_case on `b` (the
 * minimizer's, a reproducer's last run) runs `legacy` too, so that a drift
 * keeps its signature there. Not owned: close it after the backend. NULL:
 * two-way again. */
void harness_backend_set_legacy(harness_backend *b, harness_run_legacy *legacy);
harness_run_legacy *harness_backend_legacy(const harness_backend *b);

/* The torch legacy sequence in a Python worker: `spec` is
 * "python:[MODULE][:FUNCTION]" (default: python/gmfuzz_legacy.py's
 * legacy_rebuild), on the CPU unless device_cuda. */
bool harness_run_legacy_open(const char *spec, bool device_cuda, double timeout_s,
                             harness_run_legacy **out, gm_error *err);
void harness_run_legacy_close(harness_run_legacy *l);

/* Where a three-way run's time goes: the torch reference's calls (one
 * message each), the cases in them, and the wall seconds spent waiting on
 * them (the worker's torch ops, the transfer both ways), since it opened. */
typedef struct {
    uint64_t calls, cases;
    double seconds;
    double start_seconds; /* its worker's start-up (importing torch) */
} harness_run_legacy_spent;
harness_run_legacy_spent harness_run_legacy_spent_of(const harness_run_legacy *l);

/* ---- replay (harness_replay.c) --------------------------------------------
 * Runs a document again and checks it against what it records:
 *
 *   case       passes when reference and fused match at `level`;
 *   vector     the reference must raise iff the real legacy path raised and
 *              otherwise equal its buffers exactly; the fused kernel must
 *              equal the real fused buffers exactly (and overrun iff they
 *              record an error);
 *   repro      at the level it records: the same verdict (status, buffers,
 *              first difference) and the same outputs on both sides. */

typedef struct {
    bool passed;
    char message[768]; /* why it failed; empty when it passed */
} harness_replay_outcome;

/* False only when a side could not run (err set); a failed check is a
 * successful replay with passed == false. */
bool harness_replay_doc(harness_backend *b, const gm_doc *doc, gm_compare case_level,
                        harness_replay_outcome *out, gm_error *err);

/* Whether reproducer `doc` was recorded on `b`'s backend. Elsewhere, what
 * the fused buffers hold after an out-of-bounds access is not defined (the
 * host stops at the first one, a GPU's other blocks carry on): replay then
 * checks the overrun, not those buffers. */
bool harness_replay_recorded_here(const harness_backend *b, const gm_doc *doc);

/* The same, with the torch legacy sequence beside the C reference
 * (`legacy` may be NULL): a drift fails the document. */
bool harness_replay_doc3(harness_backend *b, harness_run_legacy *legacy, const gm_doc *doc,
                         gm_compare case_level, harness_replay_outcome *out, gm_error *err);

/* ---- agree (harness_agree.c) ----------------------------------------------
 * The fused kernel on several backends must give the same buffers, bit for
 * bit. Where the first backend (normally cpu) reports an out-of-bounds
 * access, the others must report one too (their buffers are then not
 * compared: the access was skipped at different points). */

typedef struct {
    bool agreed;
    bool out_of_bounds; /* the first backend reported an out-of-bounds access */
    char message[512];  /* the first disagreement; empty when agreed */
} harness_agree_outcome;

/* False only when a backend failed to run (err set). */
bool harness_agree_case(harness_backend *const *backends, size_t n, const gm_case *c,
                        harness_agree_outcome *out, gm_error *err);

/* ---- the generator (harness_gen.c) ----------------------------------------
 * A seeded generator of random cases, for comparing backends with one
 * another (`gmfuzz agree`, the GPU tests). It is not the fuzzer's decoder
 * (fuzz/, coverage-guided): it draws realistic batches with the values that
 * matter (sentinels, negative tokens, cuda-graph padded rows, mapping values
 * past int32, stale buffers) and, every so often, a large batch (1,023 to
 * 65,536 rows, few pages), a wide page table (513 to 16,384 pages, few rows)
 * or an SWA out_len past several 512-slot tiles; page sizes 1 to 256. Its
 * edge values are the input space's classes (core/gm_space.h), the very
 * ones the decoder's specials and the dictionary select: negatives below -1
 * in every signed input, values past int32, running sums of seq_lens past
 * int32, rows with seq_len + seqlen_offset <= 0, sizes at the block and tile
 * edges. Cases stay mostly in bounds so that the buffers are compared. */

typedef struct {
    uint64_t state;
} harness_gen;

/* splitmix64: tiny, fast, and the same on every platform. */
void harness_gen_seed(harness_gen *g, uint64_t seed);
uint64_t harness_gen_next(harness_gen *g);
/* Uniform in [lo, hi] (hi >= lo). */
int64_t harness_gen_range(harness_gen *g, int64_t lo, int64_t hi);

/* Fills `c` (fresh from gm_case_init) with the next random case; it passes
 * gm_case_check. False only when memory runs out. */
bool harness_gen_case(harness_gen *g, gm_case *c, gm_error *err);
/* Fills `c` (fresh from gm_case_init) with a case of `shape`'s shape and
 * new contents: the same mode, sizes, page size, scalars, SWA parts and
 * prior contents (every argument a fused target's entry point gets but the
 * values in its device tensors), new token slots, rows, lengths, mapping
 * values and write locations. It passes gm_case_check. `gmfuzz sweep
 * --shape-run`: runs of one shape, for targets that replay a CUDA graph
 * per shape. False only when memory runs out. */
bool harness_gen_case_like(harness_gen *g, const gm_case *shape, gm_case *c, gm_error *err);

/* Fills `c` (fresh from gm_case_init) with a case of `like`'s
 * specialization class (harness_class_of, below) with fresh sizes and
 * contents: bs within the same power of two and of the same divisibility,
 * pages within the same power of two, width, out_len and the write count
 * of the same divisibility, the same mode, page size, scalars' classes,
 * SWA parts and prior contents. It passes gm_case_check; its class is
 * `like`'s. False only when memory runs out. */
bool harness_gen_case_in_class(harness_gen *g, const gm_case *like, gm_case *c, gm_error *err);

/* Which region of the input space a new case is drawn from: anywhere, as
 * harness_gen_case does, or one of its rare corners (a scheduler that
 * spends a compile per class reaches them on purpose). */
typedef enum {
    HARNESS_GEN_ANYWHERE,
    HARNESS_GEN_BIG_BATCH,  /* 1,023 to 65,536 rows, few pages */
    HARNESS_GEN_WIDE_TABLE, /* 513 to 16,384 pages, few rows */
    HARNESS_GEN_ONE_ROW,    /* bs == 1 */
    HARNESS_GEN_SWA_TILES,  /* an SWA model whose out_len spans several 512-slot tiles */
    HARNESS_GEN_REGIONS
} harness_gen_region;
bool harness_gen_case_in(harness_gen *g, harness_gen_region region, gm_case *c, gm_error *err);

/* ---- specialization classes (harness_class.c) ----------------------------
 * A kernel as people write it (Triton's default specialization, constexpr
 * block widths) is compiled for each combination of what its launch
 * specializes on; the first call of each costs a compile, or a load from an
 * on-disk cache, in every process (docs/TARGETS.md, "Specialization
 * classes"). A case's class is gmfuzz's model of that key, from the fused
 * call's arguments (SPEC section 6): the q mode and the optional buffers,
 * the page size, the power of two of bs (a one-program scan's block), and
 * for each integer argument what Triton specializes it on (== 1, a
 * multiple of 16, neither; past int32). Cases of one class run on one
 * compiled kernel; the sweep and the libFuzzer jobs order their work by
 * it (fuzz.h, fuzz_sched). The targets' own reports of their compiles
 * (JIT messages) are the truth; the class is the schedule's guess. */

enum {
    HARNESS_CLASS_BS,
    HARNESS_CLASS_SEQLEN_OFFSET,
    HARNESS_CLASS_MAX_SEQ_PAGES,
    HARNESS_CLASS_REQ_STRIDE,   /* req_to_token.stride(0): the width W */
    HARNESS_CLASS_TABLE_STRIDE, /* page_table.stride(0): max_num_pages */
    HARNESS_CLASS_NUM_OUT_TOKENS,
    HARNESS_CLASS_OUT_LEN,
    HARNESS_CLASS_Q_STRIDE,
    HARNESS_CLASS_INTS
};
/* An integer argument's specialization: its divisibility, | WIDE past int32. */
enum { HARNESS_CLASS_OTHER = 0, HARNESS_CLASS_ONE = 1, HARNESS_CLASS_SIXTEEN = 2,
       HARNESS_CLASS_WIDE = 4 };

typedef struct {
    uint8_t q_mode; /* 0 none, 1 cumsum, 2 strided */
    bool swa_page_table, swa_out, out_cache_loc;
    int32_t page_size;
    uint8_t bs_log2; /* next_power_of_2(bs) == 1 << bs_log2 */
    uint8_t ints[HARNESS_CLASS_INTS];
} harness_class;

void harness_class_of(const gm_case *c, harness_class *out);
uint8_t harness_class_of_int(int64_t v);
/* A hash of the class: equal classes, equal keys. */
uint64_t harness_class_key(const harness_class *k);
uint64_t harness_class_key_of(const gm_case *c);
/* "q0 swa_pt loc P=16 bs<=64 offset=16 tokens=1" (what is not OTHER). */
void harness_class_describe(const harness_class *k, char *out, size_t size);

/* ---- paths (harness_paths.c) ----------------------------------------------
 * Expands the paths given on the command line (files, or folders searched
 * recursively for *.json) into a sorted list, so that replays are
 * deterministic; and creates the folders results go to. */

typedef struct {
    char **items;
    size_t count;
    size_t capacity;
} harness_paths;

void harness_paths_init(harness_paths *p);
void harness_paths_free(harness_paths *p);

/* Adds `path`: a file as it is, a folder's *.json files (recursively,
 * sorted by path; hidden names skipped; a symbolic link met in the walk is
 * taken when it names a *.json file and never followed into a folder, so
 * that a link loop cannot hang the walk; `path` itself may be a link to a
 * folder). A path that does not exist is an error naming it. */
bool harness_paths_add(harness_paths *p, const char *path, gm_error *err);

/* mkdir -p is gm_file_make_dirs (core/gm_file.h). */

/* ---- the target hub (harness_hub.c, harness_hub_client.c) -----------------
 * One process that runs a target for every job of a campaign
 * (docs/TARGETS.md, "The target hub"; its protocol: harness_hub_wire.h). A job
 * reaches it by opening its target with spec.hub set; the campaign serves
 * hubs and waits for them with a client. */

#define HARNESS_HUB_LANES_MAX 64
#define HARNESS_HUB_LANES_DEFAULT 8   /* builtin targets */
#define HARNESS_HUB_SLOW_ROUND_S 1e-3 /* a round this long on the target counts as slow */

/* Where a hub's time went (its log says it at the end). */
typedef struct {
    uint64_t rounds, cases;
    double read_s;      /* receiving and decoding the batches */
    double target_s;    /* the target running them */
    double answer_s;    /* encoding and sending the answers */
    double max_round_s; /* the slowest round on the target */
    uint64_t max_round_cases;
    uint64_t slow_rounds;    /* rounds of HARNESS_HUB_SLOW_ROUND_S or more on the target */
    double slow_s;           /* and their time */
    uint64_t blocks, pinned; /* clients' shared blocks mapped, and how many of them pinned */
    double enqueue_s, sync_s, pin_s; /* CUDA, shared blocks: enqueueing, waiting, pinning */
    uint64_t grows;                  /* device allocations for them */
    uint64_t max_case_bytes;         /* the largest case received, encoded */
    uint64_t case_bytes;             /* all cases received, encoded */
} harness_hub_stats;

/* Serves `spec` (its hub field empty) on @name until *stop is set (a
 * signal handler sets it) or the process `parent` is gone; false when the
 * target or the socket cannot be opened. A builtin target runs in `lanes`
 * threads of this process (each with clients of its own; on CUDA one
 * stream each in one context, so that the GPU never time-slices between
 * them), an external target in one. Prints nothing; *stats (when not
 * NULL) says where the time went. */
bool harness_hub_serve(const harness_target_spec *spec, const char *name, int lanes,
                       volatile sig_atomic_t *stop, pid_t parent, harness_hub_stats *stats,
                       gm_error *err);

typedef struct harness_hub_client harness_hub_client;

/* Connects to the hub @name and reads its HELLO (whether it is up yet). */
bool harness_hub_client_open(const char *name, harness_hub_client **out, gm_error *err);
void harness_hub_client_close(harness_hub_client *c);

#endif
