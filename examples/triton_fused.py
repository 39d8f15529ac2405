"""The fused metadata rebuild (gmfuzz SPEC section 3) as one Triton kernel: an example target.

    gmfuzz fuzz --target python:examples/triton_fused.py --target-device cuda ...

`update_trtllm_mha_graph_metadata(**kwargs)` takes sglang's keyword arguments (SPEC section
6), CUDA tensors only, and rewrites the outputs in place with ONE launch on the current
stream. The grid is bs row programs, then 1 scan program, then ceil(out_len / 512) SWA-out
programs:

- row program i: cache_seqlens[i] = int32(seq[i] + seqlen_offset); for every p <
  max_seq_pages (BLOCK_P columns at a time), tok = req_to_token_flat[r*W + p*P] (flat: a read
  past a row's end reads the next row), page_table[i][p] = tok / P truncated, and with an SWA
  page table swa_page_table[i][p] = int32(s < 0 ? -1 : s / P), s = tok >= 0 ? mapping[tok]
  : -1;
- the scan program: cu_seqlens_k[1+k], the wrapping int32 prefix sum of int32(seq[j]) +
  seqlen_offset, over chunks of BLOCK_S rows with a carry (any bs); cu_seqlens_q in q mode 1
  (wrapping prefix sum of qlens) and 2 ((k+1) * q_stride, int32);
- SWA-out program j: t in [512 j, 512 j + 512) below out_len: loc < 0 ? -1 : mapping[loc] in
  full int64 for t < num_out_tokens = min(out_len, n), 0 past it, 0 everywhere without an
  out_cache_loc.

bs == 0 launches nothing. Integer division is written so that it truncates whatever the
compiler's `//` does with negative operands: only non-negative operands are ever divided.
Sums are taken in int64 and truncated to int32 at the store (the low 32 bits are those of
the wrapping int32 sum). Like the real kernel it checks no bounds: gmfuzz never sends a case
on which the fused model reads or writes out of bounds.

Planted faults, for testing gmfuzz: GMFUZZ_TRITON_FAULT=NAME, read at every call (unset or
empty: correct; an unknown name raises ValueError). Each one is a compile-time constant of
the kernel, and none makes the kernel touch memory outside its buffers.
examples/fault_cases/triton_fused-NAME.json is a case on which each one shows.

    scan_restart_1024    the scan drops its carry between chunks of 1024 rows: the sums
                         restart at row 1024 (shows only past bs 1024)
    swa_pad_first_tile   only the first SWA-out program zero-pads its part of the tail;
                         later ones leave the old contents (only past 512 write locations)
    page1_live_columns   with page size 1 a row writes only its live columns,
                         p < cache_seqlens[i], instead of max_seq_pages (page size 1 only)
    sentinel_divided     the SWA page table divides the -1 sentinel (and negative mapping
                         values) by P like any slot instead of writing -1: -1 / P = 0
    floor_div            page_table takes floor division instead of truncation (negative
                         slots that are not multiples of P)
    no_loc_keeps         without an out_cache_loc the SWA-out programs write nothing
                         instead of zeros
    last_page_dropped    rows write max_seq_pages - 1 columns
    swa_int32            SWA write locations are truncated to int32 (past 2^31)
"""
import os

import torch
import triton
import triton.language as tl

Q_MODE_NONE, Q_MODE_CUMSUM, Q_MODE_STRIDED = 0, 1, 2
FAULT_ENV = "GMFUZZ_TRITON_FAULT"
FAULTS = {"": 0, "scan_restart_1024": 1, "swa_pad_first_tile": 2, "page1_live_columns": 3,
          "sentinel_divided": 4, "floor_div": 5, "no_loc_keeps": 6, "last_page_dropped": 7,
          "swa_int32": 8}
BLOCK_P = 128   # page-table columns per step of a row program
BLOCK_S = 1024  # rows per chunk of the scan program
BLOCK_O = 512   # SWA write locations per SWA-out program


@triton.jit
def _div_trunc(x, d):
    """x / d rounded toward zero (x int64, d > 0), dividing non-negative values only."""
    return tl.where(x >= 0, x // d, -((-x) // d))


@triton.jit
def _div_floor(x, d):
    """x / d rounded down (the floor_div fault), dividing non-negative values only."""
    return tl.where(x >= 0, x // d, -((-x + d - 1) // d))


# The integer arguments are not specialized (on == 1 or on divisibility by 16): one compile
# per combination of the constexprs, not one per shape of case.
@triton.jit(do_not_specialize=["bs", "seqlen_offset", "max_seq_pages", "page_size", "req_stride",
                               "table_stride", "num_out_tokens", "out_len", "q_stride"])
def _metadata_kernel(req_pool_indices_ptr, seq_lens_ptr, req_to_token_ptr, cache_seqlens_ptr,
                     cu_seqlens_k_ptr, page_table_ptr, swa_mapping_ptr, swa_page_table_ptr,
                     out_cache_loc_ptr, swa_out_ptr, cu_seqlens_q_ptr, qlens_ptr,
                     bs, seqlen_offset, max_seq_pages, page_size, req_stride, table_stride,
                     num_out_tokens, out_len, q_stride,
                     HAS_SWA_PAGE_TABLE: tl.constexpr, HAS_SWA_OUT: tl.constexpr,
                     HAS_OUT_CACHE_LOC: tl.constexpr, Q_MODE: tl.constexpr,
                     FAULT: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_S: tl.constexpr,
                     BLOCK_O: tl.constexpr):
    pid = tl.program_id(0)
    if pid < bs:
        # ---- row program i ----
        i = pid.to(tl.int64)
        r = tl.load(req_pool_indices_ptr + i).to(tl.int64)
        seq = tl.load(seq_lens_ptr + i).to(tl.int64)
        cache_seqlen = (seq + seqlen_offset).to(tl.int32)
        tl.store(cache_seqlens_ptr + i, cache_seqlen)
        row_start = r * req_stride
        table_row = i * table_stride
        n_cols = max_seq_pages
        if FAULT == 7:
            n_cols = max_seq_pages - 1
        for p0 in range(0, n_cols, BLOCK_P):
            p = p0 + tl.arange(0, BLOCK_P)
            m = p < n_cols
            if FAULT == 3:
                m = m & (p < cache_seqlen)
            tok = tl.load(req_to_token_ptr + (row_start + p.to(tl.int64) * page_size),
                          mask=m, other=0).to(tl.int64)
            if FAULT == 5:
                page = _div_floor(tok, page_size)
            else:
                page = _div_trunc(tok, page_size)
            tl.store(page_table_ptr + (table_row + p), page.to(tl.int32), mask=m)
            if HAS_SWA_PAGE_TABLE:
                s = tl.load(swa_mapping_ptr + tok, mask=m & (tok >= 0), other=-1).to(tl.int64)
                if FAULT == 4:
                    swa_page = _div_trunc(s, page_size)
                else:
                    swa_page = tl.where(s < 0, -1, s // page_size)
                tl.store(swa_page_table_ptr + (table_row + p), swa_page.to(tl.int32), mask=m)
    elif pid == bs:
        # ---- the scan program ----
        carry_k = pid.to(tl.int64) * 0
        carry_q = pid.to(tl.int64) * 0
        for k0 in range(0, bs, BLOCK_S):
            k = k0 + tl.arange(0, BLOCK_S)
            m = k < bs
            seq = tl.load(seq_lens_ptr + k, mask=m, other=0)
            v = seq.to(tl.int32).to(tl.int64) + seqlen_offset
            v = tl.where(m, v, 0)
            sums = tl.cumsum(v, axis=0)
            if FAULT != 1:
                sums = sums + carry_k
            tl.store(cu_seqlens_k_ptr + 1 + k, sums.to(tl.int32), mask=m)
            carry_k = carry_k + tl.sum(v, axis=0)
            if Q_MODE == 1:
                q = tl.load(qlens_ptr + k, mask=m, other=0).to(tl.int64)
                q_sums = tl.cumsum(q, axis=0) + carry_q
                tl.store(cu_seqlens_q_ptr + 1 + k, q_sums.to(tl.int32), mask=m)
                carry_q = carry_q + tl.sum(q, axis=0)
            if Q_MODE == 2:
                strided = (k + 1).to(tl.int64) * q_stride
                tl.store(cu_seqlens_q_ptr + 1 + k, strided.to(tl.int32), mask=m)
    else:
        # ---- SWA-out program ----
        if HAS_SWA_OUT:
            tile = pid - bs - 1
            t = tile.to(tl.int64) * BLOCK_O + tl.arange(0, BLOCK_O)
            m = t < out_len
            if HAS_OUT_CACHE_LOC:
                live = t < num_out_tokens
                loc = tl.load(out_cache_loc_ptr + t, mask=live, other=0).to(tl.int64)
                slot = tl.load(swa_mapping_ptr + loc, mask=live & (loc >= 0),
                               other=-1).to(tl.int64)
                if FAULT == 8:
                    slot = slot.to(tl.int32).to(tl.int64)
                value = tl.where(live, slot, 0)
                if FAULT == 2:
                    m = m & (live | (tile == 0))
                tl.store(swa_out_ptr + t, value, mask=m)
            else:
                if FAULT != 6:
                    tl.store(swa_out_ptr + t, tl.zeros([BLOCK_O], dtype=tl.int64), mask=m)


def _fault(page_size):
    name = os.environ.get(FAULT_ENV, "")
    if name not in FAULTS:
        raise ValueError(FAULT_ENV + "=" + name + ": no such fault ("
                         + ", ".join(n for n in FAULTS if n) + ")")
    code = FAULTS[name]
    return 0 if code == FAULTS["page1_live_columns"] and page_size != 1 else code


def _require_cuda(**tensors):
    for name, tensor in tensors.items():
        if not tensor.is_cuda or not tensor.is_contiguous():
            raise ValueError(name + ": triton_fused needs contiguous CUDA tensors, got "
                             + str(tensor.device))


def update_trtllm_mha_graph_metadata(*, req_pool_indices, seq_lens, req_to_token, cache_seqlens,
                                     cu_seqlens_k, page_table, bs, seqlen_offset, max_seq_pages,
                                     page_size, swa_mapping=None, swa_page_table=None,
                                     out_cache_loc=None, swa_out_cache_loc=None,
                                     cu_seqlens_q=None, qlens=None, q_stride=0,
                                     q_mode=Q_MODE_NONE):
    """Rebuilds the metadata buffers in place with one launch (gmfuzz SPEC section 3)."""
    fault = _fault(page_size)
    if bs == 0:
        return
    _require_cuda(req_pool_indices=req_pool_indices, seq_lens=seq_lens,
                  req_to_token=req_to_token, page_table=page_table)
    has_swa_out = swa_out_cache_loc is not None
    has_loc = has_swa_out and out_cache_loc is not None
    out_len = swa_out_cache_loc.numel() if has_swa_out else 0
    num_out_tokens = min(out_len, out_cache_loc.numel()) if has_loc else 0
    q_mode = q_mode if q_mode in (Q_MODE_CUMSUM, Q_MODE_STRIDED) else Q_MODE_NONE
    # Absent buffers: any tensor of the right dtype stands in; the kernel never touches it.
    i64, i32 = seq_lens, cache_seqlens
    grid = (bs + 1 + (triton.cdiv(out_len, BLOCK_O) if has_swa_out else 0),)
    _metadata_kernel[grid](
        req_pool_indices, seq_lens, req_to_token, cache_seqlens, cu_seqlens_k, page_table,
        swa_mapping if swa_mapping is not None else i64,
        swa_page_table if swa_page_table is not None else i32,
        out_cache_loc if has_loc else i64,
        swa_out_cache_loc if has_swa_out else i64,
        cu_seqlens_q if q_mode != Q_MODE_NONE else i32,
        qlens if q_mode == Q_MODE_CUMSUM else i32,
        bs, seqlen_offset, max_seq_pages, page_size, req_to_token.stride(0), page_table.stride(0),
        num_out_tokens, out_len, q_stride,
        HAS_SWA_PAGE_TABLE=swa_page_table is not None, HAS_SWA_OUT=has_swa_out,
        HAS_OUT_CACHE_LOC=has_loc, Q_MODE=q_mode, FAULT=fault,
        BLOCK_P=BLOCK_P, BLOCK_S=BLOCK_S, BLOCK_O=BLOCK_O)
