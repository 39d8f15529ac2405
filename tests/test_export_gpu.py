"""Runs pytest files written by `gmfuzz export pytest` end to end on a GPU.

    GMFUZZ_FUSED_MODULE=fused_shim PYTHONPATH=docs/examples \\
    GMFUZZ_KERNEL_LIBRARY=.../libgmfuzz_kernel.so python3 test_export_gpu.py DIR

Imports every test_*.py of DIR in this one process (torch loads once) and runs
its two tests. Every legacy test must pass (the ATen ops in torch give what
gmfuzz's reference recorded), and every fused test must pass through the module
GMFUZZ_FUSED_MODULE names, except where the reproducer records a fused
out-of-bounds access: that test must skip without running. First, both tests
of one file must FAIL once an element of what it recorded is changed: they
can fail. Exits 77 (skipped) where torch or a CUDA device is missing.
"""
import importlib.util
import pathlib
import sys

try:
    import torch
except ImportError:
    sys.exit(77)
if not torch.cuda.is_available():
    sys.exit(77)


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def outcome(module, test):
    """'passed', 'skipped: why' or 'failed: why'."""
    skipped = (module.SkipTest,)
    if module.pytest is not None:
        skipped += (module.pytest.skip.Exception,)
    try:
        test()
    except skipped as e:
        return f"skipped: {e}"
    except Exception as e:  # an assertion, or what the ops raised
        return f"failed: {type(e).__name__}: {e}"
    return "passed"


def check(path):
    """Problems with one exported file (empty: as expected)."""
    module = load(path)
    legacy = outcome(module, module.test_legacy_sequence)
    fused = outcome(module, module.test_fused_kernel)
    overran = module.FUSED["error"] is not None
    problems = []
    if legacy != "passed":
        problems.append(f"test_legacy_sequence {legacy}")
    if overran and not fused.startswith("skipped: never run"):
        problems.append(f"test_fused_kernel should skip (fused out of bounds), {fused}")
    if not overran and fused != "passed":
        problems.append(f"test_fused_kernel {fused}")
    return problems, overran


def can_fail(files):
    """Problems with the tests' power: a changed cache_seqlens[0] must fail both."""
    for path in files:
        module = load(path)
        if module.REFERENCE["error"] is None and module.FUSED["error"] is None and module.SEQ_LENS:
            module.REFERENCE["cache_seqlens"][0] += 1
            module.FUSED["cache_seqlens"][0] += 1
            results = [outcome(module, module.test_legacy_sequence),
                       outcome(module, module.test_fused_kernel)]
            return [f"{path.name}: a changed record still {r}" for r in results
                    if not r.startswith("failed: AssertionError")]
    return ["no file to check the tests' power on"]


def main(folder):
    files = sorted(pathlib.Path(folder).glob("test_*.py"))
    failed = skipped = 0
    power = can_fail(files)
    for problem in power:
        print(f"FAIL {problem}")
    failed += bool(power)
    for path in files:
        problems, overran = check(path)
        for problem in problems:
            print(f"FAIL {path.name}: {problem}")
        failed += bool(problems)
        skipped += overran and not problems
    print(f"{len(files) + 1 - failed - skipped} passed, {failed} failed, {skipped} skipped "
          f"(fused out of bounds: legacy checked, fused not run)")
    return 1 if failed or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
