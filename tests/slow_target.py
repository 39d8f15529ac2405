"""A slow python: target for the campaign tests (tests/campaign_minimizer.sh): the torch
example of the fused semantics (examples/torch_fused.py), GMFUZZ_SLOW_TARGET_S seconds a call
(default 0.2), so that a minimization takes long enough to be interrupted or crashed."""
import importlib.util
import os
import time

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "torch_fused", os.path.join(_here, "..", "examples", "torch_fused.py"))
_fused = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fused)


def update_trtllm_mha_graph_metadata(**kwargs):
    time.sleep(float(os.environ.get("GMFUZZ_SLOW_TARGET_S", "0.2")))
    return _fused.update_trtllm_mha_graph_metadata(**kwargs)
