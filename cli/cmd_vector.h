#ifndef CMD_VECTOR_H
#define CMD_VECTOR_H
/* `gmfuzz vector`: argv[0] is "vector". Returns the process exit code. */
int cmd_vector_main(int argc, char **argv);
#endif
