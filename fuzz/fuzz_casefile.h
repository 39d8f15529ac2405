/* fuzz_casefile: what a command given a case file reads. A JSON document
 * (docs/FORMATS.md) is read as such; anything else is the raw input of a
 * fuzzing engine (a libFuzzer, AFL++ or ClusterFuzzLite crash or corpus
 * file) and becomes the case it decodes to (fuzz/fuzz_decode.h: every byte
 * string decodes). Told apart by content: a document starts, after
 * whitespace, with '{'; the fuzzer's inputs that happen to do so are read
 * as JSON (gmfuzz decode takes any bytes as an input). */
#ifndef FUZZ_CASEFILE_H
#define FUZZ_CASEFILE_H

#include <stddef.h>
#include <stdint.h>

#include "gm_error.h"
#include "gm_json.h"

/* The whole file (malloc'd, < 1 GiB); NULL with err set when unreadable. */
uint8_t *fuzz_casefile_slurp(const char *path, size_t *size, gm_error *err);

/* A document, or an engine's input as a case document (doc->kind CASE, its
 * name "decoded from PATH"). */
bool fuzz_casefile_read(const char *path, const gm_limits *lim, gm_doc *doc, gm_error *err);

#endif
