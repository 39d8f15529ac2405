"""A hostile python: target for the tests of issue 24 (tests/targets.cmake, tests/campaign.cmake):
the torch example of the fused semantics (examples/torch_fused.py), made to misbehave by its
environment:
  GMFUZZ_HOSTILE_IMPORT_S=S    the import takes S seconds (a slow start-up)
  GMFUZZ_HOSTILE_BLOCK=all     every call blocks for good
  GMFUZZ_HOSTILE_BLOCK=after:N every call after the first N blocks for good
  GMFUZZ_HOSTILE_HELPER=FILE   the import starts a helper in a session of its own (as compile
                               worker pools do) and appends its pid to FILE"""
import importlib.util
import os
import subprocess
import time

# First, before torch: the helper is there however slow the import is.
_helper_file = os.environ.get("GMFUZZ_HOSTILE_HELPER")
if _helper_file:
    _helper = subprocess.Popen(["sleep", "1000"], start_new_session=True,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    with open(_helper_file, "a") as f:
        f.write("%d\n" % _helper.pid)

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "torch_fused", os.path.join(_here, "..", "..", "..", "examples", "torch_fused.py"))
_fused = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fused)

time.sleep(float(os.environ.get("GMFUZZ_HOSTILE_IMPORT_S", "0")))

_block = os.environ.get("GMFUZZ_HOSTILE_BLOCK", "")
_calls = 0


def _blocks():
    if _block == "all":
        return True
    if _block.startswith("after:"):
        return _calls > int(_block[len("after:"):])
    return False


def update_trtllm_mha_graph_metadata(**kwargs):
    global _calls
    _calls += 1
    while _blocks():
        time.sleep(3600)
    return _fused.update_trtllm_mha_graph_metadata(**kwargs)
