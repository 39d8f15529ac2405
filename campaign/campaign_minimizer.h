/* campaign_minimizer: the driver's own runs of the cases it found (the
 * replay that confirms a signature, its minimization, the last run of the
 * reproducer: campaign_repro.h) happen in child processes, never in the
 * driver. A target that corrupts memory, aborts or hangs there costs that
 * one signature its reproducer (a note says why, its failure files are
 * kept) and a fresh child goes on with the next: the campaign always gets
 * to its record and report.
 *
 * One child makes the reproducers in order, opening the backend once, and
 * sends each result back through a pipe as it is done. The child is in a
 * process group of its own (Ctrl-C reaches the driver alone) and dies with
 * the driver (PR_SET_PDEATHSIG). A second Ctrl-C or SIGTERM during the
 * minimization kills it: what is left is "skipped" (its failure files
 * stay in failures/). A signature whose child sends nothing for
 * CAMPAIGN_MINIMIZER_STALL_S is given up the same way.
 *
 * The phase has a budget (--minimize-time, campaign_options.h), checked
 * between runs: a minimization under way stops where it is, and a
 * signature reached after the deadline is replayed and written as found
 * (not minimized). The budget holds even when a run does not end (a hang,
 * a compile): CAMPAIGN_MINIMIZER_GRACE_S past it the child is killed, and
 * each signature left gets its smallest failure file as its reproducer,
 * not replayed (nothing is lost, and `--time` plus the budget bounds the
 * campaign).
 */
#ifndef CAMPAIGN_MINIMIZER_H
#define CAMPAIGN_MINIMIZER_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign_failures.h"
#include "campaign_repro.h"
#include "campaign_setup.h"

#define CAMPAIGN_MINIMIZER_STALL_S 300.0
#define CAMPAIGN_MINIMIZER_GRACE_S 2.0

/* Fills repros[i] for every signature of `f` (n_sigs entries). False when
 * the backend could not be opened or failed (problem says why): then no
 * reproducer is trusted. `skipped` counts those left out by a second
 * signal. */
bool campaign_minimizer_run(const campaign_setup *s, const campaign_failures *f,
                            campaign_repro *repros, size_t *skipped, char *problem,
                            size_t problem_size);

#endif
