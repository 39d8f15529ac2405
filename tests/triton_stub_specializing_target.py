"""examples/triton_specializing.py's kernel run on the CPU through tests/triton_stub (NOT
Triton: a stand-in that runs the kernel body per program in Python), for the logic tests
python.triton_stub_specializing_*. The launcher's CUDA check is lifted; nothing else changes."""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")
sys.path.insert(0, os.path.join(HERE, "triton_stub"))
sys.path.insert(0, EXAMPLES)  # specializing_common, as the worker's file import would
_spec = importlib.util.spec_from_file_location(
    "triton_specializing", os.path.join(EXAMPLES, "triton_specializing.py"))
triton_specializing = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(triton_specializing)
triton_specializing._require_cuda = lambda **tensors: None

Q_MODE_NONE, Q_MODE_CUMSUM, Q_MODE_STRIDED = 0, 1, 2
update_trtllm_mha_graph_metadata = triton_specializing.update_trtllm_mha_graph_metadata
