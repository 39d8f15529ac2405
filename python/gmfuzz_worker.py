"""gmfuzz's persistent Python worker: the worker protocol, version 1 (docs/TARGETS.md).

    python3 -u -B python/gmfuzz_worker.py --fd 3 --role fused|legacy \\
        --module MODULE --function FUNCTION --device cuda|cpu

The worker imports MODULE (a dotted name, or the path of a .py file; empty: sglang's module
for role fused, both paths of SPEC section 6, and gmfuzz_legacy, next to this file, for role
legacy), says HELLO on file descriptor N (a stream socket), then runs the CALL batches it is
sent: FUNCTION(**kwargs) for each call, in order, on torch tensors on --device. It answers
each batch with one RETURN. EOF on the fd, or STOP, ends it (exit 0).

Speed (the harness sends thousands of cases a second): every tensor of a batch goes into one
staging buffer (pinned on CUDA) with one memmove each, then to the device in one copy; each
argument is an as_strided view of that arena (made once per shape and place, then reused),
the outputs of all calls lying together at its start, so that they come back in one copy
after the batch's one synchronize. No JSON after
HELLO, no logging, struct.Struct objects made once.

Measured with python/worker_client.py --bench (torch 1.13 CPU, Python 3.11, one shared core
of a 2-core VM): see docs/TARGETS.md, "Worker throughput".

Deviations: none from the protocol. Where the protocol says nothing: a message of an unknown
type, a malformed CALL or EOF inside a message is a protocol error (a line on stderr, exit 2);
the module's name in HELLO is the name it was imported under (a file's stem for a path); a
function that is missing or not callable is REFUSED like a failed import.
"""
import os
import sys
import time

os.dup2(2, 1)  # first thing: the target's prints go to stderr, never into the stream

import argparse  # noqa: E402
import ctypes  # noqa: E402
import hashlib  # noqa: E402
import importlib  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import struct  # noqa: E402

PROTOCOL = 1
HELLO, REFUSED, DEVICE_ERROR, STOP, CALL, RETURN = 1, 2, 5, 6, 7, 8
K_NONE, K_INT, K_STR, K_IN, K_OUT, K_HOST = 0, 1, 2, 3, 4, 5
SGLANG_MODULES = (
    "sglang.kernels.ops.kvcache.trtllm_mha_graph_metadata",
    "sglang.srt.layers.attention.triton_ops.trtllm_mha_graph_metadata",  # older trees
)
DEFAULT_FUNCTIONS = {"fused": "update_trtllm_mha_graph_metadata", "legacy": "legacy_rebuild"}
MESSAGE_MAX = 2000  # bytes of an exception's message in RETURN
ALIGN = 256  # every tensor of a batch starts at a multiple of this in the arena
VIEW_CACHE = 4096  # arena views kept for reuse (a batch of the same shapes makes none)

HEADER = struct.Struct("<IIQ")
U8 = struct.Struct("<B")
U16 = struct.Struct("<H")
U32 = struct.Struct("<I")
I64 = struct.Struct("<q")
U64 = struct.Struct("<Q")
TENSOR_HEAD = struct.Struct("<BB")
DIMS = {1: struct.Struct("<Q"), 2: struct.Struct("<QQ")}


class ProtocolError(Exception):
    """gmfuzz sent something this worker does not understand."""


# ---- the stream ---------------------------------------------------------------------------

class Channel:
    """Messages on one file descriptor: a 16-byte header, then the payload."""

    def __init__(self, fd):
        self.fd = fd
        self.reader = open(fd, "rb", buffering=1 << 16, closefd=False)

    def receive(self):
        """(type, payload as a bytearray), or None at EOF between messages."""
        header = self.reader.read(16)
        if not header:
            return None
        if len(header) != 16:
            raise ProtocolError("EOF inside a message header")
        kind, _reserved, length = HEADER.unpack(header)
        payload = bytearray(length)
        if length:
            view, got = memoryview(payload), 0
            while got < length:
                n = self.reader.readinto(view[got:])
                if not n:
                    raise ProtocolError("EOF inside a message of %d bytes" % length)
                got += n
        return kind, payload

    def send(self, kind, payload):
        data = memoryview(HEADER.pack(kind, 0, len(payload)) + payload)
        while data:
            data = data[os.write(self.fd, data):]


# ---- start-up -----------------------------------------------------------------------------

def _refuse(channel, why):
    try:
        channel.send(REFUSED, why.encode("utf-8", "replace"))
    finally:
        sys.stderr.write("gmfuzz_worker: refused: " + why + "\n")
        sys.exit(1)


def _describe(e):
    return type_name(e) + ": " + _text(e)


def _text(e):
    try:
        return str(e)
    except Exception:  # a __str__ that raises
        return "<unprintable " + type(e).__name__ + ">"


def type_name(e):
    """The exception's type: builtins unqualified, else qualified with its module."""
    t = type(e)
    module = getattr(t, "__module__", None)
    name = getattr(t, "__qualname__", t.__name__)
    return name if module in (None, "builtins") else module + "." + name


def _load_file(path):
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError("cannot make a module of " + path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def load_module(spec, role):
    """The module to call: (module, name imported). Raises ImportError saying what failed."""
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.append(here)
    if spec.endswith(".py") or os.sep in spec:
        try:
            return _load_file(spec), os.path.splitext(os.path.basename(spec))[0]
        except (Exception, SystemExit) as e:
            raise ImportError("cannot load " + spec + ": " + _describe(e))
    names = [spec] if spec else list(SGLANG_MODULES) if role == "fused" else ["gmfuzz_legacy"]
    failures = []
    for name in names:
        try:
            return importlib.import_module(name), name
        except (Exception, SystemExit) as e:
            failures.append(name + ": " + _describe(e))
    raise ImportError("cannot import " + "; ".join(failures))


def _version(module, name):
    for candidate in (module, sys.modules.get(name.split(".")[0])):
        v = getattr(candidate, "__version__", None)
        if v is not None:
            return str(v)
    return None


def _sha256(path):
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def _try(what):
    """(value, None) from what(), or (None, 'TYPE: message') where it raised."""
    try:
        return what(), None
    except (Exception, SystemExit) as e:
        return None, _describe(e)


def _cuda_context(torch):
    if not torch.cuda.is_available():
        raise RuntimeError("torch " + torch.__version__ + " sees no CUDA device")
    torch.zeros(1, device="cuda")  # the context, before the first call's clock
    torch.cuda.synchronize()


def start(args, channel):
    """Imports torch and the module, checks the device: (torch, function) after HELLO."""
    torch, why = _try(lambda: importlib.import_module("torch"))
    if why is not None:
        _refuse(channel, "cannot import torch: " + why)
    if args.device == "cuda":
        _, why = _try(lambda: _cuda_context(torch))
        if why is not None:
            _refuse(channel, "--device cuda: " + why)
    try:
        module, name = load_module(args.module, args.role)
    except (Exception, SystemExit) as e:
        module, why = None, _text(e) if isinstance(e, ImportError) else _describe(e)
    if module is None:
        _refuse(channel, why)
    function_name = args.function or DEFAULT_FUNCTIONS[args.role]
    function = getattr(module, function_name, None)
    if not callable(function):
        _refuse(channel, "module " + name + " (" + str(getattr(module, "__file__", None))
                + ") has no function " + function_name)
    path = getattr(module, "__file__", None)
    path = os.path.abspath(path) if path else None
    hello = {"protocol": PROTOCOL, "role": args.role, "module": name, "function": function_name,
             "file": path, "sha256": _sha256(path), "version": _version(module, name),
             "device": args.device, "torch": str(torch.__version__)}
    channel.send(HELLO, json.dumps(hello).encode("utf-8"))
    return torch, function


# ---- batches ------------------------------------------------------------------------------

class Arena:
    """One batch's tensors: a host staging buffer (pinned on CUDA) and, on CUDA, its device
    copy; both grow as needed and are reused from batch to batch."""

    def __init__(self, torch, device):
        self.torch, self.cuda = torch, device == "cuda"
        self.capacity = 0
        self._grow(1 << 16)

    def _grow(self, need):
        torch = self.torch
        cap = max(need, 2 * self.capacity)
        cap = (cap + ALIGN - 1) // ALIGN * ALIGN
        self.host = torch.empty(cap, dtype=torch.uint8, pin_memory=self.cuda)
        self.host_ptr = self.host.data_ptr()
        self.host_views = {4: self.host.view(torch.int32), 8: self.host.view(torch.int64)}
        self.host_bytes = memoryview((ctypes.c_char * cap).from_address(self.host_ptr)).cast("B")
        if self.cuda:
            self.dev = torch.empty(cap, dtype=torch.uint8, device="cuda")
            self.dev_views = {4: self.dev.view(torch.int32), 8: self.dev.view(torch.int64)}
        else:
            self.dev, self.dev_views = self.host, self.host_views
        self.capacity = cap
        self.views = {}  # (kind is HOST, esize, dims, offset) -> the tensor, while cap holds

    def view(self, host, esize, dims, offset):
        """The arena's tensor of `dims` at byte `offset` (made once, then reused)."""
        key = (host, esize, dims, offset)
        t = self.views.get(key)
        if t is None:
            if len(self.views) >= VIEW_CACHE:
                self.views.clear()
            base = (self.host_views if host else self.dev_views)[esize]
            strides = (1,) if len(dims) == 1 else (dims[1], 1)
            t = self.views[key] = base.as_strided(dims, strides, offset // esize)
        return t

    def reserve(self, size):
        if size > self.capacity:
            self._grow(size)


def decode_call(payload, keyed=False):
    """Parses CALL: (calls, tensors). calls: (kwargs, out, key, first, last) per call (out:
    the OUT tensors' indexes in `tensors`; its tensors are tensors[first:last]; key, with
    `keyed`, what its shape is: every argument but the contents of its device tensors, or
    None); tensors: [kwargs, name, kind, esize, dims, source offset, nbytes]."""
    end = len(payload)
    try:
        (count,) = U32.unpack_from(payload, 0)
        at = 4
        calls, tensors = [], []
        for _ in range(count):
            (n_args,) = U32.unpack_from(payload, at)
            at += 4
            kwargs, out, first, shape = {}, [], len(tensors), []
            for _ in range(n_args):
                (length,) = U16.unpack_from(payload, at)
                at += 2
                name = payload[at:at + length].decode("ascii")
                kind = payload[at + length]
                at += length + 1
                if kind == K_INT:
                    kwargs[name] = I64.unpack_from(payload, at)[0]
                    at += 8
                elif kind == K_NONE:
                    kwargs[name] = None
                elif kind == K_STR:
                    (length,) = U32.unpack_from(payload, at)
                    if at + 4 + length > end:
                        raise ProtocolError("argument " + name + ": string past the payload")
                    kwargs[name] = payload[at + 4:at + 4 + length].decode("utf-8")
                    at += 4 + length
                elif K_IN <= kind <= K_HOST:
                    esize, rank = TENSOR_HEAD.unpack_from(payload, at)
                    if esize not in (4, 8) or rank not in (1, 2):
                        raise ProtocolError("argument %s: element size %d, rank %d"
                                            % (name, esize, rank))
                    dims = DIMS[rank].unpack_from(payload, at + 2)
                    at += 2 + 8 * rank
                    nbytes = esize
                    for d in dims:
                        nbytes *= d
                    if at + nbytes > end:
                        raise ProtocolError("argument " + name + ": tensor past the payload")
                    if kind == K_OUT:
                        out.append(len(tensors))
                    kwargs[name] = None
                    tensors.append([kwargs, name, kind, esize, dims, at, nbytes])
                    if keyed:
                        shape.append((name, kind, esize, dims, bytes(payload[at:at + nbytes])
                                       if kind == K_HOST else None))
                    at += nbytes
                else:
                    raise ProtocolError("argument %s: unknown kind %d" % (name, kind))
                if keyed and kind < K_IN:
                    shape.append((name, kind, kwargs[name]))
            calls.append((kwargs, out, tuple(shape) if keyed else None, first, len(tensors)))
    except (struct.error, IndexError, UnicodeDecodeError) as e:
        raise ProtocolError("malformed CALL: " + _describe(e))
    if at != end:
        raise ProtocolError("CALL: %d bytes after the last call" % (end - at))
    return calls, tensors


class Times:
    """Where the worker's time goes, with $GMFUZZ_WORKER_TIMES set: seconds per phase,
    printed to stderr (the hub's log) every 5 s and at the end."""

    PHASES = ("wait", "decode", "stage", "upload", "calls", "graphs", "sync", "answer")

    def __init__(self):
        self.on = bool(os.environ.get("GMFUZZ_WORKER_TIMES"))
        self.total = dict.fromkeys(self.PHASES, 0.0)
        self.cases = self.batches = 0
        self.last = self.printed = time.perf_counter()
        self.graphs = None  # worker_graphs.Graphs, whose counts join the line
        self.slow, self.slow_s = 0, 0.0  # calls of SLOW_S or more, and their seconds

    def mark(self, phase):
        if self.on:
            now = time.perf_counter()
            self.total[phase] += now - self.last
            self.last = now

    SLOW_S = 0.005  # a call this long is the target compiling or loading a kernel

    def call(self, seconds):
        if seconds >= self.SLOW_S:
            self.slow += 1
            self.slow_s += seconds

    def batch(self, cases):
        if not self.on:
            return
        self.cases += cases
        self.batches += 1
        if self.last - self.printed >= 5.0:
            self.report()

    def report(self):
        if not self.on or not self.cases:
            return
        self.printed = self.last
        per = " ".join("%s %.1f" % (k, v * 1e6 / self.cases) for k, v in self.total.items())
        graphs = "; " + self.graphs.report() if self.graphs is not None else ""
        sys.stderr.write("gmfuzz_worker: %d cases in %d batches; us a case: %s; %d plain calls "
                         "of 5 ms or more (%.2f s: compiles, loads)%s\n"
                         % (self.cases, self.batches, per, self.slow, self.slow_s, graphs))
        sys.stderr.flush()


class Runner:
    def __init__(self, torch, function, device, channel):
        self.torch, self.function, self.channel = torch, function, channel
        self.cuda = device == "cuda"
        self.arena = Arena(torch, device)
        self.times = Times()
        self.graphs = None
        if self.cuda and os.environ.get("GMFUZZ_TARGET_GRAPHS") == "1":  # measured: opt-in
            import worker_graphs
            self.graphs = worker_graphs.Graphs(torch, function)
            self.times.graphs = self.graphs

    def device_error(self, what, e):
        text = what + ": " + _describe(e)
        try:
            self.channel.send(DEVICE_ERROR, text.encode("utf-8", "replace"))
        finally:
            sys.stderr.write("gmfuzz_worker: device error: " + text + "\n")
            sys.stderr.flush()
            os._exit(1)  # a sticky CUDA error: no clean interpreter shutdown

    def after_raise(self, e):
        """A call raised: on CUDA, whether the device is still usable."""
        if self.cuda:
            try:
                self.torch.cuda.synchronize()
            except Exception as e2:
                self.device_error("synchronize after " + type_name(e), e2)

    def run(self, payload):
        times = self.times
        times.mark("wait")
        calls, tensors = decode_call(payload, self.graphs is not None)
        times.mark("decode")
        groups = self.graphs.groups(calls) if self.graphs is not None else {}
        plain, runs, out_end, plain_end, at = self.lay_out(calls, tensors, groups)
        arena = self.arena
        arena.reserve(at)
        holder = (ctypes.c_char * len(payload)).from_buffer(payload)
        source = ctypes.addressof(holder)
        host = arena.host_ptr
        memmove = ctypes.memmove
        for t in tensors:
            if t[6]:
                memmove(host + t[7], source + t[5], t[6])
        del holder
        times.mark("stage")
        raised = {}
        self.run_plain(calls, tensors, plain, 0, plain_end, raised)
        times.mark("calls")
        for run in runs:
            self.run_shape(calls, tensors, run, raised)
        times.mark("graphs")
        if self.cuda:
            try:
                if out_end:
                    arena.host[:out_end].copy_(arena.dev[:out_end], non_blocking=True)
                self.torch.cuda.synchronize()
            except Exception as e:
                self.device_error("synchronize after the batch", e)
        times.mark("sync")
        self.answer(calls, tensors, raised)
        times.mark("answer")
        times.batch(len(calls))

    def lay_out(self, calls, tensors, groups):
        """Gives every tensor its place in the arena (appended to its entry): the plain calls'
        OUT tensors first, then their others (one copy each way); then, for each shape,
        its calls' OUT tensors one slot apart, then their others. Returns (plain call
        indexes, runs, the plain OUT tensors' end, the plain tensors' end, the end)."""
        taken = set()
        for ids in groups.values():
            taken.update(ids)
        plain = [i for i in range(len(calls)) if i not in taken]
        at = 0
        for want_out in (True, False):
            for i in plain:
                for k in range(calls[i][3], calls[i][4]):
                    t = tensors[k]
                    if (t[2] == K_OUT) == want_out:
                        t.append(at)
                        at += (t[6] + ALIGN - 1) // ALIGN * ALIGN
            if want_out:
                out_end = at
        plain_end, runs = at, []
        for key, ids in groups.items():
            places, out_slot, in_slot = self.places(tensors, calls[ids[0]])
            out_at, in_at = at, at + len(ids) * out_slot
            at = in_at + len(ids) * in_slot
            for n, i in enumerate(ids):
                first = calls[i][3]
                for k in range(first, calls[i][4]):
                    p = places[k - first]
                    base = out_at + n * out_slot if p.region == 0 else in_at + n * in_slot
                    tensors[k].append(base + p.offset)
            runs.append((key, ids, places, out_slot, in_slot, out_at, in_at))
        return plain, runs, out_end, plain_end, at

    def places(self, tensors, call):
        """A call's tensors' places in its slot (worker_graphs.Place) and the two slot sizes."""
        from worker_graphs import Place
        places, size = [], [0, 0]
        for k in range(call[3], call[4]):
            _kw, name, kind, esize, dims, _src, nbytes = tensors[k][:7]
            region = 0 if kind == K_OUT else 1
            places.append(Place(name, region, size[region], esize, dims, kind == K_HOST))
            size[region] += (nbytes + ALIGN - 1) // ALIGN * ALIGN
        return places, size[0], size[1]

    def run_plain(self, calls, tensors, ids, begin, end, raised):
        """Calls `ids` one by one on views of the arena, their tensors staged in
        [begin, end) (copied to the device first, on CUDA)."""
        if not ids:
            return
        arena = self.arena
        if self.cuda and end > begin:
            try:
                arena.dev[begin:end].copy_(arena.host[begin:end], non_blocking=True)
            except Exception as e:
                self.device_error("copy of a batch's inputs to the device", e)
        views, view = arena.views, arena.view
        for i in ids:
            for k in range(calls[i][3], calls[i][4]):
                kwargs, name, kind, esize, dims, _src, _n, offset = tensors[k]
                key = (kind == K_HOST, esize, dims, offset)
                t = views.get(key)
                kwargs[name] = t if t is not None else view(*key)
        self.times.mark("upload")
        function, times = self.function, self.times
        for i in ids:
            started = time.perf_counter() if times.on else 0.0
            try:
                function(**calls[i][0])
            except Exception as e:
                raised[i] = e
                self.after_raise(e)
            if times.on:
                times.call(time.perf_counter() - started)

    def run_shape(self, calls, tensors, run, raised):
        """The calls of one shape from its CUDA graph (worker_graphs.py), or, where it cannot
        be captured, as plain calls."""
        key, ids, places, out_slot, in_slot, out_at, in_at = run
        arena = self.arena
        first = calls[ids[0]][3]
        for p, t in zip(places, tensors[first:calls[ids[0]][4]]):
            if p.host:  # the shape's own copy of the value (every call of it has the same)
                strides = (1,) if len(p.dims) == 1 else (p.dims[1], 1)
                p.value = arena.host_views[p.esize].as_strided(
                    p.dims, strides, t[7] // p.esize).clone()
        try:
            shape = self.graphs.shape(key, len(ids), calls[ids[0]][0], places, out_slot, in_slot,
                                      arena.host, out_at, in_at)
        except Exception as e:
            self.device_error("capture of a CUDA graph", e)
        if shape is None:
            end = in_at + len(ids) * in_slot
            self.run_plain(calls, tensors, ids, out_at, end, raised)
            if out_slot:
                try:
                    span = slice(out_at, out_at + len(ids) * out_slot)
                    arena.host[span].copy_(arena.dev[span], non_blocking=True)
                except Exception as e:
                    self.device_error("copy of a batch's outputs to the host", e)
            return
        try:
            self.graphs.run(shape, ids, arena.host, out_at, in_at, raised, self.after_raise)
        except Exception as e:
            self.device_error("replay of a CUDA graph", e)

    def answer(self, calls, tensors, raised):
        """RETURN: every call's OUT tensors from the host arena, or what it raised."""
        data = self.arena.host_bytes
        parts = [U32.pack(len(calls))]
        append = parts.append
        for index, (kwargs, out, _key, _first, _last) in enumerate(calls):
            e = raised.get(index)
            if e is None:
                append(b"\0")
                for k in out:
                    t = tensors[k]
                    append(U64.pack(t[6]))
                    append(data[t[7]:t[7] + t[6]])
            else:
                what = type_name(e).encode("utf-8", "replace")
                text = _text(e).encode("utf-8", "replace")
                if len(text) > MESSAGE_MAX:
                    text = text[:MESSAGE_MAX].decode("utf-8", "ignore").encode("utf-8")
                append(b"\1" + U32.pack(len(what)) + what + U32.pack(len(text)) + text)
        for call in calls:
            call[0].clear()  # the arena views go now, not when the next batch comes
        self.channel.send(RETURN, b"".join(parts))


def main(argv=None):
    parser = argparse.ArgumentParser(description="gmfuzz's Python worker (protocol 1)")
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--role", choices=("fused", "legacy"), required=True)
    parser.add_argument("--module", default="")
    parser.add_argument("--function", default="")
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    args = parser.parse_args(argv)
    channel = Channel(args.fd)
    torch, function = start(args, channel)
    runner = Runner(torch, function, args.device, channel)
    try:
        while True:
            message = channel.receive()
            if message is None or message[0] == STOP:
                runner.times.report()
                return 0
            if message[0] != CALL:
                raise ProtocolError("unexpected message type %d" % message[0])
            runner.run(message[1])
    except ProtocolError as e:
        sys.stderr.write("gmfuzz_worker: protocol error: " + str(e) + "\n")
        return 2
    except BrokenPipeError:
        return 0  # gmfuzz went away while we answered


if __name__ == "__main__":
    sys.exit(main())
