"""Checks one file written by `gmfuzz export pytest`, as a triager would use it.

    python3 test_export_content.py GMFUZZ REPRO OUT PATTERN...

Exports REPRO to OUT, then requires every PATTERN (a regular expression,
matched per line) in the file, or, for a PATTERN starting with 'run:', in the
output of `python3 OUT`, which must exit 0 with its closing line
'N passed, 0 failed, N skipped' (where torch is missing both tests skip;
with torch but no GPU the legacy test runs on the CPU).
"""
import os
import re
import subprocess
import sys


def main(gmfuzz, repro, out, patterns):
    export = subprocess.run([gmfuzz, "export", "pytest", repro, "-o", out],
                            capture_output=True, text=True)
    if export.returncode != 0:
        print(f"FAIL export: exit {export.returncode}\n{export.stdout}{export.stderr}")
        return 1
    with open(out, encoding="ascii") as f:
        text = f.read()
    compile(text, out, "exec")
    env = {k: v for k, v in os.environ.items() if k != "GMFUZZ_FUSED_MODULE"}
    run = subprocess.run([sys.executable, out], capture_output=True, text=True, env=env)
    ran = run.stdout + run.stderr
    failed = []
    if run.returncode != 0 or not re.search(r"^\d+ passed, 0 failed, \d+ skipped$", ran, re.M):
        failed.append(f"python3 {out}: exit {run.returncode}\n{ran}")
    for pattern in patterns:
        where, regex = (ran, pattern[4:]) if pattern.startswith("run:") else (text, pattern)
        if not re.search(regex, where, re.M):
            failed.append(f"no line matches {pattern!r}")
    for problem in failed:
        print(f"FAIL {problem}")
    print(f"{len(patterns) + 1 - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
