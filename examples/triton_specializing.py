"""The fused metadata rebuild (gmfuzz SPEC section 3) as a Triton author would naturally
write it, with Triton's DEFAULT specialization: an example target that behaves like the
kernels people ship.

    gmfuzz fuzz --target python:examples/triton_specializing.py --target-device cuda ...

Unlike examples/triton_fused.py, no integer argument is exempted from specialization: Triton
compiles one kernel per specialization key (examples/specializing_common.py): the
constexprs, among them BS_BLOCK = next_power_of_2(bs) and the page size itself, and for each
integer argument whether it is 1, whether 16 divides it, and whether it fits in 32 bits. A
campaign therefore meets many compiles, some slow (a wide scan block), as a server does.

`update_trtllm_mha_graph_metadata(**kwargs)` takes sglang's keyword arguments (SPEC section
6), CUDA tensors only, and rewrites the outputs in place with ONE launch on the current
stream. The grid is bs row programs, then 1 scan program, then ceil(out_len / BLOCK_O)
SWA-out programs:

- row program i: cache_seqlens[i] = int32(seq[i] + seqlen_offset); for every p <
  max_seq_pages (BLOCK_P = 512 columns a step), tok = req_to_token_flat[r*W + p*P] (flat: a
  read past a row's end reads the next row), page_table[i][p] = tok / P truncated, and with
  an SWA page table swa_page_table[i][p] = int32(s < 0 ? -1 : s / P), s = tok >= 0 ?
  mapping[tok] : -1;
- the scan program: ONE block of BS_BLOCK lanes, tl.cumsum over all of them:
  cu_seqlens_k[1+k], the prefix sum of int32(seq[j]) + seqlen_offset taken in int64 and
  truncated to int32 at the store (its low 32 bits are the wrapping int32 sum's);
  cu_seqlens_q in q mode 1 (prefix sum of qlens) and 2 ((k+1) * q_stride, int32);
- SWA-out program j: t in [512 j, 512 j + 512) below out_len: loc < 0 ? -1 : mapping[loc] in
  full int64 for t < num_out_tokens = min(out_len, n), 0 past it, 0 everywhere without an
  out_cache_loc.

Checked on an H200 with Triton 3.6: the 250 conformance vectors give the real fused
kernel's buffers, every planted fault below shows on its case, and Triton compiled a new
kernel exactly when specialization_key() was new (253 keys, 253 kernels).

bs == 0 launches nothing. Absent buffers are replaced by a tensor of the right dtype that
the kernel never touches. Integer division is written so that it only ever divides
non-negative values (whatever `//` does with negative operands). Like the real kernel it
checks no bounds: gmfuzz never sends a case on which the fused model reads or writes out of
bounds.

Planted faults, for testing gmfuzz: GMFUZZ_SPEC_FAULT=NAME, read at every call (unset or
empty: correct; an unknown name raises ValueError). Each is a compile-time constant of the
kernel (FAULT), so each is a specialization of its own. None writes outside its buffers;
the two marked (reads) read memory outside the mapping.
examples/fault_cases/specializing_cpu-NAME.json is a case on which each one shows, here and
on the CPU stand-in (examples/specializing_cpu.py, which plants the same faults).

    scan_past_1000       cu_seqlens_k of rows k >= 1000 restarts its sum at row 1000
                         (shows only past bs 1000)
    swa_out_tile_pad     SWA-out programs past the first (tile >= 1) do not zero-pad
                         t >= num_out_tokens (only past 512 write locations, in a buffer
                         that held something other than zeros)
    page_cols_past_512   row programs write only their first block of 512 columns; columns
                         >= 512 keep their old contents (only past 512 page-table columns)
    loc_sentinel_eq      (reads) the SWA-out programs take only loc == -1 as the sentinel,
                         not loc < 0: loc <= -2 reads mapping[loc], memory before the
                         mapping (shows with out_cache_loc values below -1)
    tok_guard_dropped    (reads) the SWA page table's load of mapping[tok] lost its
                         tok >= 0 mask: tok = -1, -2, ... read memory before the mapping,
                         then s < 0 ? -1 : s / P (shows with negative req_to_token slots
                         where that memory is not negative)
    floor_div            page_table takes floor division instead of truncation (negative
                         slots that are not multiples of P)
    bs1_no_offset        the kernel compiled for bs == 1 (Triton makes bs a constant
                         there) leaves seqlen_offset out of cache_seqlens: shows only in
                         draft_decode and target_verify with bs 1
"""
import triton
import triton.language as tl

import specializing_common as common

Q_MODE_NONE, Q_MODE_CUMSUM, Q_MODE_STRIDED = (common.Q_MODE_NONE, common.Q_MODE_CUMSUM,
                                              common.Q_MODE_STRIDED)
FAULT_ENV = common.FAULT_ENV


@triton.jit
def _div_trunc(x, D: tl.constexpr):
    """x / D rounded toward zero (x int64, D > 0): |x| divided, then the sign put back."""
    q = tl.where(x < 0, -x, x) // D
    return tl.where(x < 0, -q, q)


@triton.jit
def _div_floor(x, D: tl.constexpr):
    """x / D rounded down (the floor_div fault): -ceil(|x| / D) for negative x."""
    magnitude = tl.where(x < 0, -x, x)
    return tl.where(x < 0, -((magnitude + (D - 1)) // D), magnitude // D)


@triton.jit
def _row_program(i, req_pool_indices_ptr, seq_lens_ptr, req_to_token_ptr, cache_seqlens_ptr,
                 page_table_ptr, swa_mapping_ptr, swa_page_table_ptr,
                 seqlen_offset, max_seq_pages, req_stride, table_stride,
                 PAGE_SIZE: tl.constexpr, BLOCK_P: tl.constexpr,
                 HAS_SWA_PAGE_TABLE: tl.constexpr, FAULT: tl.constexpr):
    r = tl.load(req_pool_indices_ptr + i)
    seq = tl.load(seq_lens_ptr + i)
    if FAULT == 7:  # bs1_no_offset: only ever compiled into the bs == 1 kernel
        tl.store(cache_seqlens_ptr + i, seq.to(tl.int32))
    else:
        tl.store(cache_seqlens_ptr + i, (seq + seqlen_offset).to(tl.int32))
    row = r * req_stride
    out_row = i * table_stride
    for p0 in range(0, max_seq_pages, BLOCK_P):
        p = p0 + tl.arange(0, BLOCK_P)
        m = p < max_seq_pages
        if FAULT == 3:  # page_cols_past_512
            m = m & (p < BLOCK_P)
        tok = tl.load(req_to_token_ptr + (row + p.to(tl.int64) * PAGE_SIZE),
                      mask=m, other=0).to(tl.int64)
        if FAULT == 6:  # floor_div
            page = _div_floor(tok, PAGE_SIZE)
        else:
            page = _div_trunc(tok, PAGE_SIZE)
        tl.store(page_table_ptr + (out_row + p), page.to(tl.int32), mask=m)
        if HAS_SWA_PAGE_TABLE:
            if FAULT == 5:  # tok_guard_dropped
                guard = m
            else:
                guard = m & (tok >= 0)
            s = tl.load(swa_mapping_ptr + tok, mask=guard, other=-1)
            swa_page = tl.where(s < 0, -1, tl.where(s < 0, 0, s) // PAGE_SIZE)
            tl.store(swa_page_table_ptr + (out_row + p), swa_page.to(tl.int32), mask=m)


@triton.jit
def _scan_program(seq_lens_ptr, cu_seqlens_k_ptr, cu_seqlens_q_ptr, qlens_ptr,
                  bs, seqlen_offset, q_stride,
                  BS_BLOCK: tl.constexpr, Q_MODE: tl.constexpr, FAULT: tl.constexpr):
    k = tl.arange(0, BS_BLOCK)
    live = k < bs
    seq = tl.load(seq_lens_ptr + k, mask=live, other=0)
    v = tl.where(live, seq.to(tl.int32).to(tl.int64) + seqlen_offset, 0)
    sums = tl.cumsum(v, axis=0)
    if FAULT == 1:  # scan_past_1000 (SCAN_RESTART_ROW): rows from 1000 on start from zero
        head = tl.sum(tl.where(k < 1000, v, 0), axis=0)
        sums = tl.where(k >= 1000, sums - head, sums)
    tl.store(cu_seqlens_k_ptr + 1 + k, sums.to(tl.int32), mask=live)
    if Q_MODE == 1:
        q = tl.load(qlens_ptr + k, mask=live, other=0).to(tl.int64)
        tl.store(cu_seqlens_q_ptr + 1 + k, tl.cumsum(q, axis=0).to(tl.int32), mask=live)
    if Q_MODE == 2:
        strided = (k + 1).to(tl.int64) * q_stride
        tl.store(cu_seqlens_q_ptr + 1 + k, strided.to(tl.int32), mask=live)


@triton.jit
def _swa_out_program(tile, swa_mapping_ptr, out_cache_loc_ptr, swa_out_ptr,
                     num_out_tokens, out_len,
                     BLOCK_O: tl.constexpr, HAS_OUT_CACHE_LOC: tl.constexpr,
                     FAULT: tl.constexpr):
    t = tile.to(tl.int64) * BLOCK_O + tl.arange(0, BLOCK_O)
    inside = t < out_len
    if HAS_OUT_CACHE_LOC:
        live = t < num_out_tokens
        loc = tl.load(out_cache_loc_ptr + t, mask=live, other=0)
        if FAULT == 4:  # loc_sentinel_eq
            mapped = live & (loc != -1)
        else:
            mapped = live & (loc >= 0)
        slot = tl.load(swa_mapping_ptr + loc, mask=mapped, other=-1)
        value = tl.where(live, slot, 0)
        if FAULT == 2:  # swa_out_tile_pad: only the first tile pads
            inside = inside & (live | (tile == 0))
        tl.store(swa_out_ptr + t, value, mask=inside)
    else:
        tl.store(swa_out_ptr + t, tl.zeros([BLOCK_O], dtype=tl.int64), mask=inside)


@triton.jit
def _metadata_kernel(req_pool_indices_ptr, seq_lens_ptr, req_to_token_ptr, cache_seqlens_ptr,
                     cu_seqlens_k_ptr, page_table_ptr, swa_mapping_ptr, swa_page_table_ptr,
                     out_cache_loc_ptr, swa_out_ptr, cu_seqlens_q_ptr, qlens_ptr,
                     bs, seqlen_offset, max_seq_pages, req_stride, table_stride,
                     num_out_tokens, out_len, q_stride,
                     BLOCK_P: tl.constexpr, BLOCK_O: tl.constexpr, BS_BLOCK: tl.constexpr,
                     PAGE_SIZE: tl.constexpr, HAS_SWA_PAGE_TABLE: tl.constexpr,
                     HAS_SWA_OUT: tl.constexpr, HAS_OUT_CACHE_LOC: tl.constexpr,
                     Q_MODE: tl.constexpr, FAULT: tl.constexpr):
    pid = tl.program_id(0)
    if pid < bs:
        _row_program(pid.to(tl.int64), req_pool_indices_ptr, seq_lens_ptr, req_to_token_ptr,
                     cache_seqlens_ptr, page_table_ptr, swa_mapping_ptr, swa_page_table_ptr,
                     seqlen_offset, max_seq_pages, req_stride, table_stride,
                     PAGE_SIZE, BLOCK_P, HAS_SWA_PAGE_TABLE, FAULT)
    elif pid == bs:
        _scan_program(seq_lens_ptr, cu_seqlens_k_ptr, cu_seqlens_q_ptr, qlens_ptr,
                      bs, seqlen_offset, q_stride, BS_BLOCK, Q_MODE, FAULT)
    else:
        if HAS_SWA_OUT:
            _swa_out_program(pid - bs - 1, swa_mapping_ptr, out_cache_loc_ptr, swa_out_ptr,
                             num_out_tokens, out_len, BLOCK_O, HAS_OUT_CACHE_LOC, FAULT)


def _require_cuda(**tensors):
    for name, tensor in tensors.items():
        if not tensor.is_cuda or not tensor.is_contiguous():
            raise ValueError(name + ": triton_specializing needs contiguous CUDA tensors, got "
                             + str(tensor.device))


def update_trtllm_mha_graph_metadata(*, req_pool_indices, seq_lens, req_to_token, cache_seqlens,
                                     cu_seqlens_k, page_table, bs, seqlen_offset, max_seq_pages,
                                     page_size, swa_mapping=None, swa_page_table=None,
                                     out_cache_loc=None, swa_out_cache_loc=None,
                                     cu_seqlens_q=None, qlens=None, q_stride=0,
                                     q_mode=Q_MODE_NONE):
    """Rebuilds the metadata buffers in place with one launch (gmfuzz SPEC section 3)."""
    fault = common.fault_code(bs)
    if bs == 0:
        return
    _require_cuda(req_pool_indices=req_pool_indices, seq_lens=seq_lens,
                  req_to_token=req_to_token, page_table=page_table)
    launch = common.plan(bs=bs, seqlen_offset=seqlen_offset, max_seq_pages=max_seq_pages,
                         page_size=page_size, req_to_token=req_to_token, page_table=page_table,
                         swa_page_table=swa_page_table, out_cache_loc=out_cache_loc,
                         swa_out_cache_loc=swa_out_cache_loc, q_mode=q_mode, q_stride=q_stride,
                         fault=fault)
    c = launch.constexprs
    # Absent buffers: a tensor of the right dtype stands in; the kernel never touches it.
    i64, i32 = seq_lens, cache_seqlens
    _metadata_kernel[(launch.programs,)](
        req_pool_indices, seq_lens, req_to_token, cache_seqlens, cu_seqlens_k, page_table,
        swa_mapping if swa_mapping is not None else i64,
        swa_page_table if c["HAS_SWA_PAGE_TABLE"] else i32,
        out_cache_loc if c["HAS_OUT_CACHE_LOC"] else i64,
        swa_out_cache_loc if c["HAS_SWA_OUT"] else i64,
        cu_seqlens_q if c["Q_MODE"] != Q_MODE_NONE else i32,
        qlens if c["Q_MODE"] == Q_MODE_CUMSUM else i32,
        *launch.ints.values(), **c)
