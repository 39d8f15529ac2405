"""Slow, hanging and flaky targets for the confirmation tests (tests/targets.cmake): each one
is examples/torch_fused.py's correct kernel plus one behaviour on a batch of exactly 3 rows
(the "key"), so that every other case matches and only that one can be a finding. This module
imports python/gmfuzz_jit.py, so the worker's HELLO says it reports its compiles; its twin
silent_target.py does not.

    slow_compile   the first 3-row call in a process "compiles" for $GMFUZZ_TEST_JIT_S
                   seconds (default 3) and says so through python/gmfuzz_jit.py, as a JIT
                   does: the worker reports it, so the call's limit is the compile limit
"""
import os
import sys
import time

import gmfuzz_jit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "examples"))
import torch_fused  # noqa: E402

_compiled = set()


def slow_compile(**kwargs):
    if kwargs["bs"] == 3 and "three" not in _compiled:
        gmfuzz_jit.started("bs=3")
        time.sleep(float(os.environ.get("GMFUZZ_TEST_JIT_S", "3")))
        _compiled.add("three")
        gmfuzz_jit.finished("bs=3", loaded=False)
    torch_fused.update_trtllm_mha_graph_metadata(**kwargs)
