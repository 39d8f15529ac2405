#ifndef CMD_AGREE_H
#define CMD_AGREE_H
/* `gmfuzz agree`: argv[0] is "agree". Returns the process exit code. */
int cmd_agree_main(int argc, char **argv);
#endif
