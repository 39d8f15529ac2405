"""A batch of calls inside the Python worker (python/gmfuzz_worker.py, docs/TARGETS.md):
CALL and CALL_PLACED parsed into calls and tensors (decode_call), the arena the tensors are
staged in or used from (Arena), and where the worker's time goes (Times)."""
import ctypes
import gc
import os
import struct
import sys
import time

K_NONE, K_INT, K_STR, K_IN, K_OUT, K_HOST = 0, 1, 2, 3, 4, 5
ALIGN = 256  # every tensor of a batch starts at a multiple of this in the arena
VIEW_CACHE = 4096  # arena views kept for reuse (a batch of the same shapes makes none)

U16 = struct.Struct("<H")
U32 = struct.Struct("<I")
I64 = struct.Struct("<q")
U64 = struct.Struct("<Q")
TENSOR_HEAD = struct.Struct("<BB")
DIMS = {1: struct.Struct("<Q"), 2: struct.Struct("<QQ")}


class ProtocolError(Exception):
    """gmfuzz sent something this worker does not understand."""


class Arena:
    """One batch's tensors: a host buffer (pinned on CUDA) and, on CUDA, its device copy.
    Either the worker's own staging buffer, which grows as needed and is reused from batch
    to batch, or (`block`) the block gmfuzz shares (SHARE), used where it lies, its size
    fixed: on CUDA it is registered with the driver (cudaHostRegister: pinned in place, so
    that the copies to and from its device mirror need no staging); where that fails the
    constructor raises RuntimeError, and the worker stages from the block instead."""

    def __init__(self, torch, device, block=None):
        self.torch, self.cuda = torch, device == "cuda"
        self.capacity = 0
        self.registered = None  # the address of a block registered with the driver
        if block is None:
            self._grow(1 << 16)
            return
        host = torch.frombuffer(block, dtype=torch.uint8)
        if self.cuda:
            self._register(host.data_ptr(), len(block))
        self._use(host, len(block))

    def _register(self, ptr, size):
        rc = self.torch.cuda.cudart().cudaHostRegister(ptr, size, 0)
        if int(rc) != 0:
            raise RuntimeError("cudaHostRegister of the shared block (%d bytes): error %d"
                               % (size, int(rc)))
        self.registered = ptr

    def _grow(self, need):
        torch = self.torch
        cap = max(need, 2 * self.capacity)
        cap = (cap + ALIGN - 1) // ALIGN * ALIGN
        self._use(torch.empty(cap, dtype=torch.uint8, pin_memory=self.cuda), cap)

    def _use(self, host, cap):
        torch = self.torch
        self.host = host
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

    def release(self):
        """A shared block's arena, before the block is unmapped: its views gone, the block
        unregistered."""
        self.views.clear()
        self.host = self.host_views = self.dev = self.dev_views = self.host_bytes = None
        if self.registered is not None:
            self.torch.cuda.synchronize()  # no copy may still use the block
            self.torch.cuda.cudart().cudaHostUnregister(self.registered)
            self.registered = None

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


def decode_call(payload, keyed=False, block=None):
    """Parses CALL: (calls, tensors). calls: (kwargs, out, key, first, last) per call (out:
    the OUT tensors' indexes in `tensors`; its tensors are tensors[first:last]; key, with
    `keyed`, what its shape is: every argument but the contents of its device tensors, or
    None); tensors: [kwargs, name, kind, esize, dims, source offset, nbytes]. With `block`
    (CALL_PLACED: the shared block, mapped) a tensor's bytes are not in the payload but at
    the offset it gives in the block, which is then its source."""
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
                    if block is None:
                        source, at = at, at + nbytes
                        if at > end:
                            raise ProtocolError("argument " + name + ": tensor past the payload")
                    else:
                        (source,) = U64.unpack_from(payload, at)
                        at += 8
                        if source + nbytes > len(block):
                            raise ProtocolError("argument %s: bytes %d to %d, past the block's %d"
                                                % (name, source, source + nbytes, len(block)))
                    if kind == K_OUT:
                        out.append(len(tensors))
                    kwargs[name] = None
                    tensors.append([kwargs, name, kind, esize, dims, source, nbytes])
                    if keyed:
                        values = None
                        if kind == K_HOST:
                            held = payload if block is None else block
                            values = bytes(held[source:source + nbytes])
                        shape.append((name, kind, esize, dims, values))
                else:
                    raise ProtocolError("argument %s: unknown kind %d" % (name, kind))
                if keyed and kind < K_IN:
                    shape.append((name, kind, kwargs[name]))
            calls.append((kwargs, out, tuple(shape) if keyed else None, first, len(tensors)))
    except (struct.error, IndexError, UnicodeDecodeError) as e:
        kind = type(e)
        name = kind.__qualname__ if kind.__module__ == "builtins" else (
            kind.__module__ + "." + kind.__qualname__)
        raise ProtocolError("malformed CALL: %s: %s" % (name, e))
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
        self.gc_runs, self.gc_s, self.gc_started = 0, 0.0, 0.0  # the collector's passes
        self.cpu_from, self.cpu_cases = None, 0  # CPU time and cases at the first batch
        if self.on:
            gc.callbacks.append(self._collected)

    def _collected(self, phase, _info):
        if phase == "start":
            self.gc_started = time.perf_counter()
        else:
            self.gc_runs += 1
            self.gc_s += time.perf_counter() - self.gc_started

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
        if self.cpu_from is None:  # from the first batch on: the start-up is not a case's
            self.cpu_from, self.cpu_cases = time.process_time(), cases
        self.cases += cases
        self.batches += 1
        if self.last - self.printed >= 5.0:
            self.report()

    def report(self):
        if not self.on or not self.cases:
            return
        self.printed = self.last
        per = " ".join("%s %.1f" % (k, v * 1e6 / self.cases) for k, v in self.total.items())
        after_first = self.cases - self.cpu_cases
        if after_first > 0:  # CPU time, not the phases' wall time a loaded host stretches
            per += ", cpu %.1f" % ((time.process_time() - self.cpu_from) * 1e6 / after_first)
        graphs = "; " + self.graphs.report() if self.graphs is not None else ""
        sys.stderr.write("gmfuzz_worker: %d cases in %d batches; us a case: %s; %d plain calls "
                         "of 5 ms or more (%.2f s: compiles, loads); %d collections (%.3f s)%s\n"
                         % (self.cases, self.batches, per, self.slow, self.slow_s, self.gc_runs,
                            self.gc_s, graphs))
        sys.stderr.flush()


