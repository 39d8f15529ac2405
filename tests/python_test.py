"""The python-labelled ctests (tests/CMakeLists.txt): runs under GMFUZZ_TEST_PYTHON.

    python_test.py client ARGS...     python/worker_client.py with ARGS
    python_test.py protocol           the worker's protocol corners (HELLO, REFUSED, stdout,
                                      exception names and lengths, batches, EOF, STOP)
    python_test.py exported DIR       test_legacy_sequence of every exported file in DIR
    python_test.py graphs MODULE DIR  CUDA-graph replay (python/worker_graphs.py) against
                                      plain calls, on the vectors of DIR (skipped without CUDA)
    python_test.py jit MODULE         the simulated JIT of MODULE (examples/specializing_cpu.py):
                                      compile, load from the on-disk cache, nothing the
                                      second time, as python/gmfuzz_jit.py's sink sees them

Exits 77 (ctest: skipped) when this interpreter cannot import torch.
"""
import glob
import hashlib
import importlib.util
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))


def need_torch():
    try:
        import torch  # noqa: F401
    except ImportError as e:
        print("SKIP: %s cannot import torch (%s); set GMFUZZ_TEST_PYTHON" % (sys.executable, e))
        sys.exit(77)


def protocol():
    import worker_client as wc
    target = os.path.join(HERE, "data", "python", "protocol_target.py")
    case = wc.Case(wc.load_doc(os.path.join(HERE, "data", "cases", "decode_basic.json"))[0])
    call = wc.Call(case.fused_args())
    problems, passed = [], []

    def check(ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        (passed if ok else problems).append(what)

    w = wc.Worker("fused", target, "prints", "cpu")
    h = w.hello
    with open(target, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    import torch
    check(h == {"protocol": 2, "role": "fused", "module": "protocol_target",
                "function": "prints", "file": target, "sha256": digest, "version": "7.1",
                "device": "cpu", "torch": torch.__version__, "jit": None}, "HELLO: %r" % (h,))
    r = w.run([call, call])
    check(len(r) == 2 and all(x[0] == "returned" and x[1]["page_table"] == [5] * 4 for x in r),
          "a target's prints do not reach the stream; outputs come back: %r" % (r,))
    check(w.stop() == "exited with status 0", "STOP: exit 0")

    w = wc.Worker("fused", target, "raises_long", "cpu")
    r = w.run([call])[0]
    # The message starts with the raise's innermost frame in the target's file (gmfuzz
    # buckets a raise by it), and all of it is cut to 2000 bytes on a character boundary.
    frame = re.match(r"\[protocol_target\.py:\d+ raises_long\] ", r[2] if r[0] == "raised" else "")
    rest = r[2][frame.end():] if frame else ""
    check(r[0] == "raised" and r[1] == "protocol_target.PlantedError" and frame is not None
          and rest == "\u00e9" * len(rest) and 1998 <= len(r[2].encode("utf-8")) <= 2000,
          "raised: module-qualified type, its frame, message cut to 2000 "
          "bytes on a character boundary: %r" % ((r[0], r[1], r[2][:60], len(r[2])),))
    w.sock.shutdown(1)  # EOF
    check(w._reap() == "exited with status 0", "EOF: exit 0")

    w = wc.Worker("fused", target, "raises_on_three", "cpu")
    three = wc.Case(dict(wc.load_doc(os.path.join(HERE, "data", "cases",
                                                 "decode_basic.json"))[0],
                         req_pool_indices=[0, 1, 0], seq_lens=[1, 1, 1]))
    r = w.run([call, wc.Call(three.fused_args()), call])
    check([x[0] for x in r] == ["returned", "raised", "returned"] and r[1][1] == "IndexError"
          and re.fullmatch(r"\[protocol_target\.py:\d+ raises_on_three\] three", r[1][2])
          and r[2][1]["cache_seqlens"] == [2, 2], "a batch goes on past a raise: %r" % (r,))
    w.stop()

    w = wc.Worker("fused", target, "exits", "cpu")
    try:
        w.run([call])
        check(False, "os._exit: the worker is gone")
    except wc.WorkerGone as e:
        check(e.how == "crashed" and "status 3" in e.text, "os._exit: crashed: " + str(e))

    for module, function, device, want in (
            ("no_such_module_xyz", "", "cpu", "No module named 'no_such_module_xyz'"),
            (target, "no_such_function", "cpu", "has no function no_such_function"),
            ("", "", "cpu", "cannot import sglang.kernels.ops.kvcache.trtllm_mha_graph_metadata"),
            (target, "prints", "cuda", "--device cuda")):
        if device == "cuda" and torch.cuda.is_available():
            continue
        try:
            wc.Worker("fused", module, function, device)
            check(False, "REFUSED for %s %s %s" % (module, function, device))
        except wc.WorkerGone as e:
            check(e.how == "refused" and want in e.text, "REFUSED: " + e.text)

    # A malformed CALL: a protocol error (exit 2), not a crash of the stream's reader.
    w = wc.Worker("fused", target, "prints", "cpu")
    w.sock.sendall(struct.pack("<IIQ", 7, 0, 4) + struct.pack("<I", 1))
    try:
        w.run([call])
    except wc.WorkerGone as e:
        check("status 2" in e.text, "a truncated CALL: exit 2: " + str(e))
    print("%d passed, %d failed" % (len(passed), len(problems)))
    return 1 if problems else 0


def exported(folder):
    files = sorted(glob.glob(os.path.join(folder, "test_*.py")))
    failed = 0
    for path in files:
        spec = importlib.util.spec_from_file_location("exported_" + str(len(path)), path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            module.test_legacy_sequence()
        except Exception as e:
            failed += 1
            print("FAIL %s: %s: %s" % (os.path.basename(path), type(e).__name__, e))
    if not files:
        print("FAIL no test_*.py in " + folder)
        failed += 1
    print("%d passed, %d failed" % (len(files) - failed if files else 0, failed))
    return 1 if failed else 0


def graphs(module, folder):
    """Each in-bounds vector's case as VARIANTS calls of one shape, its rows rotated by 0,
    1, ... (a row permutation: every row's reads stay in bounds, the outputs move), two
    vectors interleaved per batch: a worker replaying CUDA graphs (with room for 2 MB of
    them, so that old shapes are freed as new ones come) must answer exactly as one calling
    the target plainly, the unrotated call as the real fused kernel, and must have replayed
    graphs at all."""
    import tempfile
    import torch
    import worker_client as wc
    if not torch.cuda.is_available():
        print("SKIP: no CUDA device")
        return 77
    variants = 40  # a graph's 32 slots, then 8 plain calls on them

    def rotated(c, j):
        c = dict(c)
        for name in ("req_pool_indices", "seq_lens", "seq_lens_cpu", "qlens"):
            rows = c.get(name)
            if rows is not None and len(rows) and not isinstance(rows, (int, str)):
                k = j % len(rows)
                c[name] = rows[k:] + rows[:k]
        return c

    docs = []
    for path in wc.vector_paths([folder]):
        c, _legacy, fused = wc.load_doc(path)
        if fused.get("error") is None:
            docs.append((path, c, fused))
    log = tempfile.TemporaryFile()
    try:
        on = wc.Worker("fused", module, "", "cuda",
                       env={"GMFUZZ_WORKER_TIMES": "1", "GMFUZZ_TARGET_GRAPHS": "1",
                            "GMFUZZ_TARGET_GRAPH_BYTES": "2000000"},  # old shapes freed
                       stderr=log.fileno())
    except wc.WorkerGone as e:
        print("SKIP: %s" % e.text)
        return 77
    off = wc.Worker("fused", module, "", "cuda", env={"GMFUZZ_TARGET_GRAPHS": None})
    failed = compared = 0
    for a in range(0, len(docs), 2):
        pair = docs[a:a + 2]
        calls, labels = [], []
        for j in range(variants):
            for path, c, fused in pair:
                case = wc.Case(rotated(c, j))
                calls.append(wc.Call(case.fused_args()))
                labels.append((path, j, case, fused))
        got, want = on.run(calls), off.run(calls)
        for (path, j, case, fused), g, w in zip(labels, got, want):
            compared += 1
            problem = None if g == w else "graphs %r, plain %r" % (g, w)
            if problem is None and j == 0:
                problem = wc.check_fused(case, g, fused)
            if problem is not None:
                failed += 1
                print("FAIL %s rotated by %d: %s" % (os.path.basename(path), j, problem))
    on.stop()
    off.stop()
    log.seek(0)
    text = log.read().decode("utf-8", "replace")
    line = [x for x in text.splitlines() if "graphs:" in x]
    print(line[-1] if line else "FAIL the worker wrote no graphs line:\n" + text)
    replays = int(line[-1].split(" replays of ")[0].rsplit(" ", 1)[1]) if line else 0
    if replays == 0:
        failed += 1
        print("FAIL no graph was replayed")
    print("%d calls of %d vectors: %d passed, %d failed" % (compared, len(docs),
                                                            compared - failed, failed))
    return 1 if failed else 0


# ---- the CPU stand-in's simulated JIT (examples/specializing_cpu.py) ----------------------

JIT_COMPILE_S, JIT_LOAD_S = 0.6, 0.15  # the stand-in's costs during the check


def _load_target(path):
    """The module at PATH as gmfuzz's worker loads a .py target: its folder on sys.path."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    spec = importlib.util.spec_from_file_location("jit_target", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _torch_kwargs(case):
    """The fused call's keyword arguments as torch tensors on the CPU."""
    import torch
    import worker_client as wc
    kwargs = {}
    for arg in case.fused_args():
        name, kind = arg[0], arg[1]
        if kind == wc.K_INT:
            kwargs[name] = arg[2]
        else:
            dtype = torch.int32 if arg[2] == 4 else torch.int64
            kwargs[name] = torch.tensor(arg[4], dtype=dtype).reshape(arg[3])
    return kwargs


def jit_probe(module_path, rows):
    """One process's calls (a child of `jit`): the decode_basic case with `rows` rows,
    twice; prints, as JSON, per call its seconds, CPU seconds and gmfuzz_jit events."""
    import json
    import time
    import gmfuzz_jit
    import worker_client as wc
    target = _load_target(module_path)
    if getattr(target, "gmfuzz_jit", None) is not gmfuzz_jit:
        print(json.dumps({"error": "the target did not import python/gmfuzz_jit.py"}))
        return 1
    events = []
    gmfuzz_jit.set_sink(lambda event, key, seconds: events.append((event, key, seconds)))
    c = dict(wc.load_doc(os.path.join(HERE, "data", "cases", "decode_basic.json"))[0],
             req_pool_indices=[0] * rows, seq_lens=[1] * rows)
    calls = []
    for _ in range(2):
        kwargs = _torch_kwargs(wc.Case(c))
        del events[:]
        wall, cpu = time.perf_counter(), time.process_time()
        target.update_trtllm_mha_graph_metadata(**kwargs)
        calls.append({"seconds": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                      "events": list(events)})
    print(json.dumps({"calls": calls, "names": {"STARTED": gmfuzz_jit.STARTED,
                      "COMPILED": gmfuzz_jit.COMPILED, "LOADED": gmfuzz_jit.LOADED}}))
    return 0


def jit(module_path):
    """A first call of a key compiles (slow, its cache file appears), the same call again in
    that process costs nothing, a second process loads it (faster, no new file), and
    gmfuzz_jit's sink hears STARTED then COMPILED or LOADED with the key the file holds.
    GMFUZZ_STANDIN_BUSY=1 spends the compile on the CPU. Only lower bounds on time: a
    compile or load sleeps (or burns) at least its cost, but how much longer a call takes
    is the machine's load, not the stand-in's doing; what is free says its events (none)."""
    import json
    import shutil
    import subprocess
    import tempfile
    try:
        import gmfuzz_jit  # noqa: F401
    except ImportError:
        print("SKIP: python/gmfuzz_jit.py is not in this tree")
        return 77
    cache = tempfile.mkdtemp(prefix="specializing-jit-", dir=os.getcwd())
    env = dict(os.environ, TRITON_CACHE_DIR=cache, GMFUZZ_SPEC_FAULT="",
               GMFUZZ_STANDIN_COMPILE_S=str(JIT_COMPILE_S), GMFUZZ_STANDIN_WIDE_S="0",
               GMFUZZ_STANDIN_LOAD_S=str(JIT_LOAD_S), GMFUZZ_STANDIN_BUSY="")
    problems, passed = [], []

    def check(ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        (passed if ok else problems).append(what)

    def probe(rows, **extra):
        run = subprocess.run([sys.executable, "-B", os.path.abspath(__file__), "jit-probe",
                              module_path, str(rows)], env=dict(env, **extra),
                             capture_output=True, text=True, timeout=120)
        out = json.loads(run.stdout.splitlines()[-1]) if run.stdout.strip() else {}
        if run.returncode != 0 or "calls" not in out:
            raise RuntimeError("jit-probe: exit %d: %s%s" % (run.returncode, run.stdout,
                                                             run.stderr))
        return out

    def said(call):
        """The call's events by name (the key separately)."""
        names = {v: k for k, v in ev.items()}
        return [names.get(e[0], e[0]) for e in call["events"]]

    def cost(call):
        """The seconds the sink was told at the call's last event (-1: no event)."""
        return call["events"][-1][2] if call["events"] else -1.0

    def entries():
        folder = os.path.join(cache, "gmfuzz-standin")
        names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        texts = {}
        for name in names:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                texts[name] = f.read().strip()
        return texts

    try:
        first = probe(2)
        ev = first["names"]
        one, again = first["calls"]
        key = one["events"][0][1] if one["events"] else None
        print("key: %s" % key)
        check(said(one) == ["STARTED", "COMPILED"] and one["events"][1][1] == key,
              "first call: STARTED, COMPILED: %r" % said(one))
        check(one["seconds"] >= JIT_COMPILE_S and cost(one) >= JIT_COMPILE_S,
              "first call compiles: %.3f s (the sink: %.3f s)" % (one["seconds"], cost(one)))
        files = entries()
        digest = hashlib.sha256((key or "").encode("utf-8")).hexdigest()
        check(files == {digest: key}, "one cache file, named by the key's sha256, holding "
              "the key: %r" % sorted(files))
        check(again["events"] == [],
              "the same call again: free (no event): %.3f s, %r" % (again["seconds"],
                                                                    said(again)))

        second = probe(2)
        one, again = second["calls"]
        check(said(one) == ["STARTED", "LOADED"] and all(e[1] == key for e in one["events"]),
              "second process: STARTED, LOADED the same key: %r" % said(one))
        check(one["seconds"] >= JIT_LOAD_S and cost(one) >= JIT_LOAD_S,
              "second process loads: %.3f s (the sink: %.3f s)" % (one["seconds"], cost(one)))
        check(entries() == files, "a load writes no file")
        check(again["events"] == [], "then free (no event): %.3f s" % again["seconds"])

        busy = probe(3, GMFUZZ_STANDIN_BUSY="1")
        one = busy["calls"][0]
        check(said(one) == ["STARTED", "COMPILED"] and one["events"][0][1] != key,
              "another key (3 rows: BS_BLOCK 4) compiles: %r" % said(one))
        check(one["cpu"] >= JIT_COMPILE_S,  # sleeping would cost ~0
              "GMFUZZ_STANDIN_BUSY=1: the compile burns the CPU: %.3f CPU s" % one["cpu"])
        check(len(entries()) == 2, "its own cache file: %d files" % len(entries()))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print("%d passed, %d failed" % (len(passed), len(problems)))
    return 1 if problems else 0


def main(argv):
    need_torch()
    if argv[0] == "client":
        import worker_client
        return worker_client.main(argv[1:])
    if argv[0] == "protocol":
        return protocol()
    if argv[0] == "exported":
        return exported(argv[1])
    if argv[0] == "graphs":
        return graphs(argv[1], argv[2])
    if argv[0] == "jit":
        return jit(argv[1])
    if argv[0] == "jit-probe":
        return jit_probe(argv[1], int(argv[2]))
    print("usage: python_test.py client ARGS... | protocol | exported DIR | graphs MODULE DIR"
          " | jit MODULE")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
