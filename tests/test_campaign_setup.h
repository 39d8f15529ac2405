/* test_campaign_setup: a campaign's setup with fixed paths under /o, for
 * the campaign tests (test_campaign.c, test_campaign_engines.c) that build
 * command lines and summaries without running anything. */
#ifndef TEST_CAMPAIGN_SETUP_H
#define TEST_CAMPAIGN_SETUP_H

#include <stdio.h>
#include <string.h>

#include "campaign_setup.h"

static inline void test_campaign_setup_fake(campaign_setup *s, campaign_engine engine) {
    memset(s, 0, sizeof *s);
    campaign_options_default(&s->opt);
    s->opt.engine = engine;
    s->opt.jobs = 2;
    snprintf(s->dir, sizeof s->dir, "/o");
    snprintf(s->target, sizeof s->target, "/b/fuzz/target");
    snprintf(s->corpus, sizeof s->corpus, "/o/corpus");
    snprintf(s->artifacts, sizeof s->artifacts, "/o/artifacts");
    snprintf(s->afl_out, sizeof s->afl_out, "/o/afl");
    snprintf(s->logs, sizeof s->logs, "/o/logs");
    snprintf(s->dict, sizeof s->dict, "/src/fuzz/gmfuzz.dict");
    snprintf(s->repros, sizeof s->repros, "/o/repros");
}

#endif
