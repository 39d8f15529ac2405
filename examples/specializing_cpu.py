"""The CPU stand-in of examples/triton_specializing.py: the same kernel semantics, the same
planted faults and the same JIT behaviour, in vectorized torch on the CPU, so that CI (no
GPU) can test what gmfuzz does with a target that specializes and compiles the way Triton
kernels do.

    gmfuzz fuzz --target python:examples/specializing_cpu.py --target-device cpu ...

`update_trtllm_mha_graph_metadata(**kwargs)` takes sglang's keyword arguments (SPEC section
6) and rewrites the outputs in place as gmfuzz SPEC section 3 says, with the Triton kernel's
tile structure where it matters: a fault at 512 page-table columns or at the second block of
512 SWA write locations shows exactly where it does on the GPU. No Python loop over rows.

The simulated JIT. Every call computes the Triton kernel's specialization key
(specializing_common.specialization_key: the constexprs, BS_BLOCK = next_power_of_2(bs) and
the page size among them, and each integer argument's 1 / divisible-by-16 / i32-or-i64
class). The first call of a key in a process pays for it, then the key is free:

- a LOAD when the on-disk cache holds the key: it sleeps GMFUZZ_STANDIN_LOAD_S seconds
  (default 0.03);
- a COMPILE when it does not: it sleeps GMFUZZ_STANDIN_COMPILE_S + GMFUZZ_STANDIN_WIDE_S *
  BS_BLOCK / 65536 seconds (defaults 0.3 and 20: a 65536-row scan block takes about 20 s),
  then writes the key's entry (a temporary file renamed into place, so that a process never
  sees half of one). The real kernel's first calls, Triton 3.6 on an H200: 0.07 to 1.9 s
  (median 0.14) for the 253 keys of the vectors and fault cases, 1.2 s for BS_BLOCK 8192,
  35 s for BS_BLOCK 65536;
- GMFUZZ_STANDIN_BUSY=1 spins the CPU instead of sleeping, until the thread has used that
  much CPU time (a real compile burns a core: on a loaded machine its wall time is longer);
- the cache: $TRITON_CACHE_DIR/gmfuzz-standin/ (else ~/.triton/cache/gmfuzz-standin/), one
  file per key, named by the key's sha256 (hex), holding the key's text.

Each compile and each load is announced to gmfuzz's worker through python/gmfuzz_jit.py
(started(key) before, finished(key, loaded=hit) after), so that the worker can tell a
compile from a hung call. All three costs set to 0 make the stand-in as fast as plain torch.

Planted faults: GMFUZZ_SPEC_FAULT=NAME, exactly those of examples/triton_specializing.py
(its docstring says each); examples/fault_cases/specializing_cpu-NAME.json is a case on
which each one shows. Where the GPU kernel reads through a dropped guard (loc_sentinel_eq:
mapping[loc] for loc <= -2; tok_guard_dropped: mapping[tok] for tok < 0) it reads memory
before the mapping: whatever lies there, or an illegal address far enough before it. The
stand-in models that memory (_read_unguarded), not torch's negative indexing, which would
wrap to the mapping's own tail and so read values the correct kernel reads too.
"""
import hashlib
import os
import tempfile
import time

import torch

import specializing_common as common

try:
    import gmfuzz_jit  # python/, on sys.path inside gmfuzz's worker
except ImportError:
    gmfuzz_jit = None

Q_MODE_NONE, Q_MODE_CUMSUM, Q_MODE_STRIDED = (common.Q_MODE_NONE, common.Q_MODE_CUMSUM,
                                              common.Q_MODE_STRIDED)
FAULT_ENV = common.FAULT_ENV
MASK32 = 0xFFFFFFFF
FULL_SCAN_ROWS = 65536  # the BS_BLOCK whose compile costs GMFUZZ_STANDIN_WIDE_S

_ready = set()  # the keys this process has compiled or loaded


# ---- the simulated JIT ---------------------------------------------------------------------

def cache_dir():
    root = os.environ.get("TRITON_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".triton", "cache")
    return os.path.join(root, "gmfuzz-standin")


def cache_path(key):
    return os.path.join(cache_dir(), hashlib.sha256(key.encode("utf-8")).hexdigest())


def _seconds(name, default):
    text = os.environ.get(name, "")
    return float(text) if text else default


def _spend(seconds):
    """Takes `seconds` as a real compile would: asleep, or with GMFUZZ_STANDIN_BUSY=1 busy
    for `seconds` of this thread's CPU time (not of the clock: a compile costs CPU work)."""
    if seconds <= 0:
        return
    if os.environ.get("GMFUZZ_STANDIN_BUSY") == "1":
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass
    else:
        time.sleep(seconds)


def _write_entry(path, key):
    """The key's cache entry, written whole or not at all (another process may be reading)."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(key + "\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _compiled(launch):
    """Pays for the launch's kernel the first time this process needs it."""
    key = launch.key
    if key in _ready:
        return
    path = cache_path(key)
    hit = os.path.exists(path)
    if gmfuzz_jit is not None:
        gmfuzz_jit.started(key)
    try:
        if hit:
            _spend(_seconds("GMFUZZ_STANDIN_LOAD_S", 0.03))
        else:
            wide = launch.constexprs["BS_BLOCK"] / FULL_SCAN_ROWS
            _spend(_seconds("GMFUZZ_STANDIN_COMPILE_S", 0.3)
                   + _seconds("GMFUZZ_STANDIN_WIDE_S", 20.0) * wide)
            _write_entry(path, key)
    finally:
        # The worker must hear that the compile is over, however it ended.
        if gmfuzz_jit is not None:
            gmfuzz_jit.finished(key, loaded=hit)
    _ready.add(key)


# ---- the kernel's semantics ------------------------------------------------------------------

def _int32(x):
    """int64 -> int32 keeping the low 32 bits."""
    return x.to(torch.int32)


def _cache_seqlens(fault, seq32, cache_seqlens, bs, seqlen_offset):
    """int32(seq[i] + seqlen_offset) of every row, taken in int64 from int32(seq[i]) and the
    offset's low 32 bits (no int64 sum can overflow, the low 32 bits are the same): also
    what the scan sums."""
    v = seq32.to(torch.int64) + (seqlen_offset & MASK32)
    cache_seqlens[:bs] = seq32 if fault == common.F_BS1_NO_OFFSET else _int32(v)
    return v


BEFORE_MAPPING = 1 << 20  # elements of readable memory before a mapping
BEFORE_MAPPING_BASE = 0x2B000000  # what lies there: mapping[-k] reads BASE + k * 997


def _read_unguarded(mapping, index):
    """mapping[index] as the GPU reads it without a guard: index >= 0 reads the mapping, -k
    reads the memory k elements before it, which holds BEFORE_MAPPING_BASE + k * 997 (never
    a value a mapping of this size holds), and an index below -BEFORE_MAPPING is an illegal
    address."""
    index = index.to(torch.int64)
    if index.numel() > 0 and int(index.min()) < -BEFORE_MAPPING:
        raise IndexError(f"an illegal address: mapping[{int(index.min())}], more than "
                         f"{BEFORE_MAPPING} elements before the mapping")
    before = BEFORE_MAPPING_BASE - index * 997
    return torch.where(index >= 0, mapping[index.clamp(min=0)].to(torch.int64), before)


def _rows(fault, rows, req_to_token, page_table, swa_mapping, swa_page_table, bs,
          max_seq_pages, P):
    """The row programs' page_table and swa_page_table columns."""
    columns = max(0, max_seq_pages)
    if fault == common.F_PAGE_COLS_PAST_512:
        columns = min(columns, common.BLOCK_P)  # only the first block of columns
    if columns == 0:
        return
    # tok = req_to_token_flat[r*W + p*P]: flat, a read past a row's end reads the next row.
    flat = rows[:, None] * req_to_token.stride(0) + torch.arange(0, columns * P, P)[None, :]
    tok = req_to_token.reshape(-1)[flat]
    mode = "floor" if fault == common.F_FLOOR_DIV else "trunc"
    page_table[:bs, :columns] = torch.div(tok, P, rounding_mode=mode)
    if swa_page_table is None:
        return
    tok = tok.to(torch.int64)  # an index tensor
    if fault == common.F_TOK_GUARD_DROPPED:
        s = _read_unguarded(swa_mapping, tok)  # negative tok reads before the mapping
    else:
        s = swa_mapping[tok.clamp(min=0)].masked_fill_(tok < 0, -1)
    v = torch.div(s.clamp(min=0), P, rounding_mode="floor").masked_fill_(s < 0, -1)
    swa_page_table[:bs, :columns] = v  # int32(v): the copy keeps the low 32 bits


def _scan(fault, v, cu_seqlens_k, cu_seqlens_q, qlens, bs, q_stride, q_mode):
    """The scan program: cu_seqlens_k (v: int32(seq[j]) + seqlen_offset, int64) and, in q
    modes 1 and 2, cu_seqlens_q."""
    sums = torch.cumsum(v, dim=0)
    restart = common.SCAN_RESTART_ROW
    if fault == common.F_SCAN_PAST_1000 and bs > restart:
        sums[restart:] -= sums[restart - 1].clone()
    cu_seqlens_k[1:bs + 1] = sums  # int64 -> int32: the low 32 bits
    if q_mode == Q_MODE_CUMSUM:
        cu_seqlens_q[1:bs + 1] = torch.cumsum(qlens[:bs].to(torch.int64), dim=0)
    elif q_mode == Q_MODE_STRIDED:
        cu_seqlens_q[1:bs + 1] = torch.arange(1, bs + 1) * (q_stride & MASK32)


def _swa_out(fault, swa_mapping, out_cache_loc, swa_out_cache_loc, num_out_tokens):
    """The SWA-out programs: swa_out_cache_loc, 512 locations a program."""
    if out_cache_loc is None:
        swa_out_cache_loc.zero_()
        return
    n, out_len = num_out_tokens, swa_out_cache_loc.numel()
    loc = out_cache_loc[:n]
    if fault == common.F_LOC_SENTINEL_EQ:
        sentinel = loc == -1
        mapped = _read_unguarded(swa_mapping, loc.masked_fill(sentinel, 0))  # loc <= -2: before it
    else:
        sentinel = loc < 0
        mapped = swa_mapping[loc.clamp(min=0)]
    swa_out_cache_loc[:n] = mapped.masked_fill_(sentinel, -1)
    pad_end = out_len
    if fault == common.F_SWA_OUT_TILE_PAD:
        pad_end = min(out_len, common.BLOCK_O)  # only the first program pads
    if pad_end > n:
        swa_out_cache_loc[n:pad_end] = 0


def update_trtllm_mha_graph_metadata(*, req_pool_indices, seq_lens, req_to_token, cache_seqlens,
                                     cu_seqlens_k, page_table, bs, seqlen_offset, max_seq_pages,
                                     page_size, swa_mapping=None, swa_page_table=None,
                                     out_cache_loc=None, swa_out_cache_loc=None,
                                     cu_seqlens_q=None, qlens=None, q_stride=0,
                                     q_mode=Q_MODE_NONE):
    """Rebuilds the metadata buffers in place (gmfuzz SPEC section 3), after paying for the
    kernel's compile or load the first time its specialization key is met."""
    fault = common.fault_code(bs)
    if bs == 0:
        return
    launch = common.plan(bs=bs, seqlen_offset=seqlen_offset, max_seq_pages=max_seq_pages,
                         page_size=page_size, req_to_token=req_to_token, page_table=page_table,
                         swa_page_table=swa_page_table, out_cache_loc=out_cache_loc,
                         swa_out_cache_loc=swa_out_cache_loc, q_mode=q_mode, q_stride=q_stride,
                         fault=fault)
    _compiled(launch)
    c = launch.constexprs
    v = _cache_seqlens(fault, _int32(seq_lens[:bs]), cache_seqlens, bs, seqlen_offset)
    _rows(fault, req_pool_indices[:bs], req_to_token, page_table, swa_mapping,
          swa_page_table if c["HAS_SWA_PAGE_TABLE"] else None, bs, max_seq_pages, page_size)
    _scan(fault, v, cu_seqlens_k, cu_seqlens_q, qlens, bs, q_stride, c["Q_MODE"])
    if c["HAS_SWA_OUT"]:
        _swa_out(fault, swa_mapping, out_cache_loc if c["HAS_OUT_CACHE_LOC"] else None,
                 swa_out_cache_loc, launch.ints["num_out_tokens"])
