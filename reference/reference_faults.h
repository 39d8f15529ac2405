/* reference_faults: the catalogue of faults planted in the C reference, the
 * self-test of the three-way differential (issue 27).
 *
 * The C reference is what every verdict rests on; a bug in it makes it
 * AGREE with a kernel that has the same bug, so a two-way campaign cannot
 * see it. Only real PyTorch beside it can (`--reference python:...`, a
 * drift, docs/TARGETS.md "Three-way differential"). A tree configured with
 * -DGMFUZZ_REFERENCE_FAULT=<name> compiles reference.c, and only it, with
 * GMFUZZ_REFERENCE_FAULT_<NAME>; reference.c holds each fault as a marked
 * `#if defined(...)` alternative next to the correct code. The default
 * build has none. The efficacy tests (tests/drift.cmake) link a gmfuzz
 * with each faulty reference and check that a three-way sweep finds it as
 * its own drift bucket (triage_drift.h) and that the vector made from its
 * reproducer fails `replay` on the faulty build only.
 *
 * The two faults land in different buckets on purpose: another buffer,
 * another relation.
 *
 * Each entry is X(name, "what the bug does", "the SPEC behaviour it
 * breaks") and starts on a line of its own with `X(name,`:
 * reference/CMakeLists.txt reads the names from this file to validate
 * GMFUZZ_REFERENCE_FAULT, so keep that form.
 */
#ifndef REFERENCE_FAULTS_H
#define REFERENCE_FAULTS_H

#define REFERENCE_FAULTS(X)                                                                        \
    X(page_ids_truncated,                                                                          \
      "page_table[i][j] = page_indices[i][j] / P with C's truncating division",                    \
      "SPEC 2 step 6: the page id is page_indices // P, a floor (-1 // 64 == -1, not 0)")          \
    X(swa_out_keeps_int64,                                                                         \
      "swa_out_cache_loc keeps mapping[out_cache_loc[t]] as int64, without .to(torch.int32)",      \
      "SPEC 2 step 8: the gathered slot goes through int32 (low 32 bits) before the copy")

#endif
