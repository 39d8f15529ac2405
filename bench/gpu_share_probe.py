"""How several processes share one GPU, and what one Triton call costs (the figures that
decide the target hub's design, docs/TARGETS.md).

    python3 bench/gpu_share_probe.py procs [SECONDS]   launch+sync loops in 1, 4, 16 processes
    python3 bench/gpu_share_probe.py triton [SECONDS]  examples/triton_fused.py in-process

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


def triton(seconds):
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
    import triton_fused as tf
    for bs, pages in ((4, 4), (256, 64), (4096, 16)):
        page = 16
        dev = "cuda"
        kw = dict(
            req_pool_indices=torch.arange(bs, device=dev, dtype=torch.int64),
            seq_lens=torch.full((bs,), pages * page, device=dev, dtype=torch.int64),
            req_to_token=torch.arange(bs * pages * page, device=dev, dtype=torch.int32).view(bs, -1),
            cache_seqlens=torch.zeros(bs, device=dev, dtype=torch.int32),
            cu_seqlens_k=torch.zeros(bs + 1, device=dev, dtype=torch.int32),
            page_table=torch.zeros(bs, pages, device=dev, dtype=torch.int32),
            bs=bs, seqlen_offset=0, max_seq_pages=pages, page_size=page)
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


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "procs"
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    {"procs": procs, "triton": triton}[what](seconds)
