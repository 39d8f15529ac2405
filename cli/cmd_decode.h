/* gmfuzz decode: the bytes an engine saved (a libFuzzer, AFL++ or
 * ClusterFuzzLite crash or corpus file) as the case they decode to, a
 * gmfuzz-case-v1 document (docs/FORMATS.md) that every other command reads. */
#ifndef CMD_DECODE_H
#define CMD_DECODE_H

int cmd_decode_main(int argc, char **argv);

#endif
