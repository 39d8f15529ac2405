#ifndef CMD_SHOW_H
#define CMD_SHOW_H
/* `gmfuzz show`: argv[0] is "show". Returns the process exit code. */
int cmd_show_main(int argc, char **argv);
#endif
