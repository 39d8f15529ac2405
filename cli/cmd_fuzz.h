#ifndef CMD_FUZZ_H
#define CMD_FUZZ_H
/* `gmfuzz fuzz`: argv[0] is "fuzz". Returns the process exit code. */
int cmd_fuzz_main(int argc, char **argv);
#endif
