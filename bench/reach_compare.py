#!/usr/bin/env python3
"""Branch sides one campaign reaches and another does not (issue 23, item 5).

    bench/reach_compare.py A_DIR B_DIR

A_DIR and B_DIR are campaign folders that `gmfuzz coverage` has run on
(their coverage/export.json, llvm-cov's export). For the semantics
(kernel/fused_program.h), the reference (reference/) and the oracle
(core/gm_oracle.c, triage/triage_classify.c, triage/triage_predict.c)
prints every branch side A's inputs take that B's never do, with its line
of code; a branch inside an expanded macro is named at its expansion.
Exit 0 when there is none, 1 otherwise.
"""
import json
import os
import sys

FILES = ("kernel/fused_program.h", "reference/", "core/gm_oracle.c",
         "triage/triage_classify.c", "triage/triage_predict.c")


def wanted(name):
    return any(("/" + f) in name if f.endswith("/") else name.endswith("/" + f) for f in FILES)


def short(name):
    for f in FILES:
        at = name.rfind("/" + f.split("/")[0] + "/")
        if at >= 0 and wanted(name):
            return name[at + 1:]
    return name


def sides(export):
    """{(file, line, col, side, via): count} over the wanted files."""
    out = {}
    with open(export) as f:
        data = json.load(f)["data"][0]
    for entry in data["files"]:
        name = entry["filename"]
        if not wanted(name):
            continue
        groups = [(b, "") for b in entry.get("branches", [])]
        for e in entry.get("expansions", []):
            site = e["source_region"]
            via = "macro at line %d" % site[0]
            groups += [(b, via) for b in e.get("branches", [])]
        for b, via in groups:
            line, col, taken, not_taken = b[0], b[1], b[4], b[5]
            for side, n in (("true", taken), ("false", not_taken)):
                key = (short(name), line, col, side, via)
                out[key] = out.get(key, 0) + n
    return out


def source_line(root, name, line):
    try:
        with open(os.path.join(root, name)) as f:
            return f.read().splitlines()[line - 1].strip()
    except (OSError, IndexError):
        return ""


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    a = sides(os.path.join(sys.argv[1], "coverage", "export.json"))
    b = sides(os.path.join(sys.argv[2], "coverage", "export.json"))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    missing = sorted(k for k, n in a.items() if n > 0 and b.get(k, 0) == 0)
    for name, line, col, side, via in missing:
        where = "%s:%d:%d" % (name, line, col) + (" (%s)" % via if via else "")
        print("%-44s %-5s  %s" % (where, side, source_line(root, name, line)))
    reached = sum(1 for n in a.values() if n > 0)
    print("%d of the %d branch sides %s reaches, %s does not" %
          (len(missing), reached, sys.argv[1], sys.argv[2]))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
