#!/usr/bin/env python3
"""gmfuzz merge of three real campaign folders (issue 12 item 4).

  merge_check.py union GMFUZZ OUTDIR
      three sweep campaigns of 48 cases (--strict-baseline: their differences are
      failures; no libFuzzer target in the tree): the corpus is the union by
      content and the output and the record say so; then the errors: OUT a
      source, a folder that is not a campaign's, a malformed campaign.json,
      OUT not empty, OUT locked.
  merge_check.py libfuzzer GMFUZZ FAULTY_GMFUZZ FAULTY_TARGET OUTDIR
      three libFuzzer campaigns of a planted fault (the variant's gmfuzz and
      target, bench/detect_faults.sh), seeds 1, 2, 3, 3,000 runs each; merged
      with that target's -merge=1: the merged corpus holds only the sources'
      inputs, one file per content, as many as libFuzzer added (its coverage
      is printed, not compared: a merge keeps features, not edges).

Both: the merged signatures are exactly the union of the sources'; every
source's stats.jsonl is kept; report.md and report.html have one line per
source.
"""
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys


def md_text(cell):
    """A markdown cell's text: report_escape_md's escapes undone (a path
    with `_` in it is written `\\_`)."""
    text = re.sub(r"\\(.)", r"\1", cell)
    return text.replace("&lt;", "<").replace("&amp;", "&")


def fail(msg):
    sys.exit("FAIL: " + msg)


def run(cmd, want=None, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if want is not None and p.returncode != want:
        fail(f"{' '.join(cmd)}: exit {p.returncode}, expected {want}\n{p.stdout}{p.stderr}")
    return p


def signatures(folder):
    with open(os.path.join(folder, "summary.json")) as f:
        s = json.load(f)
    return {x["signature"] for x in s["signatures"]}, {b["bucket"] for b in s["buckets"]}


def corpus_files(folder):
    d = os.path.join(folder, "corpus")
    return [os.path.join(d, n) for n in sorted(os.listdir(d)) if not n.startswith(".")]


def check_common(out, sources, merged):
    union_sigs, union_buckets = set(), set()
    for s in sources:
        sigs, buckets = signatures(s)
        union_sigs |= sigs
        union_buckets |= buckets
    sigs, buckets = signatures(out)
    if sigs != union_sigs:
        fail(f"merged signatures {len(sigs)} != union {len(union_sigs)}: "
             f"missing {sorted(union_sigs - sigs)[:3]}, extra {sorted(sigs - union_sigs)[:3]}")
    if not buckets <= union_buckets:
        fail(f"merged buckets not among the sources': {sorted(buckets - union_buckets)[:3]}")
    if len(os.listdir(os.path.join(out, "failures"))) != len(union_sigs):
        fail("failures/: not one file per signature")
    with open(os.path.join(out, "campaign.json")) as f:
        rec = json.load(f)
    if not rec.get("merged") or [x["path"] for x in rec["sources"]] != sources:
        fail(f"campaign.json sources: {rec.get('sources')!r}")
    for k, (s, entry) in enumerate(zip(sources, rec["sources"])):
        with open(os.path.join(s, "campaign.json")) as f:
            own = json.load(f)
        if entry["execs"] != own["execs"] or entry["started_at"] != own["started_at"] or \
           entry["exit_code"] != own["exit_code"] or entry["host"] != own.get("host"):
            fail(f"sources[{k}] {entry!r} is not what {s}/campaign.json says")
        if entry["signatures"] != len(signatures(s)[0]):
            fail(f"sources[{k}].signatures {entry['signatures']} != {len(signatures(s)[0])}")
        with open(os.path.join(s, "stats.jsonl"), "rb") as a, \
             open(os.path.join(out, entry["stats"]), "rb") as b:
            if a.read() != b.read():
                fail(f"{entry['stats']} is not {s}/stats.jsonl")
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)["campaign"]
    if [x["path"] for x in summary.get("sources", [])] != sources or \
            summary.get("corpus_merge") != rec["corpus_merge"]["method"]:
        fail(f"summary.json campaign: sources {summary.get('sources')!r}")
    md = open(os.path.join(out, "report.md")).read()
    rows = [md_text(cell) for cell in re.findall(r"^\| [123] \| (\S+) \|", md, re.M)]
    if "## Sources (3 campaigns merged)" not in md or rows != sources:
        fail(f"report.md: source lines {rows!r}")
    html = open(os.path.join(out, "report.html")).read()
    if html.count('<tr class="source">') != 3:
        fail("report.html: not three source lines")
    print(f"ok: {len(sigs)} signatures = the union of "
          f"{[len(signatures(s)[0]) for s in sources]}; {len(buckets)} buckets; "
          f"3 source lines")
    return rec


def campaigns(gmfuzz, outdir, extra):
    sources = []
    for seed in (1, 2, 3):
        d = os.path.join(outdir, f"runner{seed}")
        shutil.rmtree(d, ignore_errors=True)
        run([gmfuzz, *extra, "--jobs", "1", "--seed", str(seed), "--no-minimize",
             "--out", d], want=1)
        sources.append(d)
    return sources


def check_errors(gmfuzz, outdir, sources):
    plain = os.path.join(outdir, "plain")
    os.makedirs(plain, exist_ok=True)
    p = run([gmfuzz, "merge", os.path.join(outdir, "e1"), sources[0], plain], want=3)
    if f"{plain}: not a campaign folder" not in p.stderr:
        fail(f"a plain folder: {p.stderr}")
    p = run([gmfuzz, "merge", sources[1], sources[0], sources[1]], want=2)
    if "is source 2" not in p.stderr or sources[1] not in p.stderr:
        fail(f"OUT a source: {p.stderr}")
    inside = os.path.join(sources[0], "merged-here")
    p = run([gmfuzz, "merge", inside, sources[0]], want=2)
    if "is source 1" not in p.stderr or os.path.exists(inside):
        fail(f"OUT inside a source: {p.stderr} (made: {os.path.exists(inside)})")
    bad = os.path.join(outdir, "bad")
    shutil.rmtree(bad, ignore_errors=True)
    shutil.copytree(sources[2], bad)
    with open(os.path.join(bad, "campaign.json"), "w") as f:
        f.write('{"format": "gmfuzz-campaign-v1", "execs": "many"}')
    p = run([gmfuzz, "merge", os.path.join(outdir, "e2"), bad], want=3)
    if f"{bad}/campaign.json: execs" not in p.stderr:
        fail(f"a malformed campaign.json: {p.stderr}")
    p = run([gmfuzz, "merge", os.path.join(outdir, "merged"), sources[0]], want=2)
    if "not empty" not in p.stderr:
        fail(f"OUT not empty: {p.stderr}")
    locked = os.path.join(outdir, "locked")
    shutil.rmtree(locked, ignore_errors=True)
    os.makedirs(locked)
    with open(os.path.join(locked, "campaign.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        p = run([gmfuzz, "merge", locked, sources[0]], want=5)
    if "in use" not in p.stderr:
        fail(f"OUT locked: {p.stderr}")
    print("ok: errors name the folder or file (exit 3, 2, 2, 3, 2, 5)")


def union_mode(gmfuzz, outdir):
    # --cases, not --time: under ASan and load a sweep job takes seconds to start.
    sources = campaigns(gmfuzz, outdir, ["sweep", "--strict-baseline", "--cases", "48",
                                         "--time", "120"])
    # A reproducer by hand in two sources (one signature in both), so that
    # repros/ is merged too: one per signature.
    for s, n in ((sources[0], 2), (sources[1], 1)):
        os.makedirs(os.path.join(s, "repros"), exist_ok=True)
        for path in sorted(os.listdir(os.path.join(s, "failures")))[:n]:
            shutil.copy(os.path.join(s, "failures", path), os.path.join(s, "repros", path))
    out = os.path.join(outdir, "merged")
    shutil.rmtree(out, ignore_errors=True)
    p = run([gmfuzz, "merge", out, *sources], want=1)
    if "NOT merged by coverage (no libFuzzer target" not in p.stdout:
        fail(f"the union is not said:\n{p.stdout}")
    rec = check_common(out, sources, out)
    if rec["corpus_merge"]["method"] != "union" or "no libFuzzer target" not in \
            rec["corpus_merge"]["note"]:
        fail(f"corpus_merge: {rec['corpus_merge']!r}")
    contents = {hashlib.sha256(open(f, "rb").read()).hexdigest()
                for s in sources for f in corpus_files(s)}
    merged = corpus_files(out)
    if len(merged) != len(contents) or rec["corpus"] != len(contents):
        fail(f"corpus: {len(merged)} files, {len(contents)} distinct in the sources")
    if "NOT merged by coverage" not in open(os.path.join(out, "report.md")).read():
        fail("report.md does not say the corpus is a union")
    repro_sigs = set()
    for s in sources:
        d = os.path.join(s, "repros")
        for name in os.listdir(d) if os.path.isdir(d) else []:
            repro_sigs.add(json.load(open(os.path.join(d, name)))["signature"])
    if len(os.listdir(os.path.join(out, "repros"))) != len(repro_sigs):
        fail(f"repros/: {len(os.listdir(os.path.join(out, 'repros')))} files, "
             f"{len(repro_sigs)} signatures")
    print(f"ok: corpus union {len(merged)} files of {sum(len(corpus_files(s)) for s in sources)}")
    check_errors(gmfuzz, outdir, sources)


def coverage(target, corpus, env):
    p = run([target, "-runs=0", corpus], want=0, env=env)
    m = re.search(r"INITED cov: (\d+) ft: (\d+)", p.stderr)
    if m is None:
        fail(f"{target} -runs=0 {corpus}: no INITED line\n{p.stderr[-2000:]}")
    return int(m.group(1)), int(m.group(2))


def contents(files):
    return {hashlib.sha256(open(f, "rb").read()).hexdigest() for f in files}


def libfuzzer_mode(gmfuzz, faulty, target, outdir):
    # --runs, not --time: the fault shows on the second seed (a fixed order), so every
    # campaign finds it however loaded the machine; --time is only a cap.
    sources = campaigns(faulty, outdir, ["fuzz", "--target", target, "--runs", "3000",
                                         "--time", "240"])
    out = os.path.join(outdir, "merged")
    shutil.rmtree(out, ignore_errors=True)
    p = run([gmfuzz, "merge", out, *sources, "--engine-binary", target], want=1)
    if "corpus: by coverage, libFuzzer -merge=1" not in p.stdout:
        fail(f"not merged by libFuzzer:\n{p.stdout}")
    rec = check_common(out, sources, out)
    log = open(os.path.join(out, "logs", "merge.log")).read()
    m = re.search(r"MERGE-OUTER: (\d+) new files with (\d+) new features added; (\d+) new "
                  r"coverage edges", log)
    if m is None or rec["corpus_merge"]["method"] != "libfuzzer":
        fail(f"no MERGE-OUTER line or record: {rec['corpus_merge']!r}")
    source_files = [f for s in sources for f in corpus_files(s)]
    merged_files = corpus_files(out)
    total, merged = len(source_files), len(merged_files)
    # What a merge guarantees: it keeps inputs of the sources, none made up, at most one
    # file per content, as many as libFuzzer says it added (equal contents share one
    # file), and some (the sources have features). Coverage numbers are not among its
    # guarantees: libFuzzer keeps features, not edges, and a -runs=0 pass of the same
    # inputs in another order may count one edge more or less (cov 1141 merged against a
    # source's 1142 was seen), so they are printed, not compared.
    merged_contents = contents(merged_files)
    foreign = merged_contents - contents(source_files)
    if foreign:
        fail(f"merged corpus: {len(foreign)} files that are no source's input")
    if len(merged_contents) != merged or merged > int(m.group(1)) or merged == 0 or \
            int(m.group(2)) == 0 or merged > total:
        fail(f"merged corpus {merged} files ({len(merged_contents)} contents), MERGE-OUTER "
             f"{m.group(1)} files {m.group(2)} features, sources {total}")
    if rec["corpus"] != merged:
        fail(f"campaign.json corpus {rec['corpus']}, the folder {merged} files")
    env = dict(os.environ, GMFUZZ_KEEP_GOING="1",
               GMFUZZ_FAILURE_DIR=os.path.join(outdir, "cov-failures"),
               GMFUZZ_BASELINE=os.path.join(out, "known.json"))
    each = [coverage(target, os.path.join(s, "corpus"), env) for s in sources]
    cov, ft = coverage(target, os.path.join(out, "corpus"), env)
    print(f"ok: corpus {merged} files of {total} "
          f"({[len(corpus_files(s)) for s in sources]}), all the sources' inputs; MERGE-OUTER "
          f"{m.group(2)} features, {m.group(3)} edges; (not compared: -runs=0 cov/ft merged "
          f"{cov}/{ft}, sources {each})")


def main():
    if sys.argv[1] == "union":
        union_mode(sys.argv[2], sys.argv[3])
    else:
        libfuzzer_mode(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])


main()
