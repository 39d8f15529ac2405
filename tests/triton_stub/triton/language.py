"""NOT triton.language: see triton/__init__.py in this folder."""
import torch

int32, int64 = torch.int32, torch.int64
_program = [0]


class constexpr:
    """Only an annotation here."""


class _Pointer:
    """A pointer: the element tensor (flat) and an offset (int or int64 tensor)."""

    def __init__(self, base, offset=0):
        self.base, self.offset = base, offset

    def __add__(self, other):
        if isinstance(other, torch.Tensor):
            other = other.to(torch.int64)
        return _Pointer(self.base, self.offset + other)

    __radd__ = __add__


def _argument(a, specialize=False):
    if isinstance(a, torch.Tensor):
        return _Pointer(a.reshape(-1) if a.is_contiguous() else a.contiguous().reshape(-1))
    if isinstance(a, bool) or not isinstance(a, int):
        return a
    if specialize and a == 1:
        return 1  # Triton compiles it in as the constant 1
    dtype = torch.int32 if -2 ** 31 <= a < 2 ** 31 else torch.int64
    return torch.tensor(a, dtype=dtype)


def program_id(axis):
    assert axis == 0
    return torch.tensor(_program[0], dtype=torch.int32)


def arange(start, end):
    return torch.arange(start, end, dtype=torch.int32)


def zeros(shape, dtype):
    return torch.zeros(shape, dtype=dtype)


def _offsets_and_mask(ptr, mask):
    off = torch.as_tensor(ptr.offset, dtype=torch.int64)
    if mask is None:
        mask = torch.ones((), dtype=torch.bool)
    off, mask = torch.broadcast_tensors(off, torch.as_tensor(mask))
    live = off[mask]
    if live.numel() and (int(live.min()) < 0 or int(live.max()) >= ptr.base.numel()):
        raise IndexError("out-of-bounds access: offsets %d..%d of a buffer of %d"
                         % (int(live.min()), int(live.max()), ptr.base.numel()))
    return off, mask


def load(ptr, mask=None, other=None):
    off, mask = _offsets_and_mask(ptr, mask)
    out = torch.full(off.shape, 0 if other is None else other, dtype=ptr.base.dtype)
    out[mask] = ptr.base[off[mask]]
    return out


def store(ptr, value, mask=None):
    off, mask = _offsets_and_mask(ptr, mask)
    value = torch.as_tensor(value).to(ptr.base.dtype)
    value = torch.broadcast_to(value, off.shape)
    ptr.base[off[mask]] = value[mask]


def where(cond, a, b):
    a, b = torch.as_tensor(a), torch.as_tensor(b)
    dtype = torch.promote_types(a.dtype, b.dtype)
    return torch.where(torch.as_tensor(cond), a.to(dtype), b.to(dtype))


def cumsum(x, axis=0):
    return torch.cumsum(x, dim=axis, dtype=x.dtype)


def sum(x, axis=0):  # noqa: A001 (triton's name)
    return torch.sum(x, dim=axis, dtype=x.dtype)
