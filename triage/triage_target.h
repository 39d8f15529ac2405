/* triage_target: the bucket of an external target's failure (docs/TARGETS.md),
 * private to the triage room. The builtin kernel's buckets say what it got
 * wrong against the reference; a target's say what it got wrong against
 * gmfuzz's fused model (SPEC section 3), which it must match exactly:
 *
 *   target_deviates (it returned other buffers than the model):
 *     "target_deviates:<what>|<where>|<how>"
 *     what   the first buffer that deviates, in buffer order (each page
 *            table by its own name; cu_seqlens_q with its path in the mode)
 *     where  over every deviating element of that buffer, described
 *            relative to the case so that one fault keeps one key whatever
 *            bs the inputs or the minimizer choose: "live" or "tail" (the
 *            page tables: live when any deviating cell is), then "@cols>=512"
 *            (none in the first tile of 512 columns); "slots" or "padding"
 *            (swa_out_cache_loc: slots when any is below num_out_tokens),
 *            then "@locs>=512" (none in the first tile of 512); "head"
 *            (element 0 of a scan) or "live" with the scan's rows
 *            (triage_bucket_scan_rows); "live" (cache_seqlens); "shape"
 *     how    the target's value against the model's, the strongest over
 *            those elements: "other" > "low32" (the low 32 bits of the
 *            model's value) > "off_by_one" > "-1" > "stale" (the old
 *            contents, not zero) > "0_or_unwritten" (0, or the old contents
 *            when they are 0); "=legacy" is added when the deviating
 *            elements hold what the reference (the legacy sequence) wrote,
 *            wherever it wrote something else than the old contents (and
 *            once at least): drifting toward the legacy semantics, not
 *            garbage
 *   target_raised: "target_raised|<exception type>|<file>:<function>", the
 *     innermost frame of the traceback in the target's own file (the
 *     python worker names it, python/gmfuzz_worker.py), "-" when none is
 *   target_crashed: "target_crashed|<how>|-": the signal ("SIGSEGV"), the
 *     exit status ("exit_3"), "device_error" (a sticky CUDA error), else "-"
 *   target_hung: "target_hung|-|-"
 *
 * e.g. "target_deviates:cu_seqlens_k|live@edge1024|other",
 *      "target_deviates:page_table|live|off_by_one=legacy",
 *      "target_raised|IndexError|torch_fused.py:update_trtllm_mha_graph_metadata".
 * Before issue 23 every such key was "<class>|-|-": a baseline that lists
 * one still covers them all (triage_bucket_covers).
 */
#ifndef TRIAGE_TARGET_H
#define TRIAGE_TARGET_H

#include <stddef.h>

#include "gm_case.h"
#include "harness.h"
#include "triage.h"

/* The bucket of a run whose fused side is an external target that failed,
 * of class `k` (one of the four target_* classes). */
void triage_target_bucket(const gm_case *c, const harness_run_result *r, triage_class k,
                          char *out, size_t size);

#endif
