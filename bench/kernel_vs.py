"""Two fused kernels on the same device tensors: `gmfuzz bench kernel --vs TARGET`.

    python3 bench/kernel_vs.py --ours build/gpu/kernel/libgmfuzz_kernel.so \\
        --vs python:examples/triton_fused.py [--shape I] [--regime R] [--json FILE]

"ours" is gmfuzz's kernel through its C ABI (docs/examples/fused_shim.py); TARGET is a
python:PATH.py[:FUNCTION] entry point with sglang's keyword arguments (SPEC section 6) or
another lib:PATH.so with gmfuzz's C ABI. For each shape (bs, max_seq_pages, page size, SWA)
and data regime (docs/KERNEL_ABI.md, "Against Triton"):

- the outputs of both are checked equal first (a difference ends the run, exit 1);
- warm: `--graph-calls` calls (default 20) captured in one CUDA graph per kernel, replayed
  back to back, GPU time per call from CUDA events: the best of 5 rounds, the two kernels
  taking turns (the clocks are not locked: a kernel measured milliseconds after the other
  meets another clock). Many calls a graph shrink the launch gaps between kernels (the
  device notes' method for small launches), so the figure is the kernel's own GPU time;
- warm1: the same with ONE call a graph (a graph launch a call, as a decode step has);
- cold: the same replay timed alone after a 256 MB write has flushed L2, the median, the
  two taking turns;
- host: the CPU time of one eager call (argument marshalling and launch), the mean;
- the launch floor: warm and cold replay of a graph of one 1-element kernel, and the
  dependent-load floor: the same for one thread making the small shapes' chain of three
  dependent loads (pool row, token, mapping slot) and a store (printed first; Triton);
- floor: the bytes and distinct 32-byte sectors the semantics must move (reads of the
  inputs they depend on, writes of every output), and the DRAM time of those sectors at
  the device's bandwidth (--bandwidth, default the H200's 4.8 TB/s).

Regimes: small (tokens < 2^20 and an 8 MB mapping: L2-resident), pool (a KV pool as large as
all rows, every req_to_token column a random slot of it, the mapping as long: DRAM-bound),
fresh (as pool, zeros past each row's live pages). seq_lens uniform in [1, width - 8] tokens,
seqlen_offset 1, out_cache_loc of bs slots, as the upstream decode step has.
"""
import argparse
import ctypes
import importlib.util
import json
import os
import sys
import time

try:
    import torch
except ImportError:
    sys.exit(77)

SHAPES = [  # (bs, max_seq_pages, page_size, swa)
    (1, 16, 64, False), (8, 128, 64, True), (64, 128, 64, True), (256, 1024, 64, True),
    (256, 1024, 128, False), (1024, 64, 16, True), (1024, 1024, 64, True),
    (4096, 256, 16, True), (65536, 16, 16, True), (8, 16384, 16, True),
]
REGIMES = ("small", "pool", "fresh")
FLUSH_BYTES = 256 << 20
HERE = os.path.dirname(os.path.abspath(__file__))


def load_file(path, name):
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:  # its own imports (examples/specializing_common.py)
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lib_entry(path):
    """sglang's entry point on a library with gmfuzz's C ABI (a fused_shim of its own)."""
    shim = load_file(os.path.join(HERE, "..", "docs", "examples", "fused_shim.py"),
                     "fused_shim_" + str(abs(hash(path))))
    lib = ctypes.CDLL(os.path.abspath(path))
    lib.gmfuzz_kernel_launch.argtypes = [ctypes.POINTER(shim.FusedParams), ctypes.c_void_p]
    lib.gmfuzz_kernel_status_string.restype = ctypes.c_char_p
    if lib.gmfuzz_kernel_abi_version() != shim.ABI_VERSION:
        raise SystemExit("kernel_vs: %s has ABI %d, not %d" % (
            path, lib.gmfuzz_kernel_abi_version(), shim.ABI_VERSION))
    shim.kernel_library = lambda: lib
    return shim.update_trtllm_mha_graph_metadata


def target_entry(spec):
    """The entry point a target names: python:PATH[:FUNCTION] or lib:PATH."""
    kind, _, rest = spec.partition(":")
    if kind == "lib":
        return lib_entry(rest)
    if kind == "python":
        path, _, function = rest.partition(":")
        module = load_file(path, "vs_target")
        return getattr(module, function or "update_trtllm_mha_graph_metadata")
    raise SystemExit("kernel_vs: --vs takes python:PATH[:FUNCTION] or lib:PATH, not " + spec)


def make_inputs(shape, regime, seed):
    """The inputs of one decode step of `shape` in `regime`, on the GPU."""
    bs, pages, page, swa = shape
    g = torch.Generator(device="cpu").manual_seed(seed)
    width = pages * page  # req_to_token columns: token slots of a row
    rows = bs
    seq = torch.randint(1, max(2, width - 8), (bs,), generator=g, dtype=torch.int64)
    pool = (1 << 20) if regime == "small" else rows * width
    tokens = torch.randint(0, pool, (rows, width), generator=g, dtype=torch.int32)
    if regime == "fresh":
        live = (seq + 1 + page - 1) // page * page  # the live pages of each row, in tokens
        tokens[torch.arange(width)[None, :] >= live[:, None]] = 0
    inputs = dict(
        req_pool_indices=torch.randperm(rows, generator=g)[:bs].to(torch.int64),
        seq_lens=seq, req_to_token=tokens, bs=bs, seqlen_offset=1, max_seq_pages=pages,
        page_size=page)
    if swa:
        inputs["swa_mapping"] = torch.randint(0, pool, (pool,), generator=g, dtype=torch.int64)
        inputs["out_cache_loc"] = torch.randint(0, pool, (bs,), generator=g, dtype=torch.int64)
    return {k: v.cuda() if torch.is_tensor(v) else v for k, v in inputs.items()}


def make_outputs(shape):
    bs, pages, _page, swa = shape
    i32 = dict(dtype=torch.int32, device="cuda")
    out = dict(cache_seqlens=torch.full((bs,), 7, **i32),
               cu_seqlens_k=torch.full((bs + 1,), 7, **i32),
               page_table=torch.full((bs, pages), 7, **i32))
    if swa:
        out["swa_page_table"] = torch.full((bs, pages), 7, **i32)
        out["swa_out_cache_loc"] = torch.full((bs,), 7, dtype=torch.int64, device="cuda")
    out["cu_seqlens_k"][0] = 0
    return out


def floor_of(shape, inputs):
    """(bytes, sectors) the semantics must move: every input element they read (the pages
    of every row up to max_seq_pages, each token's mapping slot), every output written."""
    bs, pages, page, swa = shape
    sector = lambda addresses: int(torch.unique(addresses // 32).numel())
    rows = inputs["req_pool_indices"]
    width = inputs["req_to_token"].shape[1]
    flat = rows[:, None] * width + torch.arange(pages, device="cuda")[None, :] * page
    tok = inputs["req_to_token"].view(-1)[flat].to(torch.int64)
    read = [(bs * 8 * 2, 2 * ((bs * 8 + 31) // 32)), (tok.numel() * 4, sector(flat * 4))]
    written = bs * 4 + bs * 4 + bs * pages * 4
    if swa:
        slots = tok[tok >= 0]
        locs = inputs["out_cache_loc"]
        read.append((slots.numel() * 8, sector(slots * 8)))
        read.append((locs.numel() * 8 * 2, (locs.numel() * 8 + 31) // 32
                     + sector(locs[locs >= 0] * 8)))
        written += bs * pages * 4 + bs * 8
    nbytes = sum(b for b, _ in read) + written
    sectors = sum(s for _, s in read) + (written + 31) // 32
    return nbytes, sectors


def capture(fn, kwargs, calls=1):
    """A CUDA graph of `calls` calls of fn (the same tensors: each call rebuilds the same
    outputs), and the number of calls in it."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        fn(**kwargs)  # compiles (Triton) and warms up outside the capture
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            fn(**kwargs)
    graph.calls = calls
    return graph


def replay_us(graph, replays):
    """GPU us per call over `replays` back-to-back replays."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(replays):
        graph.replay()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3 / replays / getattr(graph, "calls", 1)


def warm_us(graphs, replays, rounds=5):
    """Per graph, the best of `rounds` means, the graphs taking turns: the GPU's clock
    changes over milliseconds (not locked here), so one graph measured after the other
    would be compared at another clock."""
    for graph in graphs:
        replay_us(graph, replays)  # warm-up: clocks up, caches filled
    best = [float("inf")] * len(graphs)
    for _ in range(rounds):
        for k, graph in enumerate(graphs):
            best[k] = min(best[k], replay_us(graph, replays // rounds or 1))
    return best


def cold_us(graphs, flush, times):
    """Per graph, the median of `times` replays each timed alone after L2 is flushed by a
    write of the flush buffer, the graphs taking turns."""
    samples = [[] for _ in graphs]
    for _ in range(times):
        for k, graph in enumerate(graphs):
            flush.add_(1)
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            graph.replay()
            end.record()
            end.synchronize()
            samples[k].append(start.elapsed_time(end) * 1e3)
    return [sorted(s)[len(s) // 2] for s in samples]


def heat(flush, seconds):
    """Keeps the GPU busy for `seconds` first: an idle GPU's clocks take that long to come
    up, and the small shapes' warm replays (3 us) would be measured at whatever clock the
    first ones met."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(20):
            flush.add_(1)
        torch.cuda.synchronize()


def launch_floor(flush, args):
    """Warm and cold replay of a graph of ONE 1-element kernel: what any kernel costs here
    before it does anything (launch, scheduling, completion), the floor under the small
    shapes."""
    one = torch.zeros(1, dtype=torch.int32, device="cuda")
    graph = capture(lambda: one.add_(1), {})
    return warm_us([graph], args.replays)[0], cold_us([graph], flush, args.cold)[0]


def chain_floor(flush, args):
    """Warm and cold replay of a graph of one single-thread kernel that makes the small
    shapes' chain of dependent loads and nothing else: a pool row, a token of that row, the
    token's mapping slot, one store (Triton; None where it is not installed)."""
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None

    @triton.jit
    def chase(rows_ptr, tokens_ptr, mapping_ptr, out_ptr):
        r = tl.load(rows_ptr)
        tok = tl.load(tokens_ptr + r * 64)
        tl.store(out_ptr, tl.load(mapping_ptr + tok))

    n = 1 << 20
    rows = torch.randint(0, n // 64, (1,), dtype=torch.int64, device="cuda")
    tokens = torch.randint(0, n, (n,), dtype=torch.int32, device="cuda")
    mapping = torch.randint(0, n, (n,), dtype=torch.int64, device="cuda")
    out = torch.zeros(1, dtype=torch.int64, device="cuda")
    graph = capture(lambda: chase[(1,)](rows, tokens, mapping, out, num_warps=1), {})
    return warm_us([graph], args.replays)[0], cold_us([graph], flush, args.cold)[0]


def host_us(fn, kwargs, calls):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn(**kwargs)
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) * 1e6 / calls


def check_equal(outputs, shape, regime):
    """Ends the run (exit 1) where the two kernels' outputs differ, naming the first cell."""
    names = list(outputs)
    for key, ours in outputs[names[0]].items():
        theirs = outputs[names[1]][key]
        if not torch.equal(ours, theirs):
            bad = (ours != theirs).nonzero()[0].tolist()
            raise SystemExit("kernel_vs: %s differs at %s for %s, %s: %s %s, %s %s" % (
                key, bad, shape, regime, names[0], ours[tuple(bad)].item(), names[1],
                theirs[tuple(bad)].item()))


def measure(shape, regime, kernels, flush, args, seed):
    inputs = make_inputs(shape, regime, seed)
    outputs = {}
    for name, fn in kernels.items():
        outputs[name] = make_outputs(shape)
        fn(**inputs, **outputs[name])
    torch.cuda.synchronize()
    check_equal(outputs, shape, regime)
    row = dict(bs=shape[0], max_seq_pages=shape[1], page_size=shape[2], swa=shape[3],
               regime=regime)
    graphs = [capture(fn, dict(inputs, **outputs[name])) for name, fn in kernels.items()]
    many = [capture(fn, dict(inputs, **outputs[name]), args.graph_calls)
            for name, fn in kernels.items()]
    warm = warm_us(many, max(args.replays // args.graph_calls, 5))
    warm1 = warm_us(graphs, args.replays)
    cold = cold_us(graphs, flush, args.cold)
    for k, (name, fn) in enumerate(kernels.items()):
        row[name + "_warm_us"], row[name + "_cold_us"] = warm[k], cold[k]
        row[name + "_warm1_us"] = warm1[k]
        row[name + "_host_us"] = host_us(fn, dict(inputs, **outputs[name]), args.calls)
    del graphs, many
    nbytes, sectors = floor_of(shape, inputs)
    row["bytes"], row["sectors"] = nbytes, sectors
    row["floor_us"] = sectors * 32 / args.bandwidth * 1e6
    return row


def eager(shape, regime, kernels, calls, seed):
    """For a profiler (`ncu --kernel-name regex:...`): the outputs checked equal, then `calls`
    eager calls of each kernel taking turns, each synchronized: 1 + calls launches of each,
    in that order, per shape and regime."""
    inputs = make_inputs(shape, regime, seed)
    outputs = {name: make_outputs(shape) for name in kernels}
    for _ in range(calls + 1):
        for name, fn in kernels.items():
            fn(**inputs, **outputs[name])
            torch.cuda.synchronize()
    check_equal(outputs, shape, regime)


def header(names):
    a, b = names
    return "%-22s %-6s %8s %8s %6s %8s %8s %6s %8s %8s %6s %7s %7s %8s %6s" % (
        "(bs,pages,P,swa)", "data", a + " w", b + " w", "ratio", a + " w1", b + " w1", "ratio",
        a + " c", b + " c", "ratio", a + " h", b + " h", "floor", a + "/fl")


def line(r, names):
    a, b = names
    shape = "(%d,%d,%d,%s)" % (r["bs"], r["max_seq_pages"], r["page_size"],
                               "yes" if r["swa"] else "no")
    return "%-22s %-6s %8.2f %8.2f %6.2f %8.2f %8.2f %6.2f %8.2f %8.2f %6.2f %7.1f %7.1f %8.2f %6.1f" % (
        shape, r["regime"], r[a + "_warm_us"], r[b + "_warm_us"],
        r[a + "_warm_us"] / r[b + "_warm_us"], r[a + "_warm1_us"], r[b + "_warm1_us"],
        r[a + "_warm1_us"] / r[b + "_warm1_us"], r[a + "_cold_us"], r[b + "_cold_us"],
        r[a + "_cold_us"] / r[b + "_cold_us"], r[a + "_host_us"], r[b + "_host_us"],
        r["floor_us"], r[a + "_warm_us"] / r["floor_us"])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ours", required=True, help="libgmfuzz_kernel.so")
    p.add_argument("--vs", required=True, help="python:PATH[:FUNCTION] or lib:PATH")
    p.add_argument("--shape", type=int, action="append", help="shape index (repeatable)")
    p.add_argument("--regime", choices=REGIMES, action="append")
    p.add_argument("--json", help="also write the rows as gmfuzz-bench-kernel-vs-v1")
    p.add_argument("--replays", type=int, default=1000)
    p.add_argument("--eager", type=int, default=0,
                   help="only N eager calls of each a shape, for a profiler (see eager())")
    p.add_argument("--graph-calls", type=int, default=20, help="calls a graph, warm")
    p.add_argument("--cold", type=int, default=50)
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--bandwidth", type=float, default=4.8e12, help="DRAM bytes/s")
    p.add_argument("--heat", type=float, default=2.0, help="seconds of GPU load first")
    args = p.parse_args()
    if not torch.cuda.is_available():
        print("kernel_vs: no CUDA device", file=sys.stderr)
        return 77
    kernels = {"gmfuzz": lib_entry(args.ours), "vs": target_entry(args.vs)}
    flush = torch.zeros(FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")
    rows = []
    print("gmfuzz bench kernel on %s: gmfuzz vs %s; w: warm us a call (graphs of many calls), "
          "w1: warm replay us (one call a graph), c: cold (L2 flushed), "
          "h: host us per call, floor: DRAM us of the sectors at %.1f TB/s" % (
              torch.cuda.get_device_name(), args.vs, args.bandwidth / 1e12))
    if args.eager:
        for i in args.shape if args.shape else range(len(SHAPES)):
            for k, regime in enumerate(args.regime or REGIMES):
                eager(SHAPES[i], regime, kernels, args.eager, seed=i * 3 + k + 1)
        return 0
    heat(flush, args.heat)
    floor_warm, floor_cold = launch_floor(flush, args)
    print("launch floor (a graph of one 1-element kernel): warm %.2f us, cold %.2f us"
          % (floor_warm, floor_cold))
    chain = chain_floor(flush, args)
    if chain is not None:
        print("dependent-load floor (one thread: pool row, token, mapping slot, store): "
              "warm %.2f us, cold %.2f us" % chain)
    print(header(list(kernels)))
    for i in args.shape if args.shape else range(len(SHAPES)):
        for k, regime in enumerate(args.regime or REGIMES):
            rows.append(measure(SHAPES[i], regime, kernels, flush, args, seed=i * 3 + k + 1))
            print(line(rows[-1], list(kernels)), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(format="gmfuzz-bench-kernel-vs-v1", vs=args.vs,
                           device=torch.cuda.get_device_name(), bandwidth=args.bandwidth,
                           launch_floor_warm_us=floor_warm, launch_floor_cold_us=floor_cold,
                           chain_floor_us=chain,
                           rows=rows), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
