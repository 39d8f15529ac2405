#ifndef CMD_RETEST_H
#define CMD_RETEST_H

int cmd_retest_main(int argc, char **argv);

#endif
