/* triage_drift: the bucket of a three-way run's reference_drift (the C
 * reference and real PyTorch disagree, --reference python:...), private to
 * the triage room. What is wrong is the C reference, what it is held to is
 * torch's legacy sequence, so the key says where and how the C reference
 * left PyTorch, in the vocabulary of triage_target.h:
 *
 *   "reference_drift:<what>|<where>|<how>"
 *     what   the first buffer that differs, in buffer order (each page
 *            table by its own name; cu_seqlens_q with its path in the
 *            mode); "raise" when one side raised and the other did not;
 *            "torch" when the torch worker crashed or hung
 *     where  over every differing element of that buffer, relative to the
 *            case: "live" or "tail" (page tables, live when any differing
 *            cell is read by attention, by torch's cache_seqlens), then
 *            "@cols>=512"; "slots" or "padding" (swa_out_cache_loc), then
 *            "@locs>=512"; "head" or "live@..." with the scan's rows
 *            (cu_seqlens_k, cu_seqlens_q: triage_bucket_scan_rows);
 *            "live" (cache_seqlens); for a raise "c_only@stepN" (the C
 *            reference raised at SPEC step N) or "torch_only"; "-"
 *     how    the C reference's value against torch's, the strongest over
 *            those elements: "other" > "int32_wrap" (one side holds the
 *            low 32 bits of the other's value, which is past int32) >
 *            "off_by_one" > "floor_vs_trunc" (page tables: they differ by
 *            one where the lower one is negative, a floor against a
 *            truncation toward zero) > "stale" (one side kept the old
 *            contents); "raises_one_side" for a raise; "crashed" or "hung"
 *
 * e.g. "reference_drift:page_table|live|floor_vs_trunc",
 *      "reference_drift:swa_out_cache_loc|slots|int32_wrap",
 *      "reference_drift:raise|c_only@step8|raises_one_side".
 * A run that kept no torch outputs (a reproducer written before issue 27)
 * keeps the old key "reference_drift|-|-", which covers every new one
 * (triage_bucket_covers).
 */
#ifndef TRIAGE_DRIFT_H
#define TRIAGE_DRIFT_H

#include <stddef.h>

#include "gm_case.h"
#include "harness.h"

/* The bucket of a run whose verdict is reference_drift. */
void triage_drift_bucket(const gm_case *c, const harness_run_result *r, char *out, size_t size);

#endif
