/* fuzz_reader_file: the readers that take a path get the input through a
 * file of this process's own (in $TMPDIR, removed at exit). */
#ifndef FUZZ_READER_FILE_H
#define FUZZ_READER_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Writes data[0..size) to the file and returns its path; aborts when it
 * cannot (the harness, not the code under test, has failed). */
const char *fuzz_reader_file_put(const uint8_t *data, size_t size);

#endif
