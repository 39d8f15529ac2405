"""CUDA-graph replay of the calls of a batch that share one shape (docs/TARGETS.md,
"Graph replay"); used by gmfuzz_worker.py on CUDA.

A Triton entry point spends 30-55 us of Python on every call (its launcher) before the GPU
does anything, and on a loaded host several times that; a captured graph of the same calls
replays in a few microseconds. So the calls of a batch whose arguments agree in everything
but the contents of their device tensors (the same integers, strings and None arguments, the
same tensor shapes and dtypes, the same values in host tensors) form one *shape*: the worker
runs FUNCTION once on static device tensors (its warm-up: Triton compiles there), captures
S calls of it on S sets of such tensors ("slots") in one graph, and from then on runs every
S calls of that shape as: their tensors copied into the slots, one replay, their outputs
copied back. Calls left over (fewer than S) run as plain calls on the slots.

Capturing S calls costs S + 1 calls of the launcher, so S grows with the calls a batch
holds of the shape (a quarter of them, a power of two, at most SLOTS): a shape met once in
a run of 32 calls captures 8 and replays 4 times. The capture does not go through
torch.cuda.graph, whose entry collects Python's garbage and empties the allocator's cache
every time (milliseconds, where a run of calls has tens of microseconds a call).

Faithful as far as the target is: its host-side decisions may depend only on what a shape
fixes, as they must for sglang, which replays the kernel inside its own CUDA graphs. A target
that reads a device value on the host (.item(), a shape that depends on data) cannot be
captured; its shape falls back to plain calls for good, as does a shape whose warm-up call
raised (plain calls then give each case its own exception).

Off unless GMFUZZ_TARGET_GRAPHS=1: measured on the H200 with 16 sweep jobs on the Triton
example (docs/TARGETS.md, "Graph replay"), capturing every new shape cost more than the
launches it saved (5,170 cases/s with runs of 32 cases a shape, 7,940 with plain calls).
"""
import collections
import os

SLOTS = 32  # calls one graph replays, at most
MIN_RUN = 8  # calls of one shape a batch must hold before the shape is captured
# Static device bytes of all shapes together (the oldest go first); the test sets less.
MAX_BYTES = int(os.environ.get("GMFUZZ_TARGET_GRAPH_BYTES", 4 << 30))


class Place:
    """Where one argument tensor of a shape's calls lies: `region` 0 holds the OUT
    tensors, 1 the others, `offset` bytes into a call's slot of it; a host tensor's value,
    the same in every call of the shape, is `value` (`host` is true for those)."""

    __slots__ = ("name", "region", "offset", "esize", "dims", "host", "value")

    def __init__(self, name, region, offset, esize, dims, host):
        self.name, self.region, self.offset = name, region, offset
        self.esize, self.dims, self.host, self.value = esize, dims, host, None


class Shape:
    """Static device tensors for `count` calls of one shape and the graph that replays
    them. scalars: the arguments that are not tensors; places: the tensors (Place)."""

    def __init__(self, torch, function, pool, scalars, places, out_slot, in_slot, count):
        self.torch, self.function, self.pool = torch, function, pool
        self.out_slot, self.in_slot, self.count = out_slot, in_slot, count
        self.dev = [torch.empty(max(count * out_slot, 8), dtype=torch.uint8, device="cuda"),
                    torch.empty(max(count * in_slot, 8), dtype=torch.uint8, device="cuda")]
        self.nbytes = count * (out_slot + in_slot)
        typed = [{4: d.view(torch.int32), 8: d.view(torch.int64)} for d in self.dev]
        self.slots = []
        for j in range(count):
            kw = dict(scalars)
            for p in places:
                if p.host:
                    kw[p.name] = p.value
                    continue
                strides = (1,) if len(p.dims) == 1 else (p.dims[1], 1)
                base = j * (out_slot if p.region == 0 else in_slot) + p.offset
                kw[p.name] = typed[p.region][p.esize].as_strided(p.dims, strides,
                                                                  base // p.esize)
            self.slots.append(kw)
        self.graph = None

    def regions(self, out_at, in_at):
        return ((0, out_at, self.out_slot), (1, in_at, self.in_slot))

    def fill(self, host, out_at, in_at):
        """Every slot from one call's staged tensors (valid inputs: a slot's stale contents
        are never out of bounds)."""
        for region, at, size in self.regions(out_at, in_at):
            if size:
                dev = self.dev[region]
                dev[:size].copy_(host[at:at + size])
                if self.count > 1:
                    rows = dev[:self.count * size].view(self.count, size)
                    rows[1:].copy_(rows[0:1].expand(self.count - 1, size))

    def capture(self, side):
        """The warm-up call, then the capture on stream `side` (a capture cannot be on the
        default stream); the slots' contents stay valid inputs throughout."""
        torch = self.torch
        self.function(**self.slots[0])  # the warm-up: compiles, allocates, may raise
        graph = torch.cuda.CUDAGraph()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            graph.capture_begin(pool=self.pool)
            try:
                for kw in self.slots:
                    self.function(**kw)
            finally:
                graph.capture_end()
        torch.cuda.current_stream().wait_stream(side)
        self.graph = graph

    def upload(self, host, out_at, in_at, n):
        for region, at, size in self.regions(out_at, in_at):
            if size:
                self.dev[region][:n * size].copy_(host[at:at + n * size], non_blocking=True)

    def download(self, host, out_at, n):
        size = self.out_slot
        if size:
            host[out_at:out_at + n * size].copy_(self.dev[0][:n * size], non_blocking=True)


class Graphs:
    """The shapes seen so far (key -> Shape, or None where capture failed) and what they
    did, for the worker's times line."""

    def __init__(self, torch, function):
        self.torch, self.function = torch, function
        self.shapes = collections.OrderedDict()
        self.nbytes = 0
        # Each graph its own memory pool: freeing a graph whose pool others share trips
        # an assertion of PyTorch's caching allocator (torch 2.11) at the next capture.
        self.pool = None
        self.side = torch.cuda.Stream()
        self.counts = dict.fromkeys(("shapes", "refused", "replays", "replayed", "plain"), 0)

    def groups(self, calls):
        """{key: [call index, ...]} of the calls to run by shape (first-call order)."""
        by = {}
        for index, call in enumerate(calls):
            by.setdefault(call[2], []).append(index)
        shapes = self.shapes
        return {key: ids for key, ids in by.items()
                if len(ids) >= MIN_RUN and shapes.get(key, True) is not None}

    def shape(self, key, n, kwargs, places, out_slot, in_slot, host, out_at, in_at):
        """The Shape of `key`, made and captured when new (for n calls of it) from the call
        with `kwargs` (its scalars; tensors None) staged at out_at and in_at; None when it
        cannot be captured (its warm-up call raised, or the capture failed)."""
        if key in self.shapes:
            self.shapes.move_to_end(key)
            return self.shapes[key]
        count = 1
        while count * 2 <= min(SLOTS, n // 4):
            count *= 2
        shape = Shape(self.torch, self.function, self.pool, kwargs, places, out_slot, in_slot,
                      count)
        try:
            shape.fill(host, out_at, in_at)
            shape.capture(self.side)
        except Exception:
            self.torch.cuda.synchronize()  # a sticky error raises here: the worker's to handle
            self.shapes[key] = None
            self.counts["refused"] += 1
            return None
        self.shapes[key] = shape
        self.nbytes += shape.nbytes
        self.counts["shapes"] += 1
        while self.nbytes > MAX_BYTES and len(self.shapes) > 1:
            _key, old = self.shapes.popitem(last=False)
            self.nbytes -= old.nbytes if old is not None else 0
        return shape

    def run(self, shape, ids, host, out_at, in_at, raised, after_raise):
        """Runs calls `ids` (staged from out_at and in_at on, one slot's size apart) on
        `shape`: shape.count at a time from the graph, the rest as plain calls on the slots.
        Exceptions of plain calls go into raised[index]; the outputs come back to the host
        staging without a synchronization."""
        n, k = len(ids), 0
        while k < n:
            m = min(shape.count, n - k)
            o, i = out_at + k * shape.out_slot, in_at + k * shape.in_slot
            shape.upload(host, o, i, m)
            if m == shape.count:
                shape.graph.replay()
                self.counts["replays"] += 1
                self.counts["replayed"] += m
            else:
                for j in range(m):
                    try:
                        shape.function(**shape.slots[j])
                    except Exception as e:
                        raised[ids[k + j]] = e
                        after_raise(e)
                self.counts["plain"] += m
            shape.download(host, o, m)
            k += m

    def report(self):
        c = self.counts
        return ("graphs: %d shapes captured, %d refused, %d replays of %d calls, %d plain calls "
                "on slots" % (c["shapes"], c["refused"], c["replays"], c["replayed"], c["plain"]))
