"""What examples/triton_specializing.py (the Triton kernel) and examples/specializing_cpu.py
(its CPU stand-in) share, so that both make the same launch decisions, specialize on the same
key and plant the same faults. Plain Python: no torch, no triton (tensors are only asked for
.numel() and .stride(0)).

The launch (gmfuzz SPEC section 3): one grid of bs row programs, 1 scan program and
ceil(out_len / BLOCK_O) SWA-out programs, with these compile-time constants:

    BLOCK_P             page-table columns per step of a row program (512)
    BLOCK_O             SWA write locations per SWA-out program (512)
    BS_BLOCK            next_power_of_2(bs): the scan program covers every row in one block
    PAGE_SIZE           the page size itself
    HAS_SWA_PAGE_TABLE, HAS_SWA_OUT, HAS_OUT_CACHE_LOC, Q_MODE, FAULT

and the integer arguments bs, seqlen_offset, max_seq_pages, req_stride, table_stride,
num_out_tokens, out_len, q_stride, which Triton specializes by default (no
do_not_specialize): each one equal to 1 becomes a constant, each one divisible by 16 is
marked so, and each is typed i32 or i64 by its value. specialization_key() spells that out:
one key, one compiled kernel.
"""
import os

Q_MODE_NONE, Q_MODE_CUMSUM, Q_MODE_STRIDED = 0, 1, 2
BLOCK_P = 512
BLOCK_O = 512
SCAN_RESTART_ROW = 1000  # the scan_past_1000 fault's row

FAULT_ENV = "GMFUZZ_SPEC_FAULT"
FAULTS = {"": 0, "scan_past_1000": 1, "swa_out_tile_pad": 2, "page_cols_past_512": 3,
          "loc_sentinel_eq": 4, "tok_guard_dropped": 5, "floor_div": 6, "bs1_no_offset": 7}
F_SCAN_PAST_1000, F_SWA_OUT_TILE_PAD, F_PAGE_COLS_PAST_512 = 1, 2, 3
F_LOC_SENTINEL_EQ, F_TOK_GUARD_DROPPED, F_FLOOR_DIV, F_BS1_NO_OFFSET = 4, 5, 6, 7

# The integer arguments and the constexprs, in the kernel's order.
INT_ARGS = ("bs", "seqlen_offset", "max_seq_pages", "req_stride", "table_stride",
            "num_out_tokens", "out_len", "q_stride")
CONSTEXPRS = ("BLOCK_P", "BLOCK_O", "BS_BLOCK", "PAGE_SIZE", "HAS_SWA_PAGE_TABLE",
              "HAS_SWA_OUT", "HAS_OUT_CACHE_LOC", "Q_MODE", "FAULT")


def fault_code(bs):
    """The planted fault of this call, read from the environment at every call (unset or
    empty: none). bs1_no_offset lives only in the kernel compiled for bs == 1 (the one
    Triton specializes bs into a constant): for every other bs the call is correct."""
    name = os.environ.get(FAULT_ENV, "")
    if name not in FAULTS:
        raise ValueError(FAULT_ENV + "=" + name + ": no such fault ("
                         + ", ".join(n for n in FAULTS if n) + ")")
    code = FAULTS[name]
    return 0 if code == F_BS1_NO_OFFSET and bs != 1 else code


def next_power_of_2(n):
    """The smallest power of 2 >= n (1 for n <= 1)."""
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def cdiv(a, b):
    return -(-a // b)


class Launch:
    """One call's launch: `ints` (the integer arguments by name, in INT_ARGS order),
    `constexprs` (the compile-time constants by name), `programs` (the grid's size) and
    `key` (its specialization_key)."""

    def __init__(self, ints, constexprs):
        self.ints, self.constexprs = ints, constexprs
        self.programs = ints["bs"] + 1 + cdiv(ints["out_len"], BLOCK_O)
        self.key = specialization_key(ints, constexprs)


def plan(*, bs, seqlen_offset, max_seq_pages, page_size, req_to_token, page_table,
         swa_page_table, out_cache_loc, swa_out_cache_loc, q_mode, q_stride, fault):
    """The launch decisions of SPEC section 3 for one call (bs >= 1)."""
    has_swa_out = swa_out_cache_loc is not None
    has_loc = has_swa_out and out_cache_loc is not None
    out_len = swa_out_cache_loc.numel() if has_swa_out else 0
    q_mode = q_mode if q_mode in (Q_MODE_CUMSUM, Q_MODE_STRIDED) else Q_MODE_NONE
    ints = {"bs": bs, "seqlen_offset": seqlen_offset, "max_seq_pages": max_seq_pages,
            "req_stride": req_to_token.stride(0), "table_stride": page_table.stride(0),
            "num_out_tokens": min(out_len, out_cache_loc.numel()) if has_loc else 0,
            "out_len": out_len, "q_stride": q_stride}
    constexprs = {"BLOCK_P": BLOCK_P, "BLOCK_O": BLOCK_O, "BS_BLOCK": next_power_of_2(bs),
                  "PAGE_SIZE": page_size, "HAS_SWA_PAGE_TABLE": swa_page_table is not None,
                  "HAS_SWA_OUT": has_swa_out, "HAS_OUT_CACHE_LOC": has_loc, "Q_MODE": q_mode,
                  "FAULT": fault}
    return Launch(ints, constexprs)


def int_specialization(v):
    """Triton 3.x's default specialization of an integer argument: "1" (it becomes a
    constant), else its type (i32 when it fits, else i64) with "D" when 16 divides it."""
    if v == 1:
        return "1"
    kind = "i32" if -2 ** 31 <= v < 2 ** 31 else "i64"
    return kind + ("D" if v % 16 == 0 else "")


def specialization_key(ints, constexprs):
    """A short text naming the kernel one call needs: its constexprs, then each integer
    argument's specialization. Two calls share a compiled kernel exactly when their keys
    are equal. (The pointers would add their 16-byte alignment, the same for every tensor
    gmfuzz passes: left out.)"""
    consts = " ".join("%s=%d" % (name, constexprs[name]) for name in CONSTEXPRS)
    args = " ".join("%s:%s" % (name, int_specialization(ints[name])) for name in INT_ARGS)
    return consts + " | " + args
