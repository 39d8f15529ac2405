"""sglang's fused entry point on gmfuzz's own kernel, for exported pytest files.

    GMFUZZ_KERNEL_LIBRARY=build/release/kernel/libgmfuzz_kernel.so \\
    GMFUZZ_FUSED_MODULE=fused_shim PYTHONPATH=docs/examples python3 test_x.py

A file written by `gmfuzz export pytest` imports `update_trtllm_mha_graph_metadata`
from the module named by GMFUZZ_FUSED_MODULE (sglang's by default). This module
provides it with sglang's keyword arguments (gmfuzz SPEC section 6) and runs
gmfuzz's fused kernel through its C ABI (docs/KERNEL_ABI.md), so that exported
tests run end to end on a GPU machine without sglang. GMFUZZ_KERNEL_LIBRARY is
the path of libgmfuzz_kernel.so (default: found by the dynamic loader).
"""
import ctypes
import functools
import os

import torch

Q_MODE_NONE, Q_MODE_CUMSUM, Q_MODE_STRIDED = 0, 1, 2
ABI_VERSION = 1

PTR, I64 = ctypes.c_void_p, ctypes.c_int64
FIELDS = ("req_pool_indices:P seq_lens:P req_to_token:P req_to_token_rows:I "
          "req_to_token_stride:I swa_mapping:P swa_mapping_len:I out_cache_loc:P n_out:I "
          "qlens:P cache_seqlens:P cu_seqlens_k:P cu_seqlens_q:P page_table:P "
          "page_table_stride:I swa_page_table:P swa_out_cache_loc:P out_len:I bs:I "
          "seqlen_offset:I max_seq_pages:I page_size:I q_stride:I q_mode:Q")


class FusedParams(ctypes.Structure):  # kernel/fused_params.h, field for field
    _fields_ = [(f.split(":")[0], {"P": PTR, "I": I64, "Q": ctypes.c_int}[f[-1]])
                for f in FIELDS.split()]


@functools.lru_cache(maxsize=None)
def kernel_library():
    """libgmfuzz_kernel.so, loaded once, its ABI version checked."""
    lib = ctypes.CDLL(os.environ.get("GMFUZZ_KERNEL_LIBRARY", "libgmfuzz_kernel.so"))
    lib.gmfuzz_kernel_launch.argtypes = [ctypes.POINTER(FusedParams), PTR]
    lib.gmfuzz_kernel_status_string.restype = ctypes.c_char_p
    if lib.gmfuzz_kernel_abi_version() != ABI_VERSION:
        raise RuntimeError(f"libgmfuzz_kernel ABI {lib.gmfuzz_kernel_abi_version()}, "
                           f"this shim speaks {ABI_VERSION}")
    return lib


def _pointer(name, tensor, dtype):
    """The device address of a contiguous CUDA tensor of `dtype` (None for None)."""
    if tensor is None:
        return None
    if tensor.dtype != dtype or not tensor.is_cuda or not tensor.is_contiguous():
        raise TypeError(f"{name}: a contiguous CUDA {dtype} tensor is needed, "
                        f"got {tensor.dtype} on {tensor.device}")
    return tensor.data_ptr()


def _numel(tensor):
    return 0 if tensor is None else tensor.numel()


def update_trtllm_mha_graph_metadata(*, req_pool_indices, seq_lens, req_to_token, cache_seqlens,
                                     cu_seqlens_k, page_table, bs, seqlen_offset, max_seq_pages,
                                     page_size, swa_mapping=None, swa_page_table=None,
                                     out_cache_loc=None, swa_out_cache_loc=None,
                                     cu_seqlens_q=None, qlens=None, q_stride=0,
                                     q_mode=Q_MODE_NONE):
    """Rebuilds the metadata buffers in place with one launch on the current stream."""
    i32, i64 = torch.int32, torch.int64
    args = FusedParams(
        req_pool_indices=_pointer("req_pool_indices", req_pool_indices, i64),
        seq_lens=_pointer("seq_lens", seq_lens, i64),
        req_to_token=_pointer("req_to_token", req_to_token, i32),
        req_to_token_rows=req_to_token.shape[0], req_to_token_stride=req_to_token.shape[1],
        swa_mapping=_pointer("swa_mapping", swa_mapping, i64), swa_mapping_len=_numel(swa_mapping),
        out_cache_loc=_pointer("out_cache_loc", out_cache_loc, i64), n_out=_numel(out_cache_loc),
        qlens=_pointer("qlens", qlens, i32),
        cache_seqlens=_pointer("cache_seqlens", cache_seqlens, i32),
        cu_seqlens_k=_pointer("cu_seqlens_k", cu_seqlens_k, i32),
        cu_seqlens_q=_pointer("cu_seqlens_q", cu_seqlens_q, i32),
        page_table=_pointer("page_table", page_table, i32), page_table_stride=page_table.shape[1],
        swa_page_table=_pointer("swa_page_table", swa_page_table, i32),
        swa_out_cache_loc=_pointer("swa_out_cache_loc", swa_out_cache_loc, i64),
        out_len=_numel(swa_out_cache_loc), bs=bs, seqlen_offset=seqlen_offset,
        max_seq_pages=max_seq_pages, page_size=page_size, q_stride=q_stride, q_mode=q_mode)
    lib = kernel_library()
    status = lib.gmfuzz_kernel_launch(ctypes.byref(args), torch.cuda.current_stream().cuda_stream)
    if status != 0:
        raise RuntimeError("gmfuzz_kernel_launch: " + lib.gmfuzz_kernel_status_string(status).decode())
