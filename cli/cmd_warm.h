/* gmfuzz warm: a target's JIT cache filled ahead of a campaign
 * (campaign/campaign.h, campaign_warm). */
#ifndef CMD_WARM_H
#define CMD_WARM_H

int cmd_warm_main(int argc, char **argv);

#endif
