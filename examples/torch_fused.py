"""The fused metadata rebuild (gmfuzz SPEC section 3) in plain torch: an example target.

    gmfuzz fuzz --target python:examples/torch_fused.py --target-device cpu ...

`update_trtllm_mha_graph_metadata(**kwargs)` takes sglang's keyword arguments (SPEC section
6) and rewrites the output tensors in place, on whatever device they are on (CPU or CUDA),
vectorized: no Python loop over rows. It follows section 3 to the letter: truncating
division, flat addressing (`req_to_token_flat[r*W + p*P]`, a read past a row's end reads the
next row), `tok >= 0 ? mapping[tok] : -1`, int32 wrap of `s / P` and of `seq + offset`, a
wrapping int32 scan of `int32(seq[j]) + seqlen_offset`, q modes 1 and 2, a zero-padded SWA
tail with `loc < 0 ? -1 : mapping[loc]` in full int64, `num_out_tokens = min(out_len, n)`,
the whole swa_out_cache_loc zeroed without an out_cache_loc, nothing at all when bs == 0, and
max_seq_pages page-table columns written. Like the real kernel it checks no bounds: gmfuzz
never sends a case on which the fused model reads or writes out of bounds.

Planted faults, for testing gmfuzz: GMFUZZ_TORCH_FAULT=NAME (or NAME+NAME...: several at
once), read at every call (unset or empty: correct; an unknown name raises ValueError).
examples/fault_cases/torch_fused-NAME.json is a case on which each one shows.

    scan_restart_1024    the cu_seqlens_k scan restarts at row 1024 (it runs in chunks of
                         1024 rows and drops the carry): shows only past bs 1024
    swa_pad_first_tile   the zero-padded SWA tail is written in the first 512-location tile
                         only; later tiles keep their old contents: shows only past 512
                         write locations (with a buffer that held something)
    page1_live_columns   a page-size-1 "fast path" writes only the live columns
                         (p < cache_seqlens[i]) instead of max_seq_pages: page size 1 only
    sentinel_eq_minus1   the SWA page table tests `tok == -1` instead of `tok < 0`, so a
                         slot below -1 reads mapping[tok] (torch wraps the index)
    floor_div            page_table takes floor division (tok // P) instead of truncation:
                         shows for negative slots that are not multiples of P
    no_loc_keeps         without an out_cache_loc, swa_out_cache_loc is left as it was
                         instead of zeroed
    last_page_dropped    the last of the max_seq_pages columns is not written
    row_stride_pages     the flat row address uses max_num_pages * P (the page table's
                         width times the page size) instead of req_to_token's row width W
    swa_int32            SWA write locations are truncated to int32 (legacy's cast, which
                         the fused kernel does not do): shows with mapping values past 2^31
    q_last_row_plus_one  in q mode 1 (cumsum), the last row of cu_seqlens_q is one too high
                         (its store past the scan's end adds the carry-in again): one row
                         breaks, the last, whatever bs is (gmfuzz's buckets must say so once)

Input-write faults (gmfuzz's target_wrote_input): the outputs are right, then an input
tensor is changed, as a kernel that updates its inputs in place (or writes past an output
into them) does; on every call with rows:

    writes_seq_lens      seq_lens[0] has its lowest bit flipped
    writes_req_to_token  req_to_token[0][0] has its lowest bit flipped

Crash-survival faults (gmfuzz's target_raised / target_crashed / target_hung), each only on
a batch of exactly 3 rows:

    raise                raises ValueError
    segfault             the process kills itself with SIGSEGV
    hang                 sleeps an hour
"""
import os
import signal
import time

import torch

Q_MODE_NONE, Q_MODE_CUMSUM, Q_MODE_STRIDED = 0, 1, 2
FAULT_ENV = "GMFUZZ_TORCH_FAULT"
FAULTS = ("scan_restart_1024", "swa_pad_first_tile", "page1_live_columns", "sentinel_eq_minus1",
          "floor_div", "no_loc_keeps", "last_page_dropped", "row_stride_pages", "swa_int32",
          "q_last_row_plus_one", "writes_seq_lens", "writes_req_to_token", "raise", "segfault",
          "hang")
SWA_TILE = 512  # locations per SWA-out program in the one-launch kernel
SCAN_CHUNK = 1024
MASK32 = 0xFFFFFFFF


def _fault():
    """The planted faults of this call: a set of names (several joined by '+')."""
    names = set(n for n in os.environ.get(FAULT_ENV, "").split("+") if n)
    for name in names:
        if name not in FAULTS:
            raise ValueError(FAULT_ENV + "=" + name + ": no such fault (" + ", ".join(FAULTS)
                             + ")")
    return names


def _int32(x):
    """int64 tensor -> int32, keeping the low 32 bits (ATen's cast does: SPEC section 2)."""
    return x.to(torch.int32)


def _wrapping_scan(values, restart_at=None):
    """Inclusive prefix sums of an int64 tensor of int32-range values, as wrapping int32."""
    sums = torch.cumsum(values, dim=0)
    if restart_at is not None and values.numel() > restart_at:
        # the fault: each chunk of `restart_at` rows starts again from zero
        chunk = torch.arange(values.numel(), device=values.device) // restart_at
        ends = torch.cat([sums.new_zeros(1), sums[restart_at - 1::restart_at]])
        sums = sums - ends[chunk]
    return _int32(sums)


def update_trtllm_mha_graph_metadata(*, req_pool_indices, seq_lens, req_to_token, cache_seqlens,
                                     cu_seqlens_k, page_table, bs, seqlen_offset, max_seq_pages,
                                     page_size, swa_mapping=None, swa_page_table=None,
                                     out_cache_loc=None, swa_out_cache_loc=None,
                                     cu_seqlens_q=None, qlens=None, q_stride=0,
                                     q_mode=Q_MODE_NONE):
    """Rebuilds the metadata buffers in place (gmfuzz SPEC section 3)."""
    fault = _fault()
    if bs == 0:
        return
    _rebuild(fault, req_pool_indices, seq_lens, req_to_token, cache_seqlens, cu_seqlens_k,
             page_table, bs, seqlen_offset, max_seq_pages, page_size, swa_mapping,
             swa_page_table, out_cache_loc, swa_out_cache_loc, cu_seqlens_q, qlens, q_stride,
             q_mode)
    if "writes_seq_lens" in fault:
        seq_lens[0] ^= 1
    if "writes_req_to_token" in fault and req_to_token.numel() > 0:
        req_to_token[0, 0] ^= 1


def _rebuild(fault, req_pool_indices, seq_lens, req_to_token, cache_seqlens, cu_seqlens_k,
             page_table, bs, seqlen_offset, max_seq_pages, page_size, swa_mapping,
             swa_page_table, out_cache_loc, swa_out_cache_loc, cu_seqlens_q, qlens, q_stride,
             q_mode):
    if bs == 3 and fault & {"raise", "segfault", "hang"}:
        if "raise" in fault:
            raise ValueError("planted fault: a batch of 3 rows")
        if "segfault" in fault:
            os.kill(os.getpid(), signal.SIGSEGV)
        time.sleep(3600)
    P = page_size
    device = page_table.device
    rows = req_pool_indices[:bs].to(torch.int64)
    seq = seq_lens[:bs].to(torch.int64)

    # Row programs: cache_seqlens[i] = int32(seq[i] + seqlen_offset). Both operands are taken
    # modulo 2^32 first, so that no int64 sum can overflow.
    offset32 = seqlen_offset & MASK32
    per_row = _int32(torch.bitwise_and(seq, MASK32) + offset32)
    cache_seqlens[:bs] = per_row

    # Every page p < max_seq_pages: tok = req_to_token_flat[r*W + p*P], flat addressing.
    columns = max(0, max_seq_pages)
    if "last_page_dropped" in fault:
        columns = max(0, columns - 1)
    width = req_to_token.shape[1]
    if "row_stride_pages" in fault:
        width = page_table.shape[1] * P
    p = torch.arange(columns, device=device, dtype=torch.int64)
    flat_index = rows[:, None] * width + p[None, :] * P
    tok = req_to_token.reshape(-1)[flat_index].to(torch.int64)  # [bs, columns]
    if "floor_div" in fault:
        pages = torch.div(tok, P, rounding_mode="floor")
    else:
        pages = torch.div(tok, P, rounding_mode="trunc")
    written = None
    if "page1_live_columns" in fault and P == 1:
        written = p[None, :] < per_row.to(torch.int64)[:, None]  # only the live columns
    _store(page_table, bs, columns, pages.to(torch.int32), written)  # in range: |tok / P| <= |tok|
    if swa_page_table is not None:
        if "sentinel_eq_minus1" in fault:
            negative = tok == -1
            s = swa_mapping[torch.where(negative, torch.zeros_like(tok), tok)]
        else:
            negative = tok < 0
            s = swa_mapping[tok.clamp(min=0)]
        s = s.masked_fill(negative, -1)  # s = tok >= 0 ? mapping[tok] : -1
        v = torch.div(s, P, rounding_mode="trunc").masked_fill_(s < 0, -1)
        _store(swa_page_table, bs, columns, _int32(v), written)

    # The scan program: cu_seqlens_k[1+k] = wrapping int32 sum of int32(seq[j]) + offset.
    restart = SCAN_CHUNK if "scan_restart_1024" in fault else None
    cu_seqlens_k[1:bs + 1] = _wrapping_scan(per_row.to(torch.int64), restart)
    if q_mode == Q_MODE_CUMSUM:
        cu_seqlens_q[1:bs + 1] = _wrapping_scan(qlens[:bs].to(torch.int64))
        if "q_last_row_plus_one" in fault:
            cu_seqlens_q[bs] += 1  # int32 in place: wraps at 2^31 as the store would
    elif q_mode == Q_MODE_STRIDED:
        k1 = torch.arange(1, bs + 1, device=device, dtype=torch.int64)
        cu_seqlens_q[1:bs + 1] = _int32(k1 * (q_stride & MASK32))

    # SWA-out programs, ceil(out_len / 512) of them, one location per t < out_len.
    if swa_out_cache_loc is None:
        return
    out_len = swa_out_cache_loc.numel()
    if out_cache_loc is None:
        if "no_loc_keeps" not in fault:
            swa_out_cache_loc.zero_()
        return
    n = min(out_len, out_cache_loc.numel())
    loc = out_cache_loc[:n].to(torch.int64)
    mapped = swa_mapping[loc.clamp(min=0)]
    if "swa_int32" in fault:
        mapped = _int32(mapped).to(torch.int64)
    swa_out_cache_loc[:n] = mapped.masked_fill_(loc < 0, -1)
    tail_end = min(out_len, SWA_TILE) if "swa_pad_first_tile" in fault else out_len
    if tail_end > n:
        swa_out_cache_loc[n:tail_end] = 0


def _store(table, bs, columns, values, written):
    """table[:bs, :columns] = values, or only where `written` holds."""
    if columns == 0:
        return
    if written is None:
        table[:bs, :columns] = values
    else:
        table[:bs, :columns] = torch.where(written, values, table[:bs, :columns])
