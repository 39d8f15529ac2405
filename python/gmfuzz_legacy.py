# ---- gmfuzz's legacy rebuild (python/gmfuzz_legacy.py) ------------------------------------
# The legacy ATen op sequence of the TRTLLM-MHA metadata rebuild (gmfuzz SPEC section 2), as
# one function over tensors already made. It is the `--reference python:` worker's default
# module (docs/TARGETS.md, "The legacy call"), and export/CMakeLists.txt embeds this very text
# into every exported pytest file, so it imports nothing at module level: torch is imported
# inside the function (a file holding this text still loads where torch is missing).

LEGACY_MODES = ("decode", "draft_decode", "target_verify", "draft_extend", "draft_extend_v2")


def legacy_rebuild(*, mode, page_size, max_context_len, speculative_step_id, num_draft_tokens,
                   q_stride, req_to_token, req_pool_indices, seq_lens, seq_lens_cpu, qlens,
                   swa_mapping, out_cache_loc, cache_seqlens, cu_seqlens_k, cu_seqlens_q,
                   page_table, swa_page_table, swa_out_cache_loc):
    """The legacy ATen op sequence of the rebuild (gmfuzz SPEC section 2), in place.

    Inputs: req_to_token (int32, 2-D), req_pool_indices, seq_lens (int64), seq_lens_cpu (int64,
    on the host), qlens (int32, draft_extend), swa_mapping, out_cache_loc (int64), each None
    when the case has none. Outputs, rewritten in place: cache_seqlens, cu_seqlens_k,
    cu_seqlens_q, page_table (int32), swa_page_table (int32) and swa_out_cache_loc (int64),
    the last two None when the case has no such buffer.

    Raises where PyTorch raises: max() of an empty batch, an index out of range, arange with
    a zero step, a copy_ whose source does not broadcast to its destination."""
    import torch

    if mode not in LEGACY_MODES:
        raise ValueError("unknown mode " + repr(mode))
    seq, page = seq_lens, page_size
    # 1. cache_seqlens = int32(seq_lens + offset) (copy_ keeps the low 32 bits) and the
    #    maximum length M, a Python int: of the host copy, except draft_decode (device copy).
    if mode == "draft_decode":
        offset = speculative_step_id + 1
        max_len = seq.max().item() + offset
    else:
        offset = num_draft_tokens if mode == "target_verify" else 0
        max_len = seq_lens_cpu.max().item() + offset
    cache_seqlens.copy_(seq + offset)
    # 2. cu_seqlens_k[1:] = int32 cumsum, wrapping modulo 2^32; [0] is never written.
    cu_seqlens_k[1:].copy_(torch.cumsum(cache_seqlens, dim=0, dtype=torch.int32))
    # 3. cu_seqlens_q, in the draft-extend modes only. arange(S, bs*S + 1, S): S == 0 raises,
    #    a length other than bs raises in copy_ (length 1 broadcasts); int32 keeps the low bits.
    bs = seq.numel()
    if mode == "draft_extend_v2":
        strided = torch.arange(q_stride, bs * q_stride + 1, q_stride, dtype=torch.int64,
                               device=seq.device)
        cu_seqlens_q[1:].copy_(strided)
    elif mode == "draft_extend":
        cu_seqlens_q[1:].copy_(torch.cumsum(qlens, dim=0, dtype=torch.int32))
    # 4. The columns: arange(0, max_context_len, P)[:msp], msp = (M + P - 1) // P (floor),
    #    Python slice rules. PyTorch clips a slice bound to the platform's index range the
    #    way Python does; clipping here first keeps that explicit for an M past int64.
    msp = (max_len + page - 1) // page
    msp = max(-(2 ** 62), min(msp, 2 ** 62))
    columns = torch.arange(0, max_context_len, page, device=seq.device)[:msp]
    cols = columns.numel()
    # 5. page_indices[i][j] = req_to_token[req_pool_indices[i]][j * P]: a negative row wraps,
    #    a row out of range raises (checked per element read: no columns, no check).
    page_indices = req_to_token[req_pool_indices[:, None], columns[None, :]]
    # 6. page_table[:, :cols] = page_indices // P (floor); later columns keep their contents.
    page_table[:, :cols].copy_(page_indices // page)
    # 7. swa_page_table[:, :cols] = int32(mapping[page_indices]) // P, gathered in full first
    #    (negative slots wrap, slots out of range raise).
    if swa_page_table is not None:
        swa_pages = swa_mapping[page_indices.long()].to(torch.int32)
        swa_page_table[:, :cols].copy_(swa_pages // page)
    # 8. SWA write locations, only with that buffer AND an out_cache_loc: zero buf[n:], then
    #    buf[:n] = int64(int32(mapping[out_cache_loc])) (raises when n > out_len, n != 1).
    if swa_out_cache_loc is not None and out_cache_loc is not None:
        n = out_cache_loc.numel()
        swa_out_cache_loc[n:].zero_()
        swa_out_cache_loc[:n].copy_(swa_mapping[out_cache_loc].to(torch.int32))
# ---- end of python/gmfuzz_legacy.py --------------------------------------------------------
