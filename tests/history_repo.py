"""Builds the git repository the history ctests bisect (tests/history.cmake).

    history_repo.py SOURCE_DIR REPO

40 commits of a CPU torch target, REPO/kernel/fused.py: examples/torch_fused.py with a
fault planted in the code (not through GMFUZZ_TORCH_FAULT), as a kernel's history holds one:

    commit  1-22  correct
    commit 23     plants last_page_dropped (the last page-table column is not written)
    commit 12     a syntax error (fixed again in 13)
    commit 28     imports a module that is not installed (fixed again in 29)
    commit 34     removes the fault; 34-40 correct

Every commit appends "change N" to REPO/CHANGES; its subject starts "commit N:". Names
and dates are fixed, so the hashes are the same on every run. REPO/../commits.txt lists
"N HASH" per commit. The branch is `main`, checked out at commit 40.
"""
import os
import shutil
import subprocess
import sys

PLANT_AT, FIX_AT, SYNTAX_AT, IMPORT_AT, COMMITS = 23, 34, 12, 28, 40
FAULT = "last_page_dropped"


def fused_text(source, n):
    """kernel/fused.py as commit n has it."""
    text = open(os.path.join(source, "examples", "torch_fused.py")).read()
    env_line = 'FAULT_ENV = "GMFUZZ_TORCH_FAULT"\n'
    faults_line = 'names = set(n for n in os.environ.get(FAULT_ENV, "").split("+") if n)'
    assert env_line in text and faults_line in text, "examples/torch_fused.py changed"
    planted = "{%r}" % FAULT if PLANT_AT <= n < FIX_AT else "set()"
    text = text.replace(env_line, env_line + "PLANTED = %s  # commit %d\n" % (planted, n))
    text = text.replace(faults_line, faults_line + " | PLANTED")
    if n == SYNTAX_AT:
        text += "\ndef half_written(:\n    pass\n"
    if n == IMPORT_AT:
        text = text.replace("import torch\n", "import torch\nimport gmfuzz_no_such_module\n", 1)
    return text


def subject(n):
    what = {PLANT_AT: "drop the last page-table column (faster tail)",
            FIX_AT: "write every page-table column again",
            SYNTAX_AT: "start a helper (does not parse)",
            SYNTAX_AT + 1: "finish the helper",
            IMPORT_AT: "use gmfuzz_no_such_module",
            IMPORT_AT + 1: "drop gmfuzz_no_such_module again"}
    return "commit %d: %s" % (n, what.get(n, "housekeeping"))


def git(repo, *args, env=None):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, env=env,
                          stdout=subprocess.PIPE, text=True).stdout.strip()


def main():
    source, repo = sys.argv[1], sys.argv[2]
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(os.path.join(repo, "kernel"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="Kernel Author", GIT_AUTHOR_EMAIL="author@example.com",
               GIT_COMMITTER_NAME="Kernel Author", GIT_COMMITTER_EMAIL="author@example.com",
               GIT_CONFIG_NOSYSTEM="1", HOME=os.path.dirname(os.path.abspath(repo)))
    git(repo, "init", "--quiet", "--initial-branch=main", env=env)
    hashes = []
    for n in range(1, COMMITS + 1):
        with open(os.path.join(repo, "kernel", "fused.py"), "w") as f:
            f.write(fused_text(source, n))
        with open(os.path.join(repo, "CHANGES"), "a") as f:
            f.write("change %d\n" % n)
        git(repo, "add", "-A", env=env)
        day = "01-%02d" % n if n <= 31 else "02-%02d" % (n - 31)  # one commit a day
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = "2026-%sT12:00:00Z" % day
        git(repo, "commit", "--quiet", "--no-gpg-sign", "-m", subject(n), env=env)
        hashes.append(git(repo, "rev-parse", "HEAD", env=env))
    with open(os.path.join(os.path.dirname(os.path.abspath(repo)), "commits.txt"), "w") as f:
        for n, h in enumerate(hashes, 1):
            f.write("%d %s\n" % (n, h))


if __name__ == "__main__":
    main()
