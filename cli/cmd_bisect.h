#ifndef CMD_BISECT_H
#define CMD_BISECT_H

int cmd_bisect_main(int argc, char **argv);

#endif
