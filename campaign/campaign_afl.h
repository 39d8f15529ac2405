/* campaign_afl: an AFL++ instance of a campaign (campaign_engine.h). */
#ifndef CAMPAIGN_AFL_H
#define CAMPAIGN_AFL_H

#include "campaign_argv.h"
#include "campaign_setup.h"
#include "campaign_worker.h"

void campaign_afl_argv(const campaign_setup *s, const campaign_worker *w, double time_left_s,
                       campaign_argv *argv);
void campaign_afl_env(campaign_argv *env);
void campaign_afl_refresh(const campaign_setup *s, campaign_worker *w, double now_s);

#endif
