"""NOT Triton: a stand-in just big enough to run the kernel bodies of examples/triton_fused.py
and examples/triton_specializing.py on the CPU, one program at a time, in plain Python over
torch tensors (tests/triton_stub_target.py, tests/triton_stub_specializing_target.py). As
Triton does by default, an integer argument equal to 1 reaches the kernel as the constant 1
(a plain int) unless the kernel's do_not_specialize names it.

It checks the kernel's logic (indexing, masks, carries, the faults), not that Triton compiles
it: no types are inferred, nothing is vectorized across programs, and Python's and torch's
rules stand in for Triton's (where those differ, triton_fused.py does not depend on either:
it divides non-negative values only and casts before it mixes widths). Every load and store
is bounds-checked, masked lanes excepted, so an out-of-bounds access raises IndexError here
where the GPU would read or write memory it should not.
"""
import inspect

from . import language  # noqa: F401


def cdiv(a, b):
    return -(-a // b)


class JITFunction:
    def __init__(self, fn, do_not_specialize=()):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.params = list(inspect.signature(fn).parameters)
        self.do_not_specialize = set(do_not_specialize)

    def __call__(self, *args, **kwargs):  # a @jit helper called from a kernel
        return self.fn(*args, **kwargs)

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            constexprs = {k: v for k, v in kwargs.items() if k not in ("num_warps", "num_stages")}
            # Triton's default specialization: an integer argument equal to 1 becomes the
            # constant 1 (a plain int here), unless do_not_specialize names it.
            values = [language._argument(a, name not in self.do_not_specialize)
                      for name, a in zip(self.params, args)]
            for pid in range(grid[0] if isinstance(grid, tuple) else grid):
                language._program[0] = pid
                self.fn(*values, **constexprs)
        return launch


def jit(fn=None, do_not_specialize=(), **_options):
    if fn is None:
        return lambda f: JITFunction(f, do_not_specialize)
    return JITFunction(fn, do_not_specialize)
