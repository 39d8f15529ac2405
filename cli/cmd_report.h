#ifndef CMD_REPORT_H
#define CMD_REPORT_H
/* `gmfuzz report`: argv[0] is "report". Returns the process exit code. */
int cmd_report_main(int argc, char **argv);
#endif
