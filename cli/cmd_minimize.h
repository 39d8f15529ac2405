#ifndef CMD_MINIMIZE_H
#define CMD_MINIMIZE_H
/* `gmfuzz minimize`: argv[0] is "minimize". Returns the process exit code. */
int cmd_minimize_main(int argc, char **argv);
#endif
