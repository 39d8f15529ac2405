"""gmfuzz's kernel, another kernel and the row-work floor on the same inputs, under ncu:

    ncu --clock-control none --cache-control all|none --metrics gpu__time_duration.sum --csv \\
        --kernel-name regex:'fused_cuda_kernel|_metadata_kernel|row_floor' \\
        python3 bench/kernel_row_floor.py run --ours LIB --vs TARGET --floor FLOOR_LIB > X.csv
    python3 bench/kernel_row_floor.py read X.csv --ours LIB [--ours LIB2 ...]

(bench/kernel_row_floor.sh does both passes.) The floor (bench/kernel_row_floor.cu) is the
row programs' work alone, as plainly as CUDA allows, in five layouts (1, 2 or 4 pages a
thread; 128 or 256 threads a block), the best of which is taken: no complete rebuild can
take less GPU time on the same inputs. Where the floor is above 0.95 of the other kernel's
time, no kernel can take 0.95 of it: the cell is marked "out of reach".

The shapes, regimes and seeds are bench/kernel_vs.py's (the "Against Triton" table); per
shape and regime the outputs of every kernel are checked equal (and the floor's page tables
against gmfuzz's), then 1 + CALLS calls of each, taking turns; the first is left out."""
import argparse
import csv
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_vs as kv  # noqa: E402  (exits 77 without torch)

LAYOUTS = [(1, 256), (1, 128), (2, 256), (4, 256), (4, 128)]  # (pages a thread, threads)
REACH = 0.95


def floor_launcher(path):
    lib = ctypes.CDLL(os.path.abspath(path))
    lib.gmfuzz_row_floor_launch.argtypes = [ctypes.c_int] * 3 + [ctypes.c_void_p] * 2 + [
        ctypes.c_int64] + [ctypes.c_void_p] * 3 + [ctypes.c_int, ctypes.c_int, ctypes.c_int64]
    return lib.gmfuzz_row_floor_launch


def run(args):
    import torch
    ours = [kv.lib_entry(path) for path in args.ours]
    theirs = kv.target_entry(args.vs)
    floor = floor_launcher(args.floor)
    for i in args.shape or range(len(kv.SHAPES)):
        bs, pages, page, swa = kv.SHAPES[i]
        for k, regime in enumerate(kv.REGIMES):
            inputs = kv.make_inputs(kv.SHAPES[i], regime, seed=i * 3 + k + 1)
            outputs = [kv.make_outputs(kv.SHAPES[i]) for _ in range(len(ours) + 1)]
            table = torch.zeros((bs, pages), dtype=torch.int32, device="cuda")
            swa_table = torch.zeros((bs, pages), dtype=torch.int32, device="cuda")
            tokens = inputs["req_to_token"]
            mapping = inputs.get("swa_mapping")
            ptr = lambda t: t.data_ptr() if t is not None else None

            def floor_call(per, threads):
                status = floor(per, threads, int(swa), ptr(inputs["req_pool_indices"]),
                               ptr(tokens), tokens.shape[1], ptr(mapping), ptr(table),
                               ptr(swa_table), pages.bit_length() - 1, page.bit_length() - 1,
                               bs * pages)
                if status != 0:
                    raise SystemExit("kernel_row_floor: CUDA error %d" % status)

            calls = [lambda fn=fn, out=out: fn(**inputs, **out)
                     for fn, out in zip(ours + [theirs], outputs)]
            calls += [lambda layout=layout: floor_call(*layout) for layout in LAYOUTS]
            for _ in range(args.calls + 1):
                for call in calls:
                    call()
                    torch.cuda.synchronize()
            for out in outputs[:-1]:
                for key, theirs_out in outputs[-1].items():
                    if not torch.equal(out[key], theirs_out):
                        raise SystemExit("kernel_row_floor: %s differs for %s, %s" % (
                            key, kv.SHAPES[i], regime))
            if not torch.equal(table, outputs[0]["page_table"]) or (
                    swa and not torch.equal(swa_table, outputs[0]["swa_page_table"])):
                raise SystemExit("kernel_row_floor: the floor's page tables differ for %s, %s"
                                 % (kv.SHAPES[i], regime))


def durations(path):
    with open(path) as f:
        lines = [line for line in f if line.startswith('"')]
    out = []
    for r in csv.DictReader(lines):
        if r.get("Metric Name") == "gpu__time_duration.sum":
            scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3}.get(
                r.get("Metric Unit"), 1e-3)
            out.append(float(r["Metric Value"].replace(",", "")) * scale)
    return out


def read(args):
    times = durations(args.csv)
    names = [os.path.basename(path) for path in args.ours]
    kernels = len(names) + 1 + len(LAYOUTS)
    per_cell = kernels * (args.calls + 1)
    cells = [(i, regime) for i in args.shape or range(len(kv.SHAPES)) for regime in kv.REGIMES]
    if len(times) != per_cell * len(cells):
        raise SystemExit("kernel_row_floor: %d kernels in %s, expected %d" % (
            len(times), args.csv, per_cell * len(cells)))
    print("| (bs, pages, P, swa) | data | vs us | " +
          " | ".join("%s us (/ vs)" % n for n in names) + " | row floor us (/ vs) | |")
    print("|" + " --- |" * (len(names) + 5))
    out_of_reach = 0
    for n, (i, regime) in enumerate(cells):
        group = times[n * per_cell:(n + 1) * per_cell][kernels:]  # the first round left out
        median = [sorted(group[j::kernels])[args.calls // 2] for j in range(kernels)]
        vs = median[len(names)]
        floor = min(median[len(names) + 1:])
        reach = floor / vs > REACH
        out_of_reach += reach
        print("| %s | %s | %.2f | %s | %.2f (%.2f) | %s |" % (
            kv.SHAPES[i], regime, vs,
            " | ".join("%.2f (%.2f)" % (t, t / vs) for t in median[:len(names)]),
            floor, floor / vs, "out of reach" if reach else ""))
    print("%d of %d cells out of reach: the row work alone takes more than %.2f of the other "
          "kernel's time" % (out_of_reach, len(cells), REACH))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mode", choices=("run", "read"))
    p.add_argument("csv", nargs="?", help="read: ncu's CSV")
    p.add_argument("--ours", action="append", required=True, help="libgmfuzz_kernel.so")
    p.add_argument("--vs", help="run: python:PATH[:FUNCTION] or lib:PATH")
    p.add_argument("--floor", help="run: libgmfuzz_row_floor.so")
    p.add_argument("--shape", type=int, action="append", help="shape index (repeatable)")
    p.add_argument("--calls", type=int, default=7)
    args = p.parse_args()
    if args.mode == "run":
        if not args.vs or not args.floor:
            p.error("run needs --vs and --floor")
        if not torch_has_cuda():
            print("kernel_row_floor: no CUDA device", file=sys.stderr)
            return 77
        run(args)
    else:
        if not args.csv:
            p.error("read needs the CSV")
        read(args)
    return 0


def torch_has_cuda():
    import torch
    return torch.cuda.is_available()


if __name__ == "__main__":
    sys.exit(main())
