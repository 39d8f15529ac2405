#ifndef CMD_RUN_H
#define CMD_RUN_H
/* `gmfuzz run`: argv[0] is "run". Returns the process exit code. */
int cmd_run_main(int argc, char **argv);
#endif
