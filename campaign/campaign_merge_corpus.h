/* campaign_merge_corpus: the sources' corpora into OUT/corpus.
 *
 * By coverage, with libFuzzer's own `-merge=1`: the differential target
 * the campaigns ran (gmfuzz-libfuzzer-cpu, found as `gmfuzz fuzz` finds
 * it, campaign_target.h, or --engine-binary) reads every source corpus
 * and keeps a subset with all their features (its MERGE-OUTER line says
 * how many). libFuzzer writes the files itself; its output is in
 * OUT/logs/merge.log. The target runs with the merged folder's baseline
 * and keep-going, so that a failing input in a corpus is run, not
 * crashed on; what it saves goes to OUT/artifacts/merge-failures/, never
 * into OUT/failures/.
 *
 * Where no libFuzzer target exists (a tree built without GMFUZZ_FUZZ) or
 * with --union: the union of the corpora, deduplicated by content, each
 * file named by its SHA-256; `note` says why (no target, or --union). */
#ifndef CAMPAIGN_MERGE_CORPUS_H
#define CAMPAIGN_MERGE_CORPUS_H

#include <stdbool.h>

#include "campaign_merge.h"

bool campaign_merge_corpus_run(const campaign_merge_options *o, const campaign_merge_source *src,
                               size_t n, campaign_merge_corpus_result *out, gm_error *err);

#endif
