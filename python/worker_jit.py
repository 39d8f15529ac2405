"""The worker's view of its target's JIT (docs/TARGETS.md, "Compiles and loads").

While a call of the batch runs, every compile or load of a kernel goes to gmfuzz as a JIT
message naming the call: STARTED when it begins (from then on the call is bounded by the
compile limit, not the execution limit), COMPILED or LOADED with its seconds when it ends.
Two sources feed it, both into python/gmfuzz_jit.py's sink:

- Triton, when the target imported it: its own hooks. `knobs.runtime.jit_cache_hook` runs
  before a kernel missing from the in-process cache is compiled or fetched from the on-disk
  cache, `knobs.compilation.listener` inside that step says which of the two it was
  (`cache_hit`), and `knobs.runtime.jit_post_compile_hook` runs once the kernel is ready.
  Hooks already set are chained, never replaced; a pre-hook that returns True (skip the
  compile) is honoured.
- any other JIT that calls gmfuzz_jit.started()/finished() itself (examples/specializing_cpu.py).
"""
import struct
import sys

import gmfuzz_jit

JIT = 12  # the message type
_HEAD = struct.Struct("<IBdI")
KEY_MAX = 200


class Watch:
    """Sends the target's compiles and loads for the call under way (`call`)."""

    def __init__(self, channel):
        self.channel = channel
        self.call = 0
        self.source = None  # what HELLO says: "triton", "gmfuzz_jit" or None
        gmfuzz_jit.set_sink(self._event)

    def attach(self, target_imported_gmfuzz_jit):
        """After the target's import: which JIT it uses, Triton's hooks installed."""
        if "triton" in sys.modules and _install_triton(sys.modules["triton"]):
            self.source = "triton"
        elif target_imported_gmfuzz_jit:
            self.source = "gmfuzz_jit"
        return self.source

    def _event(self, event, key, seconds):
        text = key.encode("utf-8", "replace")[:KEY_MAX]
        self.channel.send(JIT, _HEAD.pack(self.call, event, seconds, len(text)) + text)

    def close_open(self):
        """A call that ended inside a compile (it raised there): the compile ends with it."""
        for key in list(gmfuzz_jit._open):
            gmfuzz_jit.finished(key)


def _install_triton(triton):
    """Chains gmfuzz_jit's calls into Triton's JIT hooks; False where this Triton has none."""
    knobs = getattr(triton, "knobs", None)
    runtime = getattr(knobs, "runtime", None)
    compilation = getattr(knobs, "compilation", None)
    if runtime is None or not hasattr(runtime, "jit_cache_hook") or \
            not hasattr(runtime, "jit_post_compile_hook"):
        return False
    before, after = runtime.jit_cache_hook, runtime.jit_post_compile_hook
    listener = getattr(compilation, "listener", None) if compilation is not None else None
    hit = {}  # key -> whether the on-disk cache had it (the listener says)

    def pre(**kwargs):
        if before is not None and before(**kwargs):
            return True  # another hook skips this compile: nothing runs
        gmfuzz_jit.started(kwargs.get("key", "?"))
        return False

    def heard(**kwargs):
        hit["last"] = bool(kwargs.get("cache_hit", False))
        if listener is not None:
            listener(**kwargs)

    def post(**kwargs):
        result = after(**kwargs) if after is not None else None
        gmfuzz_jit.finished(kwargs.get("key", "?"), loaded=hit.pop("last", False))
        return result

    runtime.jit_cache_hook = pre
    runtime.jit_post_compile_hook = post
    if compilation is not None and hasattr(compilation, "listener"):
        compilation.listener = heard
    return True
