/* gmfuzz merge OUT DIR...: several campaign folders made into one
 * (campaign/campaign_merge.h, docs/FUZZING.md "Merging campaigns"). */
#ifndef CMD_MERGE_H
#define CMD_MERGE_H

int cmd_merge_main(int argc, char **argv);

#endif
