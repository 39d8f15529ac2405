"""What a JIT-compiling target tells gmfuzz's worker: when it compiles or loads a kernel.

A target that compiles kernels on first use (Triton, a CUDA JIT of its own, torch.compile)
makes its first call of each specialization slow: seconds, tens of seconds for a wide block.
gmfuzz bounds a call's EXECUTION by --target-timeout and gives compiles their own, generous
limit (--target-compile-timeout); to tell them apart the worker must know when a compile or a
load is under way (docs/TARGETS.md, "Compiles and loads").

Triton's JIT is watched by the worker itself, through Triton's own hooks (python/worker_jit.py).
Any other JIT says it with two calls, made around the work, in the thread of the call:

    try:
        import gmfuzz_jit          # on sys.path inside gmfuzz's worker (python/)
    except ImportError:
        gmfuzz_jit = None
    ...
    if gmfuzz_jit is not None:
        gmfuzz_jit.started(key)                    # a compile or a load of `key` begins
    ...                                            # compile it, or load it from a cache
    if gmfuzz_jit is not None:
        gmfuzz_jit.finished(key, loaded=hit)       # it is done: loaded from an on-disk
                                                   # cache (hit) or compiled here

Importing this module at the top of the target's module is what declares it: the worker's
HELLO then says "jit": "gmfuzz_jit". Outside a worker (no sink set), both calls do nothing.
`key` is any short text naming the specialization (it goes to logs).
"""

_sink = None  # set by the worker: sink(event, key, seconds)
STARTED, COMPILED, LOADED = 1, 2, 3
_open = {}  # key -> perf_counter() when it started


def set_sink(sink):
    """The worker's receiver of events (None: events are dropped)."""
    global _sink
    _sink = sink


def started(key):
    """A compile or a load of `key` begins: its time is not the call's execution time."""
    import time
    key = str(key)
    _open[key] = time.perf_counter()
    if _sink is not None:
        _sink(STARTED, key, 0.0)


def finished(key, loaded=False):
    """The compile (loaded False) or the load from an on-disk cache (loaded True) of `key`
    is done; the seconds since started(key) are its cost."""
    import time
    key = str(key)
    began = _open.pop(key, None)
    seconds = time.perf_counter() - began if began is not None else 0.0
    if _sink is not None:
        _sink(LOADED if loaded else COMPILED, key, seconds)
