/* gmfuzz target-hub: one process that runs a GPU target for every job of a
 * campaign (harness/harness.h, docs/TARGETS.md "The target hub"). The
 * campaign driver starts it; it is not meant to be typed. */
#ifndef CMD_HUB_H
#define CMD_HUB_H

int cmd_hub_main(int argc, char **argv);

#endif
