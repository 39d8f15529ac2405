/* campaign_libfuzzer: a libFuzzer job of a campaign (campaign_engine.h). */
#ifndef CAMPAIGN_LIBFUZZER_H
#define CAMPAIGN_LIBFUZZER_H

#include "campaign_argv.h"
#include "campaign_setup.h"
#include "campaign_worker.h"

void campaign_libfuzzer_argv(const campaign_setup *s, const campaign_worker *w,
                             double time_left_s, campaign_argv *argv);
void campaign_libfuzzer_refresh(campaign_worker *w, double now_s);
bool campaign_libfuzzer_restarts(const campaign_setup *s, const campaign_worker *w);

/* `gmfuzz sweep-job` with the job's budget, batch and seed. */
void campaign_libfuzzer_sweep_argv(const campaign_setup *s, const campaign_worker *w,
                                   double time_left_s, campaign_argv *argv);

#endif
