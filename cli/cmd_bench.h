#ifndef CMD_BENCH_H
#define CMD_BENCH_H
/* `gmfuzz bench kernel`: argv[0] is "bench". Returns the process exit code. */
int cmd_bench_main(int argc, char **argv);
#endif
