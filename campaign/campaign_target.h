/* campaign_target: finds the engine's target binary.
 *
 *   libFuzzer  gmfuzz-libfuzzer-<backend>   (a tree configured with
 *              -DGMFUZZ_FUZZ=ON and clang)
 *   AFL++      gmfuzz-afl-<backend>, or gmfuzz-afl for the CPU (a tree
 *              configured with CC=afl-clang-fast)
 *
 * Looked for, in order: --target; the build tree's fuzz/ folder (compiled
 * in); next to the gmfuzz binary; ../fuzz/ from it (the build layout).
 * When none is there, the error says how to build it.
 */
#ifndef CAMPAIGN_TARGET_H
#define CAMPAIGN_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign_options.h"
#include "gm_error.h"

bool campaign_target_find(const campaign_options *o, char *out, size_t size, gm_error *err);

#endif
