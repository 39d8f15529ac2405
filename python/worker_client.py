"""A small pure-Python client of gmfuzz's Python worker (docs/TARGETS.md, protocol version 1).

It starts python/gmfuzz_worker.py the way gmfuzz does (the socket on fd 3, stdin /dev/null,
stdout onto stderr), builds each call's arguments from a case exactly as docs/TARGETS.md says
(the outputs holding their prior contents: the case's init, zeros, the mode's cu_seqlens_q
preset; core/gm_outputs.c does the same in C), and reads the results. No torch needed here.

    worker_client.py [--role fused|legacy] [--module M] [--function F] [--device cpu|cuda]
                     [--batch N] PATH...
        Replays conformance vectors (gmfuzz-vector-v1; a folder means its *.json): role fused
        must give each vector's `fused` buffers exactly; role legacy must raise where the
        vector's `legacy` has an error and otherwise give its buffers exactly. Cases and
        reproducers are run and their buffers printed. Ends 'N passed, N failed'.

    worker_client.py --fault-cases [--gmfuzz GMFUZZ] --module examples/torch_fused.py DIR
        For each DIR/<target>-<fault>.json whose <target> is the module's stem: runs the case
        without the fault and with it (the target's fault variable, GMFUZZ_TORCH_FAULT for
        torch_fused, GMFUZZ_TRITON_FAULT for triton_fused, or --fault-env; --fault-target
        names the <target> when the module's stem is not it) and says whether
        the fault shows (the buffers differ, or the call raises, crashes or hangs). With
        --gmfuzz, the run without the fault must also equal `gmfuzz run --json`'s fused side.
        The faults raise, segfault and hang must make the call raise, kill the worker and
        time out (--timeout); every other one must return and leave different buffers.

    worker_client.py --bench CASE [--calls N] [--module M ...]
        Cases per second through the worker, one case per CALL and 64 per CALL.

Exit status: 0 when everything passed, 1 otherwise, 2 on a usage error.
"""
import argparse
import glob
import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "gmfuzz_worker.py")
HELLO, REFUSED, DEVICE_ERROR, STOP, CALL, RETURN = 1, 2, 5, 6, 7, 8
JIT = 12  # a compile or load under way or done (docs/TARGETS.md, "Compiles and loads")
JIT_STARTED = 1
JIT_HEAD = struct.Struct("<IBdI")
K_NONE, K_INT, K_STR, K_IN, K_OUT, K_HOST = 0, 1, 2, 3, 4, 5
HEADER = struct.Struct("<IIQ")
Q_MODES = {"draft_extend": 1, "draft_extend_v2": 2}
BUFFERS = ("cache_seqlens", "cu_seqlens_k", "cu_seqlens_q", "page_table", "swa_page_table",
           "swa_out_cache_loc")
# Faults that must end the call some other way than returning different buffers.
CRASH_FAULTS = {"raise": "raised", "segfault": "crashed", "hang": "hung"}
FAULT_ENVS = {"torch_fused": "GMFUZZ_TORCH_FAULT", "triton_fused": "GMFUZZ_TRITON_FAULT",
              "specializing_cpu": "GMFUZZ_SPEC_FAULT", "triton_specializing": "GMFUZZ_SPEC_FAULT"}


def noop(**kwargs):
    """A target that does nothing: `--module python/worker_client.py --function noop` measures
    the worker's own cost per case."""


# ---- cases --------------------------------------------------------------------------------

def as_int(v):
    """A JSON integer: a number, or a decimal string past 2^53 (CASE_FORMAT.md)."""
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ValueError("not an integer: %r" % (v,))
    return int(v)


def flat(v):
    """A (possibly nested) JSON list as a flat list of ints."""
    out = []
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(reversed(x))
        else:
            out.append(as_int(x))
    return out


def load_doc(path):
    """(case, legacy outputs or None, fused outputs or None) of a case, vector or reproducer."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    fmt = doc.get("format")
    if fmt == "gmfuzz-case-v1":
        return doc, None, None
    if fmt == "gmfuzz-vector-v1":
        return doc["case"], doc["legacy"], doc["fused"]
    if fmt == "gmfuzz-repro-v1":
        return doc["case"], doc.get("reference"), doc.get("fused")
    raise ValueError(path + ": unknown format " + repr(fmt))


def wrap32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


class Case:
    """A gmfuzz-case-v1 with what the calls need worked out (SPEC sections 1 and 6)."""

    def __init__(self, c):
        self.mode = c["mode"]
        self.page_size = as_int(c["page_size"])
        self.max_context_len = as_int(c["max_context_len"])
        rows = c["req_to_token"]
        self.pool, self.width = len(rows), len(rows[0]) if rows else 0
        self.req_to_token = flat(rows)
        self.req_pool_indices = flat(c["req_pool_indices"])
        self.seq_lens = flat(c["seq_lens"])
        self.bs = len(self.seq_lens)
        cpu = c.get("seq_lens_cpu")
        self.seq_lens_cpu = self.seq_lens if cpu is None else flat(cpu)
        self.speculative_step_id = as_int(c.get("speculative_step_id") or 0)
        self.num_draft_tokens = as_int(c.get("num_draft_tokens") or 0)
        self.q_stride = as_int(c.get("q_stride") or 0)
        self.qlens = None if c.get("qlens") is None else flat(c["qlens"])
        self.pages = (self.max_context_len + self.page_size - 1) // self.page_size
        msp = c.get("max_seq_pages")
        self.max_seq_pages = self.pages if msp is None else as_int(msp)
        self.seqlen_offset = {"draft_decode": self.speculative_step_id + 1,
                              "target_verify": self.num_draft_tokens}.get(self.mode, 0)
        self.q_mode = Q_MODES.get(self.mode, 0)
        swa = c.get("swa")
        self.has_swa = swa is not None
        swa = swa or {}
        self.mapping = flat(swa["mapping"]) if self.has_swa else None
        self.swa_page_table = self.has_swa and swa.get("page_table", True) is not False
        loc = swa.get("out_cache_loc")
        self.out_cache_loc = None if loc is None else flat(loc)
        self.out_len = None if swa.get("out_len") is None else as_int(swa["out_len"])
        self.init = c.get("init") or {}

    def shape(self, name):
        """The buffer's dims, or None where the case has no such buffer."""
        bs = self.bs
        if name == "swa_page_table" and not self.swa_page_table:
            return None
        if name == "swa_out_cache_loc":
            return None if not self.has_swa or self.out_len is None else (self.out_len,)
        return {"cache_seqlens": (bs,), "cu_seqlens_k": (bs + 1,), "cu_seqlens_q": (bs + 1,),
                "page_table": (bs, self.pages), "swa_page_table": (bs, self.pages)}[name]

    def prior(self, name):
        """The buffer's contents before the rebuild, flat (core/gm_outputs.c's rule)."""
        dims = self.shape(name)
        n = dims[0] * (dims[1] if len(dims) == 2 else 1)
        init = self.init.get(name)
        if init is not None and not isinstance(init, list):
            return [as_int(init)] * n
        if init is not None:
            values = flat(init)
            if len(values) != n:
                raise ValueError("init.%s: %d elements, the buffer has %d" % (name, len(values), n))
            return values
        if name == "cu_seqlens_q":
            step = {"decode": 1, "draft_decode": 1, "target_verify": self.num_draft_tokens}
            return [wrap32(k * step.get(self.mode, 0)) for k in range(n)]
        return [0] * n

    def out(self, name):
        dims = self.shape(name)
        return (K_OUT, 8 if name == "swa_out_cache_loc" else 4, dims, self.prior(name))

    def fused_args(self):
        """The fused call (docs/TARGETS.md, "The fused call"): [(name, kind, value)]."""
        args = [("req_pool_indices", K_IN, 8, (self.bs,), self.req_pool_indices),
                ("seq_lens", K_IN, 8, (self.bs,), self.seq_lens),
                ("req_to_token", K_IN, 4, (self.pool, self.width), self.req_to_token)]
        args += [(name,) + self.out(name) for name in ("cache_seqlens", "cu_seqlens_k",
                                                        "page_table")]
        args += [("bs", K_INT, self.bs), ("seqlen_offset", K_INT, self.seqlen_offset),
                 ("max_seq_pages", K_INT, self.max_seq_pages), ("page_size", K_INT, self.page_size),
                 ("q_stride", K_INT, self.q_stride), ("q_mode", K_INT, self.q_mode)]
        if self.has_swa:
            args.append(("swa_mapping", K_IN, 8, (len(self.mapping),), self.mapping))
        if self.swa_page_table:
            args.append(("swa_page_table",) + self.out("swa_page_table"))
        if self.has_swa and self.out_cache_loc is not None:
            args.append(("out_cache_loc", K_IN, 8, (len(self.out_cache_loc),), self.out_cache_loc))
        if self.shape("swa_out_cache_loc") is not None:
            args.append(("swa_out_cache_loc",) + self.out("swa_out_cache_loc"))
        if self.q_mode in (1, 2):
            args.append(("cu_seqlens_q",) + self.out("cu_seqlens_q"))
        if self.q_mode == 1:
            args.append(("qlens", K_IN, 4, (self.bs,), self.qlens))
        return args

    def legacy_args(self):
        """The legacy call (docs/TARGETS.md, "The legacy call")."""
        def opt(name, esize, values):
            return (name, K_NONE) if values is None else (name, K_IN, esize, (len(values),), values)
        args = [("mode", K_STR, self.mode), ("page_size", K_INT, self.page_size),
                ("max_context_len", K_INT, self.max_context_len),
                ("speculative_step_id", K_INT, self.speculative_step_id),
                ("num_draft_tokens", K_INT, self.num_draft_tokens),
                ("q_stride", K_INT, self.q_stride),
                ("req_to_token", K_IN, 4, (self.pool, self.width), self.req_to_token),
                ("req_pool_indices", K_IN, 8, (self.bs,), self.req_pool_indices),
                ("seq_lens", K_IN, 8, (self.bs,), self.seq_lens),
                ("seq_lens_cpu", K_HOST, 8, (self.bs,), self.seq_lens_cpu),
                opt("qlens", 4, self.qlens), opt("swa_mapping", 8, self.mapping),
                opt("out_cache_loc", 8, self.out_cache_loc if self.has_swa else None)]
        args += [(name,) + self.out(name) for name in ("cache_seqlens", "cu_seqlens_k",
                                                        "cu_seqlens_q", "page_table")]
        for name in ("swa_page_table", "swa_out_cache_loc"):
            args.append((name, K_NONE) if self.shape(name) is None else (name,) + self.out(name))
        return args


class Call:
    """One encoded call and how to read its results back."""

    def __init__(self, args):
        parts = [struct.pack("<I", len(args))]
        self.outs = []  # (name, esize, dims)
        for arg in args:
            name, kind = arg[0], arg[1]
            raw = name.encode("ascii")
            parts.append(struct.pack("<H", len(raw)) + raw + bytes((kind,)))
            if kind == K_INT:
                parts.append(struct.pack("<q", arg[2]))
            elif kind == K_STR:
                text = arg[2].encode("utf-8")
                parts.append(struct.pack("<I", len(text)) + text)
            elif kind in (K_IN, K_OUT, K_HOST):
                esize, dims, values = arg[2], arg[3], arg[4]
                parts.append(struct.pack("<BB%dQ" % len(dims), esize, len(dims), *dims))
                parts.append(struct.pack("<%d%s" % (len(values), "i" if esize == 4 else "q"),
                                         *values))
                if kind == K_OUT:
                    self.outs.append((name, esize, dims))
        self.data = b"".join(parts)


def batch_payload(calls):
    return struct.pack("<I", len(calls)) + b"".join(c.data for c in calls)


def decode_return(payload, calls):
    """[('returned', {name: flat values}) | ('raised', type, message)] per call."""
    (count,) = struct.unpack_from("<I", payload, 0)
    if count != len(calls):
        raise RuntimeError("RETURN holds %d results for %d calls" % (count, len(calls)))
    at, results = 4, []
    for call in calls:
        status = payload[at]
        at += 1
        if status == 0:
            bufs = {}
            for name, esize, dims in call.outs:
                (n,) = struct.unpack_from("<Q", payload, at)
                at += 8
                want = esize * dims[0] * (dims[1] if len(dims) == 2 else 1)
                if n != want:
                    raise RuntimeError("%s: %d bytes back, expected %d" % (name, n, want))
                bufs[name] = list(struct.unpack_from("<%d%s" % (n // esize, "i" if esize == 4
                                                                  else "q"), payload, at))
                at += n
            results.append(("returned", bufs))
        elif status == 1:
            (n,) = struct.unpack_from("<I", payload, at)
            kind = payload[at + 4:at + 4 + n].decode("utf-8")
            at += 4 + n
            (n,) = struct.unpack_from("<I", payload, at)
            message = payload[at + 4:at + 4 + n].decode("utf-8")
            at += 4 + n
            results.append(("raised", kind, message))
        else:
            raise RuntimeError("RETURN: status %d" % status)
    if at != len(payload):
        raise RuntimeError("RETURN: %d bytes after the last result" % (len(payload) - at))
    return results


# ---- the worker ---------------------------------------------------------------------------

class WorkerGone(Exception):
    """The worker crashed, hung, refused or reported a device error: `how` says which."""

    def __init__(self, how, text):
        super().__init__(how + ": " + text)
        self.how, self.text = how, text


class Worker:
    def __init__(self, role, module="", function="", device="cpu", python=None, env=None,
                 timeout=30.0, start_timeout=120.0, stderr=None, compile_timeout=300.0):
        self.timeout, self.compile_timeout, self.jit = timeout, compile_timeout, []
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        python = shutil.which(python or os.environ.get("GMFUZZ_PYTHON") or sys.executable)
        argv = [python, "-u", "-B", WORKER,
                "--fd", "3", "--role", role, "--module", module, "--function", function,
                "--device", device]
        actions = [(os.POSIX_SPAWN_DUP2, child.fileno(), 3),
                   (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)]
        if stderr is not None:
            actions.append((os.POSIX_SPAWN_DUP2, stderr, 2))
        actions.append((os.POSIX_SPAWN_DUP2, 2, 1))
        full_env = dict(os.environ)
        full_env.update(env or {})
        for key in [k for k, v in full_env.items() if v is None]:
            del full_env[key]
        self.pid = os.posix_spawn(argv[0], argv, full_env, file_actions=actions)
        child.close()
        self.sock, self.alive = parent, True
        kind, payload = self._receive(start_timeout)
        if kind == REFUSED:
            self._reap()
            raise WorkerGone("refused", payload.decode("utf-8", "replace"))
        if kind != HELLO:
            self.kill()
            raise RuntimeError("the worker's first message has type %d" % kind)
        self.hello = json.loads(payload)

    def _read(self, n, deadline):
        chunks, got = [], 0
        while got < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                self.kill()
                raise WorkerGone("hung", "no answer within %g s" % self.timeout)
            try:
                data = self.sock.recv(min(n - got, 1 << 20))
            except ConnectionResetError:
                # A worker that exits with our bytes unread resets the stream
                # instead of closing it: gone all the same.
                data = b""
            if not data:
                raise WorkerGone("crashed", self._reap())
            chunks.append(data)
            got += len(data)
        return b"".join(chunks)

    def _receive(self, timeout):
        deadline = time.monotonic() + timeout
        kind, _, length = HEADER.unpack(self._read(16, deadline))
        return kind, self._read(length, deadline) if length else b""

    def _reap(self):
        """Waits for the worker to end: how it ended, in words."""
        if not self.alive:
            return "already gone"
        self.alive = False
        self.sock.close()
        _, status = os.waitpid(self.pid, 0)
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            return "killed by signal %d (%s)" % (sig, signal.Signals(sig).name)
        return "exited with status %d" % os.WEXITSTATUS(status)

    def kill(self):
        if self.alive:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap()

    def run(self, calls):
        """The batch's results (decode_return); WorkerGone where the worker went. While the
        worker says a compile or a load is under way, the wait is `compile_timeout`; the JIT
        events of the batch are kept in self.jit as (call, event, seconds, key)."""
        payload = batch_payload(calls)
        try:
            self.sock.sendall(HEADER.pack(CALL, 0, len(payload)) + payload)
        except OSError as e:
            raise WorkerGone("crashed", "send failed (%s): %s" % (e, self._reap()))
        self.jit = []
        kind, answer = self._receive(self.timeout)
        while kind == JIT:
            call, event, seconds, n = JIT_HEAD.unpack_from(answer, 0)
            key = answer[JIT_HEAD.size:JIT_HEAD.size + n].decode("utf-8", "replace")
            self.jit.append((call, event, seconds, key))
            kind, answer = self._receive(self.compile_timeout if event == JIT_STARTED
                                         else self.timeout)
        if kind == DEVICE_ERROR:
            how = self._reap()
            raise WorkerGone("device_error", answer.decode("utf-8", "replace") + " (" + how + ")")
        if kind != RETURN:
            self.kill()
            raise RuntimeError("the worker answered CALL with type %d" % kind)
        return decode_return(answer, calls)

    def stop(self):
        if not self.alive:
            return None
        try:
            self.sock.sendall(HEADER.pack(STOP, 0, 0))
        except OSError:
            pass
        return self._reap()


class Pool:
    """A worker that is started again after it goes; a batch that takes one down is re-run
    one call at a time (as gmfuzz does) so that only the guilty call's result says so."""

    def __init__(self, **options):
        self.options, self.worker, self.restarts = options, None, 0

    def _worker(self):
        if self.worker is None or not self.worker.alive:
            if self.worker is not None:
                self.restarts += 1
            self.worker = Worker(**self.options)
        return self.worker

    def run(self, calls):
        try:
            return self._worker().run(calls)
        except WorkerGone as e:
            if e.how == "refused":
                raise
            if len(calls) == 1:
                return [(e.how, e.text)]
        results = []
        for call in calls:
            results.extend(self.run([call]))
        return results

    def close(self):
        if self.worker is not None:
            self.worker.stop()


# ---- checks -------------------------------------------------------------------------------

def _first_difference(got, want):
    for name in sorted(set(got) | set(want)):
        g, w = got.get(name), want.get(name)
        if g != w:
            if g is None or w is None:
                return name + ": present on one side only"
            if len(g) != len(w):
                return "%s: %d elements, expected %d" % (name, len(g), len(w))
            k = next(k for k in range(len(w)) if g[k] != w[k])
            return "%s[%d]: got %d, expected %d" % (name, k, g[k], w[k])
    return None


def expected_buffers(case, outputs):
    """{name: flat values} of a recorded outputs object, for the buffers the case has."""
    return {name: flat(outputs[name]) for name in BUFFERS if outputs.get(name) is not None}


def check_fused(case, result, want):
    """None when the fused call left exactly `want`, else what differs. Buffers the call was
    not given must still hold their prior contents in `want`."""
    if result[0] != "returned":
        return " ".join(str(x) for x in result)
    got = dict(result[1])
    for name in BUFFERS:
        if name not in got and case.shape(name) is not None:
            got[name] = case.prior(name)  # never passed: the kernel cannot have touched it
    return _first_difference(got, expected_buffers(case, want))


def check_legacy(case, result, want):
    if want.get("error") is not None:
        if result[0] in ("raised", "device_error"):
            return None
        return "did not raise; legacy raised: " + want["error"]
    if result[0] != "returned":
        return " ".join(str(x) for x in result)
    return _first_difference(result[1], expected_buffers(case, want))


def vector_paths(paths):
    out = []
    for p in paths:
        out.extend(sorted(glob.glob(os.path.join(p, "*.json"))) if os.path.isdir(p) else [p])
    return out


def replay(args):
    pool = Pool(role=args.role, module=args.module, function=args.function, device=args.device,
                python=args.python, timeout=args.timeout)
    passed = failed = 0
    items = []
    for path in vector_paths(args.paths):
        c, legacy, fused = load_doc(path)
        case = Case(c)
        call = Call(case.fused_args() if args.role == "fused" else case.legacy_args())
        items.append((path, case, call, legacy if args.role == "legacy" else fused))
    try:
        for start in range(0, len(items), args.batch):
            chunk = items[start:start + args.batch]
            for (path, case, call, want), result in zip(chunk, pool.run([x[2] for x in chunk])):
                name = os.path.basename(path)
                if want is None:
                    print(name + ": " + json.dumps(result))
                    continue
                check = check_fused if args.role == "fused" else check_legacy
                problem = check(case, result, want)
                if problem is None:
                    passed += 1
                else:
                    failed += 1
                    print("FAIL %s: %s" % (name, problem))
    except WorkerGone as e:
        print("FAIL the worker: " + str(e))
        return 1
    finally:
        pool.close()
    if pool.restarts:
        print("%d worker restarts" % pool.restarts)
    if args.expect is not None and passed + failed != args.expect:
        print("FAIL %d checked, expected %d" % (passed + failed, args.expect))
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


def _gmfuzz_fused(gmfuzz, path):
    run = subprocess.run([gmfuzz, "run", "--json", path], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise RuntimeError("%s run --json %s: exit %d\n%s" % (gmfuzz, path, run.returncode,
                                                               run.stderr))
    return json.loads(run.stdout)["fused"]


def fault_cases(args):
    stem = args.fault_target or os.path.splitext(os.path.basename(args.module))[0]
    env_name = args.fault_env or FAULT_ENVS.get(stem)
    if env_name is None:
        print("--fault-cases: no fault variable known for " + stem + " (--fault-env)")
        return 2
    files = []
    for p in args.paths:
        files.extend(sorted(glob.glob(os.path.join(p, stem + "-*.json")))
                     if os.path.isdir(p) else [p])
    if not files:
        print("--fault-cases: no " + stem + "-*.json in " + " ".join(args.paths))
        return 2
    by_fault = {}
    for path in files:
        fault = os.path.splitext(os.path.basename(path))[0][len(stem) + 1:]
        case = Case(load_doc(path)[0])
        by_fault.setdefault(fault, []).append((path, case, Call(case.fused_args())))
    common = dict(role="fused", module=args.module, function=args.function, device=args.device,
                  python=args.python, timeout=args.timeout)
    clean = Pool(env={env_name: None}, **common)
    shown = missed = 0
    try:
        for fault, items in sorted(by_fault.items()):
            correct = clean.run([x[2] for x in items])
            faulty_pool = Pool(env={env_name: fault}, **common)
            try:
                faulty = faulty_pool.run([x[2] for x in items])
            finally:
                faulty_pool.close()
            for (path, case, _call), good, bad in zip(items, correct, faulty):
                name = os.path.basename(path)
                problems = []
                if good[0] != "returned":
                    problems.append("without the fault: " + " ".join(map(str, good)))
                elif args.gmfuzz:
                    diff = check_fused(case, good, _gmfuzz_fused(args.gmfuzz, path))
                    if diff is not None:
                        problems.append("without the fault, unlike gmfuzz's fused model: " + diff)
                expected = CRASH_FAULTS.get(fault, "returned")
                how = None
                if bad[0] != expected:
                    problems.append("%s=%s: %s, expected the call to have %s"
                                    % (env_name, fault, " ".join(map(str, bad))[:300], expected))
                elif expected != "returned":
                    how = " ".join(map(str, bad))
                elif good[0] == "returned":
                    diff = _first_difference(bad[1], good[1])
                    how = None if diff is None else "buffers differ: " + diff
                    if how is None:
                        problems.append(env_name + "=" + fault + " does not show")
                if problems:
                    missed += 1
                    print("FAIL %s: %s" % (name, "; ".join(problems)))
                else:
                    shown += 1
                    print("SHOWS %s: %s=%s: %s" % (name, env_name, fault, how[:300]))
    except WorkerGone as e:
        print("FAIL the worker: " + str(e))
        return 1
    finally:
        clean.close()
    print("%d passed, %d failed" % (shown, missed))
    return 1 if missed else 0


def bench(args):
    case = Case(load_doc(args.paths[0])[0])
    call = Call(case.fused_args() if args.role == "fused" else case.legacy_args())
    worker = Worker(args.role, args.module, args.function, args.device, args.python,
                    timeout=args.timeout)
    try:
        worker.run([call] * 8)  # warm up
        for per_call in (1, 64):
            batches = max(1, args.calls // per_call)
            start = time.perf_counter()
            for _ in range(batches):
                results = worker.run([call] * per_call)
            seconds = time.perf_counter() - start
            if results[0][0] != "returned":
                print("the call did not return: " + " ".join(map(str, results[0])))
                return 1
            print("%3d per CALL: %9.0f cases/s (%d cases in %.2f s)"
                  % (per_call, batches * per_call / seconds, batches * per_call, seconds))
    finally:
        worker.stop()
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("paths", nargs="+", help="vectors, cases or folders of them")
    p.add_argument("--role", choices=("fused", "legacy"), default="fused")
    p.add_argument("--module", default="", help="dotted name or .py path (default: the role's)")
    p.add_argument("--function", default="")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    p.add_argument("--python", help="the worker's interpreter ($GMFUZZ_PYTHON, else this one)")
    p.add_argument("--batch", type=int, default=32, help="calls per CALL message (default 32)")
    p.add_argument("--expect", type=int, help="fail unless exactly this many were checked")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds a batch may take (default 120: room for Triton's compiles)")
    p.add_argument("--fault-cases", action="store_true")
    p.add_argument("--fault-env", help="the fault variable (default from the target's name)")
    p.add_argument("--fault-target", help="the fault cases' <target> (default: the module's stem)")
    p.add_argument("--gmfuzz", help="gmfuzz binary: check fault cases' clean runs against it")
    p.add_argument("--bench", action="store_true")
    p.add_argument("--calls", type=int, default=2000, help="cases per --bench measurement")
    args = p.parse_args(argv)
    if args.batch < 1:
        p.error("--batch must be at least 1")
    if args.fault_cases:
        if not args.module:
            p.error("--fault-cases needs --module")
        return fault_cases(args)
    return bench(args) if args.bench else replay(args)


if __name__ == "__main__":
    sys.exit(main())
