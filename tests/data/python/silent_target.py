"""Slow, hanging and flaky targets that say nothing of their compiles (no python/gmfuzz_jit.py),
for the confirmation tests (tests/targets.cmake): examples/torch_fused.py's correct kernel plus
one behaviour on a batch of exactly 3 rows, so that only that case can be a finding.

    slow_silent    the first 3-row call in a process "compiles" for $GMFUZZ_TEST_JIT_S seconds
                   (default 3), unannounced; the compiled "kernel" is kept in
                   $GMFUZZ_TEST_JIT_DIR once done, so a later process loads it at once, as from
                   an on-disk cache
    hangs          every 3-row call sleeps an hour: a real hang
    crashes_once   the first 3-row call of all (a marker in $GMFUZZ_TEST_JIT_DIR) kills its
                   process; later ones return: an unreliable crash
    crashes        every 3-row call kills its process: a real crash
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "examples"))
import torch_fused  # noqa: E402

_compiled = set()


def _marker(name):
    folder = os.environ.get("GMFUZZ_TEST_JIT_DIR", ".")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name)


def slow_silent(**kwargs):
    if kwargs["bs"] == 3 and "three" not in _compiled:
        marker = _marker("slow_silent.compiled")
        if not os.path.exists(marker):
            time.sleep(float(os.environ.get("GMFUZZ_TEST_JIT_S", "3")))
            open(marker, "w").close()
        _compiled.add("three")
    torch_fused.update_trtllm_mha_graph_metadata(**kwargs)


def hangs(**kwargs):
    if kwargs["bs"] == 3:
        time.sleep(3600)
    torch_fused.update_trtllm_mha_graph_metadata(**kwargs)


def crashes_once(**kwargs):
    if kwargs["bs"] == 3:
        marker = _marker("crashes_once.crashed")
        if not os.path.exists(marker):
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGSEGV)
    torch_fused.update_trtllm_mha_graph_metadata(**kwargs)


def crashes(**kwargs):
    if kwargs["bs"] == 3:
        os.kill(os.getpid(), signal.SIGSEGV)
    torch_fused.update_trtllm_mha_graph_metadata(**kwargs)
