#ifndef CMD_REPLAY_H
#define CMD_REPLAY_H
/* `gmfuzz replay`: argv[0] is "replay". Returns the process exit code. */
int cmd_replay_main(int argc, char **argv);
#endif
