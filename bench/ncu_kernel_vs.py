"""GPU time per kernel from Nsight Compute, for `bench/kernel_vs.py --eager N`:

    ncu --clock-control none --cache-control all|none --metrics gpu__time_duration.sum --csv \\
        --kernel-name regex:'fused_cuda_kernel|_metadata_kernel' \\
        python3 bench/kernel_vs.py --ours LIB --vs TARGET --eager N > ncu.csv
    python3 bench/ncu_kernel_vs.py N ncu.csv [SHAPES...]
    python3 bench/ncu_kernel_vs.py --table N COLD.csv WARM.csv KERNEL_VS.json

The --table form prints the markdown table of docs/KERNEL_ABI.md, "Against Triton": per
shape and regime the GPU time from ncu (cold and warm), the event-timed replays of
kernel_vs.py's --json (warm over graphs of many calls, warm1, cold) and the floor.

Kernels come in launch order: per shape and regime, 1 + N of each, taking turns (gmfuzz
first). Prints per shape and regime the median duration of the N timed calls of each kernel
(the first, a check, is left out) and their ratio. `--cache-control all` flushes the caches
before every kernel (cold), `none` leaves the previous call's data in them (warm); the
clocks are left as they are (the device notes ask for that)."""
import csv
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from kernel_vs import REGIMES, SHAPES  # noqa: E402  (torch-free names only)


def durations(path):
    rows = []
    with open(path) as f:
        lines = [line for line in f if line.startswith('"')]
    for r in csv.DictReader(lines):
        if r.get("Metric Name") == "gpu__time_duration.sum":
            value = float(r["Metric Value"].replace(",", ""))
            unit = r.get("Metric Unit", "nsecond")
            scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3}.get(unit, 1e-3)
            rows.append((r["Kernel Name"], value * scale))
    return rows


def medians(calls, path, cells):
    """{(shape index, regime): (gmfuzz us, vs us)} from one ncu CSV."""
    rows = durations(path)
    per = 2 * (calls + 1)
    if len(rows) != per * len(cells):
        sys.exit("ncu_kernel_vs: %d kernels in %s, expected %d" % (len(rows), path,
                                                                   per * len(cells)))
    out = {}
    for n, cell in enumerate(cells):
        group = rows[n * per:(n + 1) * per][2:]
        ours = sorted(d for k, (_, d) in enumerate(group) if k % 2 == 0)
        theirs = sorted(d for k, (_, d) in enumerate(group) if k % 2 == 1)
        out[cell] = (ours[len(ours) // 2], theirs[len(theirs) // 2])
    return out


def table(calls, cold_csv, warm_csv, vs_json):
    import json
    with open(vs_json) as f:
        doc = json.load(f)
    rows = doc["rows"]
    cells = []
    for r in rows:
        shape = (r["bs"], r["max_seq_pages"], r["page_size"], r["swa"])
        cells.append((SHAPES.index(shape), r["regime"]))
    cold, warm = medians(calls, cold_csv, cells), medians(calls, warm_csv, cells)
    print("| (bs, pages, P, swa) | data | GPU cold gmfuzz | Triton | ratio | GPU warm gmfuzz "
          "| Triton | ratio | replay warm ratio | warm1 ratio | replay cold ratio | floor us "
          "| x floor |")
    print("| --- " * 13 + "|")
    for r, cell in zip(rows, cells):
        c, w = cold[cell], warm[cell]
        ratio = lambda key: r["gmfuzz_" + key] / r["vs_" + key]
        print("| (%d,%d,%d,%s) | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | "
              "%.2f | %.2f | %s |" % (
                  r["bs"], r["max_seq_pages"], r["page_size"], "yes" if r["swa"] else "no",
                  r["regime"], c[0], c[1], c[0] / c[1], w[0], w[1], w[0] / w[1],
                  ratio("warm_us"), ratio("warm1_us"), ratio("cold_us"), r["floor_us"],
                  "%.1f" % (w[0] / r["floor_us"]) if r["floor_us"] >= 0.5 else "latency"))
    print("\nlaunch floor: warm %.2f us, cold %.2f us; dependent-load floor: %s" % (
        doc["launch_floor_warm_us"], doc["launch_floor_cold_us"],
        "warm %.2f us, cold %.2f us" % tuple(doc["chain_floor_us"])
        if doc.get("chain_floor_us") else "n/a"))


def main():
    if sys.argv[1] == "--table":
        return table(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5])
    calls, path = int(sys.argv[1]), sys.argv[2]
    shapes = [int(a) for a in sys.argv[3:]] or list(range(len(SHAPES)))
    cells = [(i, regime) for i in shapes for regime in REGIMES]
    times = medians(calls, path, cells)
    print("%-22s %-6s %9s %9s %6s" % ("(bs,pages,P,swa)", "data", "gmfuzz us", "vs us", "ratio"))
    for i, regime in cells:
        a, b = times[(i, regime)]
        bs, pages, page, swa = SHAPES[i]
        print("%-22s %-6s %9.2f %9.2f %6.2f" % ("(%d,%d,%d,%s)" % (bs, pages, page,
              "yes" if swa else "no"), regime, a, b, a / b))

if __name__ == "__main__":
    main()
