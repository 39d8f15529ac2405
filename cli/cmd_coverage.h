#ifndef CMD_COVERAGE_H
#define CMD_COVERAGE_H
/* `gmfuzz coverage`: argv[0] is "coverage". Returns the process exit code. */
int cmd_coverage_main(int argc, char **argv);
#endif
