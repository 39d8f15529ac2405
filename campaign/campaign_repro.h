/* campaign_repro: turns one signature's representative failure (its
 * smallest saved file) into DIR/repros/<slug>.json, the slug of
 * "<bucket>||<signature>" (bucket first, so that a bucket's reproducers
 * sort together): replayed to confirm the
 * signature, minimized keeping it (minimize/minimize.h), run once more and
 * written as a complete gmfuzz-repro-v1 with found.by = the engine and
 * found.execs and found.at of the first failure with that signature. */
#ifndef CAMPAIGN_REPRO_H
#define CAMPAIGN_REPRO_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign.h"
#include "campaign_failures.h"
#include "campaign_setup.h"
#include "harness.h"
#include "gm_error.h"

typedef struct {
    char path[CAMPAIGN_PATH_MAX]; /* the reproducer written; "" when none */
    bool reproduced;              /* the failure replays with its signature */
    bool known;                   /* the user's baseline knows what it replays as */
    bool minimized;
    bool out_of_time;             /* the minimization's budget ran out first: saved as
                                   * found, or minimized part of the way */
    size_t bs_found, bs_final;    /* batch rows before and after */
    size_t runs;                  /* minimizer runs */
    double seconds;               /* time spent on this signature */
    char note[TRIAGE_SIGNATURE_MAX + 64]; /* what went wrong, when something did */
} campaign_repro;


/* Fills `out` for `sig`, minimizing until `deadline_s` (minimize_clock;
 * 0: none): past it the reproducer is written as found. False only when
 * the backend itself failed (err); a failure that does not replay is a
 * note, not an error. */
bool campaign_repro_make(harness_backend *b, const campaign_setup *s, const campaign_signature *sig,
                         double deadline_s, campaign_repro *out, gm_error *err);

/* The minimization's budget is spent: `sig`'s smallest failure file, as it
 * was saved when found (a whole gmfuzz-repro-v1), becomes its reproducer,
 * not replayed, not minimized; a note says so (or why it could not). */
void campaign_repro_as_found(const campaign_setup *s, const campaign_signature *sig,
                             campaign_repro *out);

#endif
