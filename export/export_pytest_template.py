# Below: gmfuzz's fixed template (export/export_pytest_template.py), the same in every exported
# file but for the reproducer's data after the imports (`gmfuzz export pytest` writes it in
# place of the marker line). Integers are Python ints: values past 2^53 are exact. The
# legacy op sequence is python/gmfuzz_legacy.py's text, inserted by the build
# (export/CMakeLists.txt) in place of its own marker line further down.
import importlib
import os
import sys

try:
    import pytest
except ImportError:  # the file also runs as `python3 THIS_FILE.py`
    pytest = None

# @GMFUZZ_DATA@

# ---- the test (gmfuzz's template, the same in every exported file) -------------------------
FUSED_MODULE_ENV = "GMFUZZ_FUSED_MODULE"
FUSED_MODULES = (
    "sglang.kernels.ops.kvcache.trtllm_mha_graph_metadata",
    "sglang.srt.layers.attention.triton_ops.trtllm_mha_graph_metadata",  # older trees
)
Q_MODES = {"draft_extend": 1, "draft_extend_v2": 2}  # Q_MODE_CUMSUM, Q_MODE_STRIDED; else 0
BUFFERS = ("cache_seqlens", "cu_seqlens_k", "cu_seqlens_q", "page_table", "swa_page_table",
           "swa_out_cache_loc")
PAGE_TABLES = ("page_table", "swa_page_table")
LEGACY_RAISES = (IndexError, RuntimeError, ValueError)


class SkipTest(Exception):
    """A test that cannot run here (under pytest: pytest's own skip)."""


def _skip(reason):
    if pytest is not None:
        pytest.skip(reason)
    raise SkipTest(reason)


def _import_torch(need_cuda):
    try:
        import torch
    except ImportError:
        _skip("torch is not installed")
    if need_cuda and not torch.cuda.is_available():
        _skip("no CUDA device")
    return torch


def _shape(name):
    bs = len(SEQ_LENS)
    return {"cache_seqlens": (bs,), "cu_seqlens_k": (bs + 1,), "cu_seqlens_q": (bs + 1,),
            "page_table": (bs, MAX_NUM_PAGES), "swa_page_table": (bs, MAX_NUM_PAGES),
            "swa_out_cache_loc": (OUT_LEN,)}[name]


def make_inputs(torch, device):
    """The case's inputs as tensors (dtypes of sglang's buffers); seq_lens_cpu on the host."""
    def i64(values):
        return None if values is None else torch.tensor(values, dtype=torch.int64, device=device)
    return {
        "req_to_token": torch.tensor(REQ_TO_TOKEN, dtype=torch.int32, device=device),
        "req_pool_indices": i64(REQ_POOL_INDICES),
        "seq_lens": i64(SEQ_LENS),
        "seq_lens_cpu": torch.tensor(SEQ_LENS_CPU, dtype=torch.int64),
        "qlens": None if QLENS is None else torch.tensor(QLENS, dtype=torch.int32, device=device),
        "swa_mapping": i64(SWA_MAPPING),
        "out_cache_loc": i64(OUT_CACHE_LOC),
    }


def make_buffers(torch, device):
    """The output buffers the case has, holding their prior contents (INIT)."""
    buffers = {}
    for name, init in INIT.items():
        dtype = torch.int64 if name == "swa_out_cache_loc" else torch.int32
        if isinstance(init, int):
            buffers[name] = torch.full(_shape(name), init, dtype=dtype, device=device)
        else:
            buffers[name] = torch.tensor(init, dtype=dtype, device=device).reshape(_shape(name))
    return buffers


# @GMFUZZ_LEGACY@


def legacy_kwargs(t, buf):
    """The keyword arguments of legacy_rebuild (docs/TARGETS.md, "The legacy call")."""
    return {
        "mode": MODE, "page_size": PAGE_SIZE, "max_context_len": MAX_CONTEXT_LEN,
        "speculative_step_id": SPECULATIVE_STEP_ID, "num_draft_tokens": NUM_DRAFT_TOKENS,
        "q_stride": Q_STRIDE, "req_to_token": t["req_to_token"],
        "req_pool_indices": t["req_pool_indices"], "seq_lens": t["seq_lens"],
        "seq_lens_cpu": t["seq_lens_cpu"], "qlens": t["qlens"], "swa_mapping": t["swa_mapping"],
        "out_cache_loc": t["out_cache_loc"], "cache_seqlens": buf["cache_seqlens"],
        "cu_seqlens_k": buf["cu_seqlens_k"], "cu_seqlens_q": buf["cu_seqlens_q"],
        "page_table": buf["page_table"], "swa_page_table": buf.get("swa_page_table"),
        "swa_out_cache_loc": buf.get("swa_out_cache_loc"),
    }


def _target_entry_point():
    """The function of the python: target the reproducer was found on (TARGET), from its
    source file when that is still there, else by its module name; None: no such target."""
    if TARGET is None or os.environ.get(FUSED_MODULE_ENV):
        return None
    function = TARGET["function"] or "update_trtllm_mha_graph_metadata"
    path = TARGET["file"]
    if path and os.path.exists(path):
        import importlib.util
        sys.path.insert(0, os.path.dirname(path))
        spec = importlib.util.spec_from_file_location(TARGET["module"] or "gmfuzz_target", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return getattr(module, function)
    return getattr(importlib.import_module(TARGET["module"]), function)


def _fused_entry_point():
    """update_trtllm_mha_graph_metadata from $GMFUZZ_FUSED_MODULE, the recorded TARGET, or
    sglang's module."""
    recorded = _target_entry_point()
    if recorded is not None:
        return recorded
    chosen = os.environ.get(FUSED_MODULE_ENV)
    missing = []
    for name in [chosen] if chosen else FUSED_MODULES:
        try:
            return importlib.import_module(name).update_trtllm_mha_graph_metadata
        except ModuleNotFoundError as e:
            if e.name is None or not name.startswith(e.name):
                raise  # the module is there but something it imports is not
            missing.append(name)
    _skip("no module with update_trtllm_mha_graph_metadata: " + ", ".join(missing) +
          " (set " + FUSED_MODULE_ENV + ")")


def fused_kwargs(t, buf):
    """The keyword arguments of update_trtllm_mha_graph_metadata (gmfuzz SPEC section 6)."""
    q_mode = Q_MODES.get(MODE, 0)
    kwargs = {
        "req_pool_indices": t["req_pool_indices"], "seq_lens": t["seq_lens"],
        "req_to_token": t["req_to_token"], "cache_seqlens": buf["cache_seqlens"],
        "cu_seqlens_k": buf["cu_seqlens_k"], "page_table": buf["page_table"],
        "bs": len(SEQ_LENS), "seqlen_offset": SEQLEN_OFFSET, "max_seq_pages": MAX_SEQ_PAGES,
        "page_size": PAGE_SIZE, "q_stride": Q_STRIDE, "q_mode": q_mode,
    }
    optional = {
        "swa_mapping": t["swa_mapping"], "swa_page_table": buf.get("swa_page_table"),
        "out_cache_loc": t["out_cache_loc"], "swa_out_cache_loc": buf.get("swa_out_cache_loc"),
        "cu_seqlens_q": buf["cu_seqlens_q"] if q_mode in (1, 2) else None,
        "qlens": t["qlens"] if q_mode == 1 else None,
    }
    kwargs.update({key: value for key, value in optional.items() if value is not None})
    return kwargs


def _first_difference(name, got, want, live_columns):
    """Where `got` first differs from `want` ("[i][j]: got .., expected .."), or None.
    Page tables: only the first live_columns[i] columns of row i when given."""
    if name not in PAGE_TABLES:
        got, want = [got], [want]
    if len(got) != len(want):
        return f": {len(got)} rows, expected {len(want)}"
    for i, (got_row, want_row) in enumerate(zip(got, want)):
        n = len(want_row) if live_columns is None or name not in PAGE_TABLES else live_columns[i]
        if len(got_row) != len(want_row):
            return f": {len(got_row)} elements, expected {len(want_row)}"
        for j in range(n):
            if got_row[j] != want_row[j]:
                where = f"[{i}][{j}]" if name in PAGE_TABLES else f"[{j}]"
                return f"{where}: got {got_row[j]}, expected {want_row[j]}"
    return None


def check_buffers(side, buf, want, live_columns):
    """Every buffer equal to what gmfuzz recorded (page tables: the live columns when given)."""
    problems = []
    for name in BUFFERS:
        if (want[name] is None) != (name not in buf):
            problems.append(f"{name}: present on one side only")
        elif want[name] is not None:
            where = _first_difference(name, buf[name].tolist(), want[name], live_columns)
            if where is not None:
                problems.append(name + where)
    assert not problems, side + ": " + "; ".join(problems)


FUSED_INPUTS = ("req_pool_indices", "seq_lens", "req_to_token", "swa_mapping", "out_cache_loc",
                "qlens")


def check_inputs(kwargs, sent):
    """Inputs are read-only (gmfuzz docs/TARGETS.md): every input tensor as it was sent."""
    changed = []
    for name, before in sent.items():
        now = kwargs[name]
        if not now.cpu().equal(before):
            flat_now, flat_before = now.reshape(-1).tolist(), before.reshape(-1).tolist()
            k = next(i for i, (a, b) in enumerate(zip(flat_now, flat_before)) if a != b)
            where = f"[{k // now.shape[1]}][{k % now.shape[1]}]" if now.dim() == 2 else f"[{k}]"
            changed.append(f"{name}{where}: sent {flat_before[k]}, now {flat_now[k]}")
    assert not changed, "fused: the call changed its inputs: " + "; ".join(changed)


def _legacy_device(torch):
    # An index out of range is a device-side assert on CUDA, which poisons the CUDA context for
    # the rest of the process; where gmfuzz recorded one, the ops run on the CPU (PyTorch's
    # integer semantics are the same on both). Without CUDA they run on the CPU too.
    if not torch.cuda.is_available() or (REFERENCE["error"] or "").startswith("index_out_of_range"):
        return "cpu"
    return "cuda"


def test_legacy_sequence():
    """The legacy ATen ops must give what gmfuzz's reference (their emulation in C) recorded."""
    torch = _import_torch(need_cuda=False)
    device = _legacy_device(torch)
    t, buf = make_inputs(torch, device), make_buffers(torch, device)
    if REFERENCE["error"] is None:
        legacy_rebuild(**legacy_kwargs(t, buf))
        check_buffers("legacy", buf, REFERENCE, None)
        return
    try:
        legacy_rebuild(**legacy_kwargs(t, buf))
    except LEGACY_RAISES:
        return  # raised, as gmfuzz recorded: its buffers are not compared
    raise AssertionError("the legacy sequence did not raise; gmfuzz recorded: " + REFERENCE["error"])


def test_fused_kernel():
    """update_trtllm_mha_graph_metadata must leave what gmfuzz recorded for the fused kernel."""
    wrote_input = (FUSED["error"] or "").startswith("target_wrote_input: ")
    if FUSED["error"] is not None and not wrote_input:
        _skip("never run: the fused kernel would touch memory outside its buffers ("
              + FUSED["error"] + "), which corrupts GPU memory")
    device = TARGET["device"] if TARGET is not None and TARGET["device"] else "cuda"
    torch = _import_torch(need_cuda=device == "cuda")
    update = _fused_entry_point()
    t, buf = make_inputs(torch, device), make_buffers(torch, device)
    kwargs = fused_kwargs(t, buf)
    sent = {name: kwargs[name].cpu().clone() for name in FUSED_INPUTS if name in kwargs}
    update(**kwargs)
    if device == "cuda":
        torch.cuda.synchronize()
    check_inputs(kwargs, sent)  # a target gmfuzz found writing them fails here
    check_buffers("fused", buf, FUSED, LIVE_PAGE_COLUMNS)


def main():
    """Runs the tests without pytest; prints one line each, then 'N passed, N failed'."""
    skipped_types = (SkipTest,) + ((pytest.skip.Exception,) if pytest is not None else ())
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for test in (test_legacy_sequence, test_fused_kernel):
        try:
            test()
        except skipped_types as e:
            print(f"SKIP {test.__name__}: {e}")
            counts["skipped"] += 1
        except Exception as e:  # an assertion, or what the ops raised
            print(f"FAIL {test.__name__}: {type(e).__name__}: {e}")
            counts["failed"] += 1
        else:
            print(f"PASS {test.__name__}")
            counts["passed"] += 1
    print("{passed} passed, {failed} failed, {skipped} skipped".format(**counts))
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
