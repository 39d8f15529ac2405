"""The ClusterFuzzLite integration files parse and say what they must.

    cflite_check.py SOURCE_DIR

Every workflow in .github/workflows/ loads as YAML and names jobs with steps;
the cflite_* ones use the real actions (google/clusterfuzzlite/actions/
build_fuzzers and run_fuzzers, @v1) with the inputs those take, language c,
and between them the four modes (code-change, batch, prune, coverage);
.clusterfuzzlite/ has project.yaml (language c), a Dockerfile on the
base-builder image that copies build.sh, and build.sh takes the compiler,
flags and engine from the environment (never -fsanitize=fuzzer of its own).
Exits 77 when PyYAML is missing (apt-get install python3-yaml).
"""
import glob
import os
import sys

try:
    import yaml
except ImportError:
    print("SKIP: no PyYAML (apt-get install python3-yaml)")
    sys.exit(77)

BUILD_INPUTS = {"language", "sanitizer", "github-token", "upload-build", "storage-repo",
                "storage-repo-branch", "storage-repo-branch-coverage", "bad-build-check",
                "dry-run", "keep-unaffected-fuzz-targets"}
RUN_INPUTS = {"github-token", "fuzz-seconds", "mode", "sanitizer", "output-sarif",
              "storage-repo", "storage-repo-branch", "storage-repo-branch-coverage",
              "report-unreproducible-crashes", "minimize-crashes", "parallel-fuzzing",
              "dry-run"}
MODES = {"code-change", "batch", "prune", "coverage"}
failures = []


def fail(where, what):
    failures.append("%s: %s" % (where, what))


def check_action_step(where, step, modes):
    uses = step.get("uses", "")
    inputs = step.get("with", {}) or {}
    for action, allowed in (("build_fuzzers", BUILD_INPUTS), ("run_fuzzers", RUN_INPUTS)):
        if uses.startswith("google/clusterfuzzlite/actions/" + action):
            if not uses.endswith("@v1"):
                fail(where, "%s is not pinned to @v1" % uses)
            unknown = set(inputs) - allowed
            if unknown:
                fail(where, "%s: unknown inputs %s" % (action, sorted(unknown)))
            if action == "build_fuzzers" and inputs.get("language") != "c":
                fail(where, "build_fuzzers: language is %r, not c" % inputs.get("language"))
            if action == "run_fuzzers":
                if inputs.get("mode") not in MODES:
                    fail(where, "run_fuzzers: mode %r" % inputs.get("mode"))
                modes.add(inputs.get("mode"))
                if not isinstance(inputs.get("fuzz-seconds"), int):
                    fail(where, "run_fuzzers: fuzz-seconds is not a number")
            return action
    return None


def check_workflows(root):
    modes, seen = set(), set()
    paths = sorted(glob.glob(os.path.join(root, ".github", "workflows", "*.yml")))
    if not paths:
        fail(".github/workflows", "no workflow")
    for path in paths:
        name = os.path.relpath(path, root)
        with open(path) as f:
            doc = yaml.safe_load(f)
        # YAML 1.1 reads the key `on` as True.
        if not isinstance(doc, dict) or "jobs" not in doc or not (("on" in doc) or (True in doc)):
            fail(name, "not a workflow (name, on, jobs)")
            continue
        for job_name, job in doc["jobs"].items():
            steps = job.get("steps") or []
            if not steps:
                fail(name, "job %s has no steps" % job_name)
            for k, step in enumerate(steps):
                action = check_action_step("%s job %s step %d" % (name, job_name, k), step, modes)
                if action:
                    seen.add(action)
    if seen != {"build_fuzzers", "run_fuzzers"}:
        fail(".github/workflows", "the ClusterFuzzLite actions used: %s" % sorted(seen))
    if modes != MODES:
        fail(".github/workflows", "modes %s, expected %s" % (sorted(modes), sorted(MODES)))


def check_build_files(root):
    d = os.path.join(root, ".clusterfuzzlite")
    with open(os.path.join(d, "project.yaml")) as f:
        if (yaml.safe_load(f) or {}).get("language") != "c":
            fail(".clusterfuzzlite/project.yaml", "language is not c")
    with open(os.path.join(d, "Dockerfile")) as f:
        docker = f.read()
    if "gcr.io/oss-fuzz-base/base-builder" not in docker or "build.sh $SRC/" not in docker:
        fail(".clusterfuzzlite/Dockerfile", "not on base-builder, or build.sh not copied to $SRC")
    with open(os.path.join(d, "build.sh")) as f:
        build = f.read()
    for needed in ("$CC", "$CFLAGS", "$LIB_FUZZING_ENGINE", "$OUT"):
        if needed not in build:
            fail(".clusterfuzzlite/build.sh", "does not use " + needed)
    if "-fsanitize=fuzzer" in build.replace("-fsanitize=fuzzer-no-link", ""):
        fail(".clusterfuzzlite/build.sh", "hard-codes -fsanitize=fuzzer")


def main():
    root = sys.argv[1]
    check_workflows(root)
    check_build_files(root)
    for line in failures:
        print("FAIL: " + line)
    if not failures:
        print("ok: workflows and .clusterfuzzlite/ as ClusterFuzzLite expects")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
