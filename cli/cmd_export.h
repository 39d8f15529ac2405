#ifndef CMD_EXPORT_H
#define CMD_EXPORT_H
/* `gmfuzz export`: argv[0] is "export". Returns the process exit code. */
int cmd_export_main(int argc, char **argv);
#endif
