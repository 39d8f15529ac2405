"""Targets for tests/python_test.py's protocol checks (tests/CMakeLists.txt, label python)."""
import sys

__version__ = "7.1"


class PlantedError(Exception):
    pass


def prints(**kwargs):
    """Prints to stdout and stderr (neither may reach the stream), then fills page_table."""
    print("noise on stdout " * 100)
    sys.stdout.flush()
    print("noise on stderr", file=sys.stderr)
    kwargs["page_table"].fill_(5)


def raises_long(**kwargs):
    """Raises an exception of this module with a 5,000-byte message (non-ASCII included)."""
    raise PlantedError("\u00e9" * 2500)


def raises_on_three(**kwargs):
    if kwargs["bs"] == 3:
        raise IndexError("three")
    kwargs["cache_seqlens"].fill_(kwargs["bs"])


def exits(**kwargs):
    import os
    os._exit(3)
