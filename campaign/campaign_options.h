/* campaign_options: the values of a campaign's options (the options
 * themselves, their defaults and campaign_options_set are declared in
 * campaign.h), and what the driver derives from them. */
#ifndef CAMPAIGN_OPTIONS_H
#define CAMPAIGN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign.h"
#include "gm_error.h"
#include "harness.h"

/* The minimization's budget: --minimize-time, else max(10 s, 25% of
 * --time). What it does not reach is saved unminimized. */
#define CAMPAIGN_MINIMIZE_MIN_S 10.0
#define CAMPAIGN_MINIMIZE_SHARE 0.25
double campaign_options_minimize_time(const campaign_options *o);

/* The fused target the campaign's jobs run (--target, --backend, device,
 * timeout), for the driver's own runs (minimization). */
bool campaign_options_target(const campaign_options *o, harness_target_spec *out, gm_error *err);

/* The names of the flags that set the field at `field` (offsetof in
 * campaign_options): those that take a value, or the switches; "--a" or
 * "--a or --b", in `buf`, which it returns. Messages name a flag through
 * this, so that the flag table alone spells each name. */
#define CAMPAIGN_OPTIONS_AT(f) offsetof(campaign_options, f)
const char *campaign_options_flags_of(size_t field, bool valued, char *buf, size_t size);

#endif
