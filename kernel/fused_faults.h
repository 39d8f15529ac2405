/* fused_faults: the catalogue of planted faults, gmfuzz's self-test.
 *
 * A tree configured with -DGMFUZZ_FAULT=<name> compiles the fused kernel
 * with exactly ONE of these realistic fusion bugs: CMake defines
 * GMFUZZ_FAULT_<NAME> (upper case) for the kernel targets only, and
 * fused_program.h holds each fault as a marked `#if defined(...)`
 * alternative next to the correct code. The CPU and the CUDA executions
 * both include fused_program.h, so a fault shows on both; faults about the
 * GPU's block structure (a scan carry lost between warps or blocks) are
 * written in the element functions, so the CPU shows them too.
 *
 * The efficacy test (ctest label `efficacy`, bench/detect_faults.sh
 * --buckets) builds the libFuzzer target once per fault and checks that a
 * campaign of a fixed exec budget finds it as 1 to 3 NEW buckets
 * (triage/triage_bucket.h: root causes, not signatures) that corpus/known.json
 * does not know and that the correct kernel does not show.
 *
 * Each entry is X(name, "what the bug does", "the SPEC behaviour it
 * breaks") and starts on a line of its own with `X(name,`:
 * kernel/CMakeLists.txt reads the names from this file to validate
 * GMFUZZ_FAULT, so keep that form.
 *
 * The four from absent_out_pad_minus_one to negative_swa_mapping_divided
 * write a wrong value only where an accepted class's cause
 * is present (issue 10): a classifier that attributes a class by its cause
 * alone cannot see them; one that checks both values against the class's
 * predicted ones (triage/triage_predict.c) must.
 *
 * The last four (issue 23) need values the sweep's generator once never
 * drew: a guard that tests == -1 where < 0 is meant (on the SWA page
 * table's token and on swa_out_cache_loc's location), a running sum of
 * seq_lens past int32, a row whose seq_len + seqlen_offset is negative.
 * The efficacy_sweep tests check that a default sweep finds every fault
 * here, as the fuzzer does (both draw from core/gm_space.h).
 *
 * Deliberately absent: truncating swa_out_cache_loc to int32. The legacy
 * path truncates too (SPEC section 4, swa_int32_truncation), so that bug
 * makes the fused side AGREE with the reference: a differential oracle
 * against legacy cannot see it, and no fuzzer of this design can.
 */
#ifndef FUSED_FAULTS_H
#define FUSED_FAULTS_H

#define FUSED_FAULTS(X)                                                                            \
    X(scan_exclusive,                                                                              \
      "cu_seqlens_k[1+k] gets the sum of rows 0..k-1: an exclusive scan",                          \
      "SPEC 3 scan: cu_seqlens_k[1+k] is the inclusive sum over j <= k")                           \
    X(scan_first_warp_only,                                                                        \
      "the scan carry is dropped between warps: the sum restarts every 32 rows",                   \
      "SPEC 3 scan: the prefix sum runs over all bs rows (breaks from row 32)")                    \
    X(scan_first_block_only,                                                                       \
      "the scan carry is dropped between 256-row chunks: the sum restarts at row 256",             \
      "SPEC 3 scan: the prefix sum runs over all bs rows (breaks from row 256)")                   \
    X(scan_no_seqlen_offset,                                                                       \
      "the scan sums int32(seq_lens[j]) without the mode's seqlen_offset",                         \
      "SPEC 3 scan: each term is int32(seq[j]) + seqlen_offset (draft_decode, target_verify)")     \
    X(cache_seqlens_no_offset,                                                                     \
      "the row program writes int32(seq_lens[i]) without seqlen_offset",                           \
      "SPEC 3 row program: cache_seqlens[i] = int32(seq[i] + seqlen_offset)")                      \
    X(strided_q_off_by_one,                                                                        \
      "draft_extend_v2 writes cu_seqlens_q[1+k] = k * q_stride",                                   \
      "SPEC 3 scan: cu_seqlens_q[1+k] = int32((k+1) * q_stride)")                                  \
    X(page_loop_drops_partial_chunk,                                                               \
      "pages go in chunks of 8 and the chunk count truncates: the last partial chunk is never "    \
      "written",                                                                                   \
      "SPEC 3 row program: every page p < max_seq_pages is written")                               \
    X(req_to_token_wrong_stride,                                                                   \
      "req_to_token is addressed with the page table's row width instead of its own",              \
      "SPEC 3 row program: tok = req_to_token_flat[r*W + p*P]")                                    \
    X(tok_guard_dropped,                                                                           \
      "the SWA page table looks up mapping[tok] without the tok >= 0 guard",                       \
      "SPEC 3 row program: a negative tok gives -1 without a lookup (else mapping[-1] is read "    \
      "out of bounds)")                                                                            \
    X(swa_out_no_zero_pad,                                                                         \
      "slots past num_out_tokens are left as they were instead of zeroed",                         \
      "SPEC 3 SWA-out: swa_out_cache_loc[t] = 0 for t >= num_out_tokens (the zero-padded tail)")   \
    X(swa_out_ignores_num_out_tokens,                                                              \
      "every slot t < out_len is translated, reading out_cache_loc past its n entries",            \
      "SPEC 3 SWA-out: only t < num_out_tokens = min(out_len, n) reads out_cache_loc")             \
    X(swa_page_table_wrong_width,                                                                  \
      "the SWA page table is written through a row one cell wider than its own",                   \
      "SPEC 3 row program: swa_page_table[i][p] has the page table's shape, rows of "              \
      "max_num_pages (a wider row writes the wrong cells, and past the buffer's end)")             \
    X(loc_guard_dropped,                                                                           \
      "the SWA-out program looks up mapping[loc] without the loc < 0 guard",                       \
      "SPEC 3 SWA-out: a negative loc gives -1 without a lookup (else mapping[-1] is read out "    \
      "of bounds)")                                                                               \
    X(absent_out_pad_minus_one,                                                                    \
      "with no out_cache_loc the SWA-out programs fill the buffer with the -1 sentinel, "          \
      "not zeros",                                                                                 \
      "SPEC 3 SWA-out: with no out_cache_loc the whole buffer becomes zeros "                      \
      "(hides under out_cache_loc_absent)")                                                        \
    X(negative_tok_page_dropped,                                                                   \
      "a page whose token is negative and not a multiple of P is not written to page_table",       \
      "SPEC 3 row program: page_table[i][p] = tok / P for every p < max_seq_pages "                \
      "(hides under negative_token_rounding)")                                                     \
    X(negative_q_stride_shifted,                                                                   \
      "for a negative q_stride, draft_extend_v2 writes cu_seqlens_q[1+k] = k * q_stride",          \
      "SPEC 3 scan: cu_seqlens_q[1+k] = int32((k+1) * q_stride) (hides under negative_q_stride)")  \
    X(negative_swa_mapping_divided,                                                                \
      "the SWA page table tests the slot with == -1, not < 0: a mapping value below -1 is "        \
      "divided",                                                                                   \
      "SPEC 3 row program: swa_page_table = -1 for any negative slot "                             \
      "(hides under negative_swa_mapping)")                                                    \
    X(tok_guard_eq_minus_one,                                                                      \
      "the SWA page table's token guard tests tok == -1, not tok < 0: a slot below -1 is "         \
      "looked up",                                                                                 \
      "SPEC 3 row program: any negative tok gives -1 without a lookup (else mapping[tok] is "      \
      "read out of bounds)")                                                                       \
    X(loc_guard_eq_minus_one,                                                                      \
      "the SWA-out program's guard tests loc == -1, not loc < 0: a location below -1 is "          \
      "looked up",                                                                                 \
      "SPEC 3 SWA-out: any negative loc gives -1 without a lookup (else mapping[loc] is read "     \
      "out of bounds)")                                                                            \
    X(scan_saturates,                                                                              \
      "cu_seqlens_k is clamped to INT32_MAX where the running sum passes it",                      \
      "SPEC 3 scan: the prefix sum wraps int32 (needs a running sum of seq_lens past int32)")      \
    X(cache_seqlens_clamped,                                                                       \
      "a row whose seq_len + seqlen_offset is negative gets cache_seqlens 0",                      \
      "SPEC 3 row program: cache_seqlens[i] = int32(seq[i] + seqlen_offset), negative or not "     \
      "(needs a row with seq_len + seqlen_offset below zero)")

/* The scan faults' segment lengths: a CUDA warp, and the scan program's
 * block (FUSED_CUDA_THREADS rows per chunk). */
#define FUSED_FAULT_WARP_ROWS 32
#define FUSED_FAULT_BLOCK_ROWS 256
/* page_loop_drops_partial_chunk: pages handled per loop step. */
#define FUSED_FAULT_PAGE_CHUNK 8

#endif
