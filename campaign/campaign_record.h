/* campaign_record: what a campaign leaves in its folder for triage and
 * reports (docs/FORMATS.md), beside what the engines write:
 *
 *   DIR/campaign.json  gmfuzz-campaign-v1: how the campaign was run; written
 *                      (atomically) at the start with ended_at null and
 *                      exit_code -1, rewritten at the end with the totals,
 *                      so a killed campaign is recognisable as one
 *   DIR/stats.jsonl    one sample a second of the status loop, appended and
 *                      flushed line by line: a killed campaign keeps every
 *                      sample it took
 *   DIR/known.json     a copy of the baseline the campaign judged against
 *                      (an empty one with --strict-baseline), so that the
 *                      folder is reported the same way wherever it is
 *                      copied. (DIR/baseline.json is something else: the
 *                      targets' baseline, which also lists every signature
 *                      the campaign found, campaign_baseline.h.)
 *   DIR/campaign.reserve  CAMPAIGN_RECORD_RESERVE bytes kept from the
 *                      start and removed just before the final record and
 *                      summary are written: a disk that filled up during
 *                      the campaign still takes them
 *
 * The keys of campaign.json and stats.jsonl are the fields of
 * repro_rundir_campaign and repro_rundir_sample (repro/repro.h). */
#ifndef CAMPAIGN_RECORD_H
#define CAMPAIGN_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign.h"
#include "campaign_setup.h"
#include "campaign_status.h"
#include "campaign_summary.h"
#include "gm_error.h"

#define CAMPAIGN_RECORD_RESERVE (64 * 1024)
#define CAMPAIGN_RECORD_RESERVE_NAME "campaign.reserve"

/* The reserve, campaign.json as started, known.json, and an empty
 * stats.jsonl (a folder used before gets this campaign's samples only). */
bool campaign_record_start(const campaign_setup *s, gm_error *err);

/* Removes the reserve: the final writes may use its space. */
void campaign_record_release_reserve(const campaign_setup *s);

/* Appends one line to stats.jsonl. */
bool campaign_record_sample(const campaign_setup *s, const campaign_status *st, gm_error *err);

/* Rewrites campaign.json with how the campaign ended. */
bool campaign_record_end(const campaign_summary *sum, gm_error *err);


#endif
