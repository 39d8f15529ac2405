"""examples/triton_fused.py's kernel run on the CPU through tests/triton_stub (NOT Triton: a
stand-in that runs the kernel body per program in Python), for the logic test
python.triton_stub_vectors. The launcher's CUDA check is lifted; nothing else changes."""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "triton_stub"))
_spec = importlib.util.spec_from_file_location(
    "triton_fused", os.path.join(HERE, "..", "examples", "triton_fused.py"))
triton_fused = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(triton_fused)
triton_fused._require_cuda = lambda **tensors: None

Q_MODE_NONE, Q_MODE_CUMSUM, Q_MODE_STRIDED = 0, 1, 2
update_trtllm_mha_graph_metadata = triton_fused.update_trtllm_mha_graph_metadata
