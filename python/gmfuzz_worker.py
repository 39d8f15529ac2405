"""gmfuzz's persistent Python worker: the worker protocol, version 1 (docs/TARGETS.md).

    python3 -u -B python/gmfuzz_worker.py --fd 3 --role fused|legacy \\
        --module MODULE --function FUNCTION --device cuda|cpu

The worker imports MODULE (a dotted name, or the path of a .py file; empty: sglang's module
for role fused, both paths of SPEC section 6, and gmfuzz_legacy, next to this file, for role
legacy), says HELLO on file descriptor N (a stream socket), then runs the CALL batches it is
sent: FUNCTION(**kwargs) for each call, in order, on torch tensors on --device. It answers
each batch with one RETURN. gmfuzz itself sends CALL_PLACED, whose tensors lie in a block it
shares (SHARE, a memfd), and gets RETURN_PLACED, the outputs left in the block. EOF on the
fd, or STOP, ends it (exit 0).

Speed (the harness sends thousands of cases a second): a placed batch's tensors are views of
the shared block itself on the CPU, and on CUDA of a device mirror of it (the block
registered with the driver, so that the bytes the batch spans go up in one copy and the span
of its outputs comes back in one); otherwise every tensor of a batch goes into one
staging buffer (pinned on CUDA) with one memmove each, then to the device in one copy; each
argument is an as_strided view of that arena (made once per shape and place, then reused),
the outputs of all calls lying together at its start, so that they come back in one copy
after the batch's one synchronize. No JSON after HELLO, no logging, struct.Struct objects
made once (python/worker_batch.py).

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
import mmap  # noqa: E402
import socket  # noqa: E402
import struct  # noqa: E402

from worker_batch import (ALIGN, K_HOST, K_OUT, U32, U64, Arena, ProtocolError,  # noqa: E402
                          Times, decode_call)

PROTOCOL = 2
HELLO, REFUSED, DEVICE_ERROR, STOP, CALL, RETURN = 1, 2, 5, 6, 7, 8
SHARE, CALL_PLACED, RETURN_PLACED = 9, 10, 11  # JIT = 12: python/worker_jit.py
SGLANG_MODULES = (
    "sglang.kernels.ops.kvcache.trtllm_mha_graph_metadata",
    "sglang.srt.layers.attention.triton_ops.trtllm_mha_graph_metadata",  # older trees
)
DEFAULT_FUNCTIONS = {"fused": "update_trtllm_mha_graph_metadata", "legacy": "legacy_rebuild"}
MESSAGE_MAX = 2000  # bytes of an exception's message in RETURN

HEADER = struct.Struct("<IIQ")


# ---- the stream ---------------------------------------------------------------------------

class Channel:
    """Messages on one stream socket: a 16-byte header, then the payload; a file descriptor
    may come along with a header (SHARE)."""

    def __init__(self, fd):
        self.sock = socket.socket(fileno=fd)

    def _fill(self, view, what):
        got = 0
        while got < len(view):
            n = self.sock.recv_into(view[got:])
            if not n:
                raise ProtocolError("EOF inside " + what)
            got += n

    def receive(self):
        """(type, payload as a bytearray, the descriptors passed along), or None at EOF
        between messages."""
        header = bytearray(16)
        data, fds, _flags, _addr = socket.recv_fds(self.sock, 16, 1)
        if not data:
            return None
        header[:len(data)] = data
        self._fill(memoryview(header)[len(data):], "a message header")
        kind, _reserved, length = HEADER.unpack(header)
        payload = bytearray(length)
        self._fill(memoryview(payload), "a message of %d bytes" % length)
        return kind, payload, fds

    def send(self, kind, payload):
        self.sock.sendall(HEADER.pack(kind, 0, len(payload)) + payload)


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


def first_frame(e, path):
    """"[FILE:LINE FUNCTION] " of the innermost frame of e's traceback in the file `path` (the
    target's own module), or "" when none is: how gmfuzz buckets a raise (docs/TARGETS.md)."""
    if not path:
        return ""
    found, tb = None, e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if os.path.abspath(code.co_filename) == path:
            found = (code.co_name, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return ""
    return "[%s:%d %s] " % (os.path.basename(path), found[1], found[0])


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
    """Imports torch and the module, checks the device, watches the module's JIT: (torch,
    function, watch) after HELLO."""
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
    imported_jit = "gmfuzz_jit" in sys.modules  # the module did: the worker has not yet
    import worker_jit
    watch = worker_jit.Watch(channel)
    function_name = args.function or DEFAULT_FUNCTIONS[args.role]
    function = getattr(module, function_name, None)
    if not callable(function):
        _refuse(channel, "module " + name + " (" + str(getattr(module, "__file__", None))
                + ") has no function " + function_name)
    path = getattr(module, "__file__", None)
    path = os.path.abspath(path) if path else None
    hello = {"protocol": PROTOCOL, "role": args.role, "module": name, "function": function_name,
             "file": path, "sha256": _sha256(path), "version": _version(module, name),
             "device": args.device, "torch": str(torch.__version__),
             "jit": watch.attach(imported_jit)}
    channel.send(HELLO, json.dumps(hello).encode("utf-8"))
    return torch, function, watch, path if args.role == "fused" else None


class Runner:
    def __init__(self, torch, function, device, channel, watch=None, target_file=None):
        self.torch, self.function, self.channel = torch, function, channel
        self.target_file = target_file  # a raise names its innermost frame in this file
        self.watch = watch  # worker_jit.Watch: the JIT messages of each call
        self.cuda = device == "cuda"
        self.arena = Arena(torch, device)
        self.times = Times()
        self.graphs = None
        self.block = None  # the shared block of SHARE (an mmap), once sent
        self.block_arena = None  # an Arena over it
        # CALL_PLACED used in place (run_in_place): on CUDA the block is registered with the
        # driver and copied to a device mirror of it. GMFUZZ_WORKER_IN_PLACE=0 stages its
        # tensors into the worker's own arena instead, as CALL's are (A/B measurements; on
        # the CPU, the staging code's tests on a machine without a GPU).
        self.in_place = os.environ.get("GMFUZZ_WORKER_IN_PLACE", "1") != "0"
        if self.cuda and os.environ.get("GMFUZZ_TARGET_GRAPHS") == "1":  # measured: opt-in
            import worker_graphs
            self.graphs = worker_graphs.Graphs(torch, function)
            self.times.graphs = self.graphs
            self.in_place = False

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

    def share(self, payload, fds):
        """SHARE: the block (a memfd) later CALL_PLACED messages place their tensors in."""
        if len(fds) != 1 or len(payload) != 8:
            raise ProtocolError("SHARE: %d descriptors, %d bytes" % (len(fds), len(payload)))
        (size,) = U64.unpack(payload)
        try:
            block = mmap.mmap(fds[0], size)
        except (OSError, ValueError) as e:
            raise ProtocolError("SHARE: cannot map a block of %d bytes: %s" % (size, e))
        finally:
            os.close(fds[0])
        if self.block_arena is not None:
            self.block_arena.release()
            self.block_arena = None
        if self.block is not None:
            self.block.close()
        self.block = block
        if self.in_place:
            try:
                self.block_arena = Arena(self.torch, "cuda" if self.cuda else "cpu", block)
            except Exception as e:  # staged from the block instead: slower, as correct
                sys.stderr.write("gmfuzz_worker: the shared block is staged: %s\n"
                                 % _describe(e))

    def run(self, payload, placed=False):
        """One CALL (the tensors' bytes in the payload) or CALL_PLACED (in the block)."""
        times = self.times
        times.mark("wait")
        if placed and self.block is None:
            raise ProtocolError("CALL_PLACED before any SHARE")
        if placed and self.block_arena is not None:
            return self.run_in_place(payload)
        block = self.block if placed else None
        calls, tensors = decode_call(payload, self.graphs is not None, block)
        times.mark("decode")
        groups = self.graphs.groups(calls) if self.graphs is not None else {}
        plain, runs, out_end, plain_end, at = self.lay_out(calls, tensors, groups)
        arena = self.arena
        arena.reserve(at)
        held = payload if block is None else block
        holder = (ctypes.c_char * len(held)).from_buffer(held)
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
        # the plain calls' inputs come back with their outputs: a staged CALL_PLACED leaves
        # both in the block (answer), where gmfuzz checks that the inputs are as it sent them
        self.finish_batch(arena, 0, out_end if block is None else plain_end)
        times.mark("sync")
        self.answer(calls, tensors, raised, block)
        times.mark("answer")
        times.batch(len(calls))

    def run_in_place(self, payload):
        """CALL_PLACED with the tensors used where gmfuzz placed them: views of the block on
        the CPU, of its device mirror on CUDA (the bytes the batch spans copied there, then
        back: the outputs, and what the input tensors hold, which gmfuzz checks against what
        it sent, docs/TARGETS.md "Inputs are read-only"); the outputs are left in the block;
        no staging."""
        times = self.times
        calls, tensors = decode_call(payload, False, self.block)
        end = 0
        for t in tensors:
            t.append(t[5])
            end = max(end, t[5] + t[6])
        times.mark("decode")
        raised, arena = {}, self.block_arena
        self.run_plain(calls, tensors, range(len(calls)), 0, end, raised, arena)
        times.mark("calls")
        self.finish_batch(arena, 0, end)
        times.mark("sync")
        self.answer(calls, tensors, raised, self.block, in_place=True)
        times.mark("answer")
        times.batch(len(calls))

    def finish_batch(self, arena, out_begin, out_end):
        """On CUDA, the batch's end: the bytes [out_begin, out_end) of the arena's device
        copy back into its host buffer (none when out_end is 0), then one synchronize."""
        if not self.cuda:
            return
        try:
            if out_end:
                span = slice(out_begin, out_end)
                arena.host[span].copy_(arena.dev[span], non_blocking=True)
            self.torch.cuda.synchronize()
        except Exception as e:
            self.device_error("synchronize after the batch", e)

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

    def run_plain(self, calls, tensors, ids, begin, end, raised, arena=None):
        """Calls `ids` one by one on views of `arena` (default: the staging one), their
        tensors in [begin, end) of it (copied to the device first, on CUDA)."""
        if not ids:
            return
        arena = arena or self.arena
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
        function, times, watch = self.function, self.times, self.watch
        for i in ids:
            started = time.perf_counter() if times.on else 0.0
            if watch is not None:
                watch.call = i
            try:
                function(**calls[i][0])
            except Exception as e:
                raised[i] = e
                if watch is not None:
                    watch.close_open()
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

    def raised_bytes(self, e):
        what = type_name(e).encode("utf-8", "replace")
        text = (first_frame(e, self.target_file) + _text(e)).encode("utf-8", "replace")
        if len(text) > MESSAGE_MAX:
            text = text[:MESSAGE_MAX].decode("utf-8", "ignore").encode("utf-8")
        return b"\1" + U32.pack(len(what)) + what + U32.pack(len(text)) + text

    def answer(self, calls, tensors, raised, block=None, in_place=False):
        """RETURN: every call's OUT tensors from the host arena, or what it raised. With
        `block` (CALL_PLACED), RETURN_PLACED: the OUT tensors, and what the IN tensors hold
        after the call, go back to their places in the block instead, unless the calls ran
        `in_place` there."""
        data, host = self.arena.host_bytes, self.arena.host_ptr
        holder = None
        if block is not None and not in_place:
            holder = (ctypes.c_char * len(block)).from_buffer(block)
        base, memmove = 0 if holder is None else ctypes.addressof(holder), ctypes.memmove
        parts = [U32.pack(len(calls))]
        append = parts.append
        for index, (kwargs, out, _key, first, last) in enumerate(calls):
            e = raised.get(index)
            if e is not None:
                append(self.raised_bytes(e))
                continue
            append(b"\0")
            if block is None:
                for k in out:
                    t = tensors[k]
                    append(U64.pack(t[6]))
                    append(data[t[7]:t[7] + t[6]])
            elif holder is not None:
                for t in tensors[first:last]:
                    if t[6] and t[2] != K_HOST:
                        memmove(base + t[5], host + t[7], t[6])
        del holder
        for call in calls:
            call[0].clear()  # the arena views go now, not when the next batch comes
        self.channel.send(RETURN if block is None else RETURN_PLACED, b"".join(parts))


def main(argv=None):
    parser = argparse.ArgumentParser(description="gmfuzz's Python worker (protocol 1)")
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--role", choices=("fused", "legacy"), required=True)
    parser.add_argument("--module", default="")
    parser.add_argument("--function", default="")
    parser.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    args = parser.parse_args(argv)
    channel = Channel(args.fd)
    torch, function, watch, target_file = start(args, channel)
    runner = Runner(torch, function, args.device, channel, watch, target_file)
    try:
        while True:
            message = channel.receive()
            if message is None or message[0] == STOP:
                runner.times.report()
                return 0
            kind, payload, fds = message
            if kind == SHARE:
                runner.share(payload, fds)
            elif fds:
                raise ProtocolError("a descriptor with message type %d" % kind)
            elif kind in (CALL, CALL_PLACED):
                runner.run(payload, kind == CALL_PLACED)
            else:
                raise ProtocolError("unexpected message type %d" % kind)
    except ProtocolError as e:
        sys.stderr.write("gmfuzz_worker: protocol error: " + str(e) + "\n")
        return 2
    except (BrokenPipeError, ConnectionResetError):
        return 0  # gmfuzz went away while we answered


if __name__ == "__main__":
    sys.exit(main())
