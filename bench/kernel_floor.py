"""The floor under a small launch, in Nsight Compute's GPU time (gpu__time_duration):

    ncu --clock-control none --cache-control all|none --metrics gpu__time_duration.sum --csv \\
        --kernel-name regex:'_floor_' python3 bench/kernel_floor.py N > floor.csv
    python3 bench/kernel_floor.py --read floor.csv

kernel_vs.py's floors are event-timed graph replays; the GPU columns of the "Against Triton"
tables are ncu's, which have no floor of their own. Here: Triton kernels of one program (4
warps, as the metadata kernels' programs) that make a chain of 0 to 3 dependent loads and one
store, the chains of the metadata rebuild's small shapes (a pool row, a token of that row,
its mapping slot), and two such programs side by side (the row and the scan program of
bs 1). No kernel that makes such a chain can take less GPU time than its floor: a ratio of
two kernels both at their floor is 1, whatever either does around its chain.

N eager calls of each, synchronized, in a fixed order; --read prints the median of each."""
import csv
import sys

NAMES = ("_floor_store", "_floor_chain1", "_floor_chain2", "_floor_chain3",
         "_floor_chain2_twice")


def run(calls):
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def _floor_store(out_ptr):
        tl.store(out_ptr + tl.arange(0, 16), tl.zeros([16], dtype=tl.int64))

    @triton.jit
    def _floor_chain1(rows_ptr, out_ptr):
        r = tl.load(rows_ptr + tl.arange(0, 16) * 0)
        tl.store(out_ptr + tl.arange(0, 16), r)

    @triton.jit
    def _floor_chain2(rows_ptr, tokens_ptr, out_ptr):
        r = tl.load(rows_ptr)
        tok = tl.load(tokens_ptr + r * 1024 + tl.arange(0, 16) * 64)
        tl.store(out_ptr + tl.arange(0, 16), tok.to(tl.int64))

    @triton.jit
    def _floor_chain3(rows_ptr, tokens_ptr, mapping_ptr, out_ptr):
        r = tl.load(rows_ptr)
        tok = tl.load(tokens_ptr + r * 1024 + tl.arange(0, 16) * 64)
        tl.store(out_ptr + tl.arange(0, 16), tl.load(mapping_ptr + tok))

    @triton.jit
    def _floor_chain2_twice(rows_ptr, tokens_ptr, out_ptr):
        pid = tl.program_id(0)
        r = tl.load(rows_ptr + pid)
        tok = tl.load(tokens_ptr + r * 1024 + tl.arange(0, 16) * 64)
        tl.store(out_ptr + pid * 16 + tl.arange(0, 16), tok.to(tl.int64))

    n = 1 << 20
    rows = torch.randint(0, n // 1024, (2,), dtype=torch.int64, device="cuda")
    tokens = torch.randint(0, n, (n,), dtype=torch.int32, device="cuda")
    mapping = torch.randint(0, n, (n,), dtype=torch.int64, device="cuda")
    out = torch.zeros(32, dtype=torch.int64, device="cuda")
    launches = [
        lambda: _floor_store[(1,)](out),
        lambda: _floor_chain1[(1,)](rows, out),
        lambda: _floor_chain2[(1,)](rows, tokens, out),
        lambda: _floor_chain3[(1,)](rows, tokens, mapping, out),
        lambda: _floor_chain2_twice[(2,)](rows, tokens, out),
    ]
    for launch in launches:
        for _ in range(calls + 1):  # the first compiles
            launch()
            torch.cuda.synchronize()


def read(path):
    with open(path) as f:
        lines = [line for line in f if line.startswith('"')]
    times = {}
    for r in csv.DictReader(lines):
        if r.get("Metric Name") != "gpu__time_duration.sum":
            continue
        scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3}.get(r.get("Metric Unit"), 1e-3)
        name = next((n for n in sorted(NAMES, key=len, reverse=True) if n in r["Kernel Name"]),
                    None)
        if name is not None:
            times.setdefault(name, []).append(float(r["Metric Value"].replace(",", "")) * scale)
    for name in NAMES:
        t = sorted(times.get(name, [])[1:])  # the first call compiled
        print("%-20s %s" % (name, "%.2f us (median of %d)" % (t[len(t) // 2], len(t))
                            if t else "not measured"))


if __name__ == "__main__":
    if sys.argv[1] == "--read":
        read(sys.argv[2])
    else:
        run(int(sys.argv[1]))
