"""How several processes share one GPU, and what one Triton call costs (the figures that
decide the target hub's design, docs/TARGETS.md).

    python3 bench/gpu_share_probe.py procs [SECONDS]   launch+sync loops in 1, 4, 16 processes
    python3 bench/gpu_share_probe.py triton [SECONDS]  examples/triton_fused.py in-process
    python3 bench/gpu_share_probe.py graphs [SHAPES]   what a CUDA graph of that entry point
                                                       costs per fresh shape (worker_graphs.py)

`procs`: each process launches one tiny kernel and synchronizes, in a loop; the total rate
over processes is how many round trips the GPU serves when every process has its own CUDA
context. `triton`: the example's entry point called on prepared CUDA tensors, one at a time
with a synchronize each, and 64 back to back with one synchronize.
"""
import multiprocessing as mp
import os
import sys
import time


def _loop(seconds, queue, batch):
    import torch
    x = torch.zeros(16, device="cuda")
    torch.cuda.synchronize()
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(batch):
            x.add_(1)
        torch.cuda.synchronize()
        n += batch
    queue.put(n / (time.perf_counter() - start))


def procs(seconds):
    ctx = mp.get_context("spawn")
    for batch in (1, 16):
        for count in (1, 4, 16):
            q = ctx.Queue()
            ps = [ctx.Process(target=_loop, args=(seconds, q, batch)) for _ in range(count)]
            for p in ps:
                p.start()
            rates = [q.get() for _ in ps]
            for p in ps:
                p.join()
            print("procs %2d, %2d launches per sync: %9.0f launches/s in total (%.0f each)"
                  % (count, batch, sum(rates), sum(rates) / count))


def _tensors(torch, bs, pages, page=16):
    dev = "cuda"
    return dict(
        req_pool_indices=torch.arange(bs, device=dev, dtype=torch.int64),
        seq_lens=torch.full((bs,), pages * page, device=dev, dtype=torch.int64),
        req_to_token=torch.arange(bs * pages * page, device=dev, dtype=torch.int32).view(bs, -1),
        cache_seqlens=torch.zeros(bs, device=dev, dtype=torch.int32),
        cu_seqlens_k=torch.zeros(bs + 1, device=dev, dtype=torch.int32),
        page_table=torch.zeros(bs, pages, device=dev, dtype=torch.int32),
        bs=bs, seqlen_offset=0, max_seq_pages=pages, page_size=page)


def triton(seconds):
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
    import triton_fused as tf
    for bs, pages in ((4, 4), (256, 64), (4096, 16)):
        kw = _tensors(torch, bs, pages)
        tf.update_trtllm_mha_graph_metadata(**kw)
        torch.cuda.synchronize()
        for batch in (1, 64):
            n, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds:
                for _ in range(batch):
                    tf.update_trtllm_mha_graph_metadata(**kw)
                torch.cuda.synchronize()
                n += batch
            us = (time.perf_counter() - start) / n * 1e6
            print("triton bs %5d pages %3d, %2d calls per sync: %7.1f us per call" % (bs, pages, batch, us))


def graphs(shapes):
    """Per fresh shape (bs and pages new each time, as a sweep's shape runs are): the first
    call, a plain call, the capture of 1 and of 8 calls (warm-up excluded), one replay with
    its synchronize and replays back to back; medians over SHAPES shapes, microseconds."""
    import statistics
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
    import triton_fused as tf
    f = tf.update_trtllm_mha_graph_metadata
    side = torch.cuda.Stream()
    rows = {k: [] for k in ("first", "plain", "capture1", "capture8", "replay1+sync",
                            "replay8 each", "alloc")}

    def clock():
        torch.cuda.synchronize()
        return time.perf_counter()

    for k in range(int(shapes)):
        bs, pages = 3 + 7 * k, 4 + k % 13
        t0 = clock()
        kw = _tensors(torch, bs, pages)
        t1 = clock()
        f(**kw)
        t2 = clock()
        for _ in range(20):
            f(**kw)
        t3 = clock()
        rows["alloc"].append((t1 - t0) * 1e6)
        rows["first"].append((t2 - t1) * 1e6)
        rows["plain"].append((t3 - t2) / 20 * 1e6)
        for count in (1, 8):
            kws = [_tensors(torch, bs, pages) for _ in range(count)]
            g = torch.cuda.CUDAGraph()
            t0 = clock()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                g.capture_begin()
                for one in kws:
                    f(**one)
                g.capture_end()
            torch.cuda.current_stream().wait_stream(side)
            t1 = clock()
            g.replay()
            t2 = clock()
            for _ in range(20):
                g.replay()
            t3 = clock()
            rows["capture%d" % count].append((t1 - t0) * 1e6)
            if count == 1:
                rows["replay1+sync"].append((t2 - t1) * 1e6)
            else:
                rows["replay8 each"].append((t3 - t2) / 20 * 1e6)
    for name, values in rows.items():
        print("graphs %-13s median %8.1f us  (min %.1f, max %.1f)" % (
            name, statistics.median(values), min(values), max(values)))


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "procs"
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    {"procs": procs, "triton": triton, "graphs": graphs}[what](seconds)
