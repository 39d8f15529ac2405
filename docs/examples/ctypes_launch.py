"""Launch gmfuzz's fused metadata kernel on torch tensors through ctypes.

    python3 ctypes_launch.py path/to/libgmfuzz_kernel.so

The example of docs/KERNEL_ABI.md, checked: it rebuilds the metadata of a
small SWA batch on the current CUDA stream and compares every buffer with
what the kernel's semantics say (docs/SEMANTICS.md). Exits 77 (skipped)
where torch or a GPU is missing.
"""
import ctypes
import sys

try:
    import torch
except ImportError:
    sys.exit(77)
if not torch.cuda.is_available():
    sys.exit(77)

# --- the example -----------------------------------------------------------
PTR, I64 = ctypes.c_void_p, ctypes.c_int64
FIELDS = ("req_pool_indices:P seq_lens:P req_to_token:P req_to_token_rows:I "
          "req_to_token_stride:I swa_mapping:P swa_mapping_len:I out_cache_loc:P n_out:I "
          "qlens:P cache_seqlens:P cu_seqlens_k:P cu_seqlens_q:P page_table:P "
          "page_table_stride:I swa_page_table:P swa_out_cache_loc:P out_len:I bs:I "
          "seqlen_offset:I max_seq_pages:I page_size:I q_stride:I q_mode:Q")

class FusedParams(ctypes.Structure):  # kernel/fused_params.h, field for field
    _fields_ = [(f.split(":")[0], {"P": PTR, "I": I64, "Q": ctypes.c_int}[f[-1]])
                for f in FIELDS.split()]

lib = ctypes.CDLL(sys.argv[1])
lib.gmfuzz_kernel_launch.argtypes = [ctypes.POINTER(FusedParams), PTR]
lib.gmfuzz_kernel_status_string.restype = ctypes.c_char_p

def rebuild(req_pool_indices, seq_lens, req_to_token, page_size, seqlen_offset,
            cache_seqlens, cu_seqlens_k, page_table, swa_mapping=None, swa_page_table=None,
            out_cache_loc=None, swa_out_cache_loc=None):
    ptr = lambda t: None if t is None else t.data_ptr()
    args = FusedParams(
        req_pool_indices=ptr(req_pool_indices), seq_lens=ptr(seq_lens),
        req_to_token=ptr(req_to_token), req_to_token_rows=req_to_token.shape[0],
        req_to_token_stride=req_to_token.shape[1], swa_mapping=ptr(swa_mapping),
        swa_mapping_len=0 if swa_mapping is None else swa_mapping.numel(),
        out_cache_loc=ptr(out_cache_loc), n_out=0 if out_cache_loc is None else out_cache_loc.numel(),
        cache_seqlens=ptr(cache_seqlens), cu_seqlens_k=ptr(cu_seqlens_k),
        page_table=ptr(page_table), page_table_stride=page_table.shape[1],
        swa_page_table=ptr(swa_page_table), swa_out_cache_loc=ptr(swa_out_cache_loc),
        out_len=0 if swa_out_cache_loc is None else swa_out_cache_loc.numel(),
        bs=seq_lens.numel(), seqlen_offset=seqlen_offset, max_seq_pages=page_table.shape[1],
        page_size=page_size)
    status = lib.gmfuzz_kernel_launch(ctypes.byref(args), torch.cuda.current_stream().cuda_stream)
    if status != 0:
        raise RuntimeError(lib.gmfuzz_kernel_status_string(status).decode())
# --- end of the example ----------------------------------------------------

def main():
    dev, bs, page, pages = "cuda", 4, 16, 8
    width = pages * page
    req_to_token = torch.arange(bs * width, dtype=torch.int32, device=dev).view(bs, width)
    req_to_token[1, 0] = -1  # a sentinel slot
    mapping = torch.arange(bs * width + page + 1, dtype=torch.int64, device=dev) * 3
    mapping[-1] = -1
    rows = torch.tensor([2, 1, 0, 0], dtype=torch.int64, device=dev)
    seq = torch.tensor([5, 17, 64, 1], dtype=torch.int64, device=dev)
    loc = torch.tensor([7, -1, 2**20 // 3], dtype=torch.int64, device=dev)
    cache = torch.zeros(bs, dtype=torch.int32, device=dev)
    cu_k = torch.full((bs + 1,), -5, dtype=torch.int32, device=dev)
    table = torch.zeros(bs, pages, dtype=torch.int32, device=dev)
    swa_table = torch.zeros_like(table)
    swa_out = torch.full((5,), 9, dtype=torch.int64, device=dev)
    rebuild(rows, seq, req_to_token, page, 1, cache, cu_k, table, mapping, swa_table,
            loc[:2], swa_out)
    torch.cuda.synchronize()

    lens = (seq + 1).to(torch.int32)
    tokens = req_to_token[rows][:, ::page].to(torch.int64)
    want_table = torch.where(tokens < 0, -((-tokens) // page), tokens // page)
    want_swa = torch.where(tokens < 0, -1, mapping[tokens.clamp(min=0)] // page)
    checks = {
        "cache_seqlens": (cache, lens),
        "cu_seqlens_k": (cu_k[1:], torch.cumsum(lens, 0).to(torch.int32)),
        "cu_seqlens_k[0] untouched": (cu_k[:1], torch.tensor([-5], dtype=torch.int32, device=dev)),
        "page_table": (table, want_table.to(torch.int32)),
        "swa_page_table": (swa_table, want_swa.to(torch.int32)),
        "swa_out_cache_loc": (swa_out, torch.tensor([21, -1, 0, 0, 0], device=dev)),
    }
    failed = [name for name, (got, want) in checks.items() if not torch.equal(got, want)]
    for name in failed:
        print(f"FAIL {name}: got {checks[name][0].tolist()}, want {checks[name][1].tolist()}")
    print(f"{len(checks) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
