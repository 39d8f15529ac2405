#ifndef CMD_TRIAGE_H
#define CMD_TRIAGE_H
/* `gmfuzz triage`: argv[0] is "triage". Returns the process exit code. */
int cmd_triage_main(int argc, char **argv);
#endif
