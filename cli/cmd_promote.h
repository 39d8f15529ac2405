#ifndef CMD_PROMOTE_H
#define CMD_PROMOTE_H
/* `gmfuzz promote`: argv[0] is "promote". Returns the process exit code. */
int cmd_promote_main(int argc, char **argv);
#endif
