/* fuzz_sched: the order in which a job meets its target's specializations
 * (docs/TARGETS.md, "Specialization classes").
 *
 * A kernel as people write it compiles once per specialization, and every
 * process pays a load the first time it meets one. A job that draws a new
 * class nearly every case (what a plain generator does) spends its time in
 * the JIT: 9 to 22 cases a second on the H200 against 20,000. So a job
 * works in RUNS of one class (harness_class_of) with fresh sizes and
 * contents (harness_gen_case_in_class), keeps the classes its worker holds,
 * and meets a NEW class only while the JIT time it spent stays within a
 * budget: the first `warm` new classes at once (the campaign's start warms
 * the workers in parallel, each job its own classes), then while
 *
 *     jit seconds spent <= budget * seconds since the start.
 *
 * The JIT time is what the target reports (harness_backend_jit_counts): a
 * target that reports none (builtin, torch) is never held back.
 *
 * A sweep of a fixed number of cases (`--cases N`) counts runs instead of
 * seconds (by_runs): past the first `warm`, a new class for every
 * 1 / budget runs. A seed and a count are then one fixed set of cases on any
 * machine, however long the compiles took: with seconds, how many classes
 * 20,000 cases met (and whether a fault of the 7th one showed) went by the
 * machine's speed.
 *
 * New classes come from a stream of their own, seeded by the job: job k's
 * j-th new class is the same in every campaign with that seed (`gmfuzz
 * warm` compiles them ahead), and their regions rotate through the input
 * space's corners (a big batch, a wide table, one row, SWA tiles), job by
 * job, so that the jobs of a campaign reach every corner in their first
 * classes. A run's length, and the choice of the class a run revisits, go
 * by the weight of its region in the plain generator's draw: a corner is
 * reached early, but gets the share of the cases it has there (a big batch
 * costs a hundred small ones). */
#ifndef FUZZ_SCHED_H
#define FUZZ_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gm_case.h"
#include "gm_error.h"
#include "harness.h"

#define FUZZ_SCHED_BUDGET 0.10    /* share of the time new classes may cost */
#define FUZZ_SCHED_WARM 4u        /* new classes met at once at the start */
#define FUZZ_SCHED_RUN 256u       /* cases a run of one class */
#define FUZZ_SCHED_KNOWN_MAX 8192 /* classes a job keeps (then: revisits only) */
/* The bytes of a batch's tensors, at most (past its first case): a batch of
 * one class holds cases of one size, and 64 big batches would take 512 MiB
 * of the block shared with a worker, cleared page by page. */
#define FUZZ_SCHED_BATCH_BYTES ((size_t)32 << 20)

typedef struct {
    double budget;       /* FUZZ_SCHED_BUDGET */
    unsigned warm;       /* FUZZ_SCHED_WARM */
    uint64_t run;        /* FUZZ_SCHED_RUN */
    bool by_runs;        /* the budget counts runs, not seconds (a fixed set of cases) */
} fuzz_sched_config;

/* The budget and the classes met: a set of class keys. */
typedef struct {
    fuzz_sched_config cfg;
    uint64_t *keys; /* open addressing, 0 is empty (a key of 0 is stored as 1) */
    size_t n_keys, cap;
    double started;   /* monotonic seconds */
    double jit_s;     /* JIT seconds charged */
    uint64_t added;   /* new classes met */
    uint64_t runs;    /* runs started (by_runs) */
} fuzz_sched_budget;

bool fuzz_sched_budget_init(fuzz_sched_budget *b, const fuzz_sched_config *cfg, gm_error *err);
void fuzz_sched_budget_free(fuzz_sched_budget *b);
bool fuzz_sched_budget_knows(const fuzz_sched_budget *b, uint64_t key);
/* Whether a new class may be met now. */
bool fuzz_sched_budget_allows(const fuzz_sched_budget *b);
/* Records a class as met (false: the set is full). */
bool fuzz_sched_budget_add(fuzz_sched_budget *b, uint64_t key);
void fuzz_sched_budget_charge(fuzz_sched_budget *b, double jit_s);

/* A class a job met: its first case, the region it was drawn from, what it
 * cost. */
typedef struct {
    gm_case like;
    harness_gen_region region;
    uint64_t cases;
    double jit_s;
} fuzz_sched_class;

/* A sweep job's stream of cases. */
typedef struct {
    fuzz_sched_budget budget;
    harness_gen cases;       /* the runs' cases */
    harness_gen classes;     /* the new classes' first cases */
    unsigned job;            /* rotates the regions */
    fuzz_sched_class *known; /* in the order met */
    size_t n_known, cap_known;
    size_t current;          /* the run's class (index into known) */
    uint64_t left;           /* cases left in the run */
    uint64_t new_draws;      /* first cases drawn from the class stream */
    uint64_t revisits;
} fuzz_sched;

/* The stream of job `job` with generator seed `seed`. */
bool fuzz_sched_init(fuzz_sched *s, const fuzz_sched_config *cfg, uint64_t seed, unsigned job,
                     gm_error *err);
void fuzz_sched_free(fuzz_sched *s);

/* The next cases (each freed first), at most n and FUZZ_SCHED_BATCH_BYTES
 * of tensors, into cases[0..*drawn), all of the class of the run under
 * way: a run starts when the last one ended, in a new class when the
 * budget allows, else in a class met before. A run has `run` cases times
 * its region's share of the plain generator's draws (at least one): the
 * corners get the time they get there. */
bool fuzz_sched_draw(fuzz_sched *s, gm_case *cases, size_t n, size_t *drawn, gm_error *err);

/* After a batch: the JIT seconds the target spent on it (its class's). */
void fuzz_sched_charge(fuzz_sched *s, double jit_s);

/* The first case of job `job`'s `index`-th new class (harness_gen_case_in
 * of its region), as fuzz_sched_draw would draw it: what `gmfuzz warm`
 * compiles. */
bool fuzz_sched_new_class(uint64_t seed, unsigned job, uint64_t index, gm_case *c, gm_error *err);

#endif
