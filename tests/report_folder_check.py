#!/usr/bin/env python3
"""Checks what `gmfuzz fuzz` leaves in its folder for reports
(docs/FORMATS.md): campaign.json, stats.jsonl, known.json, and the four
reports it writes at the end.

    report_folder_check.py DIR --exit N --new N [--interrupted]
                           [--min-samples N]

Standard library only. Exit 0 when everything holds, 1 with one line per
problem otherwise.
"""
import argparse
import json
import os
import sys

CAMPAIGN_KEYS = {
    "engine": str, "backend": str, "compare": str, "strict_baseline": bool, "jobs": int,
    "budget_s": (int, float), "started_at": str, "ended_at": str, "elapsed_s": (int, float),
    "execs": int, "coverage": int, "corpus": int, "restarts": int, "interrupted": bool,
    "problem": (str, type(None)), "exit_code": int, "baseline": (str, type(None)),
    "tool_version": str,
}
SAMPLE_KEYS = ("t", "execs", "exec_per_sec", "coverage", "corpus", "signatures", "failures")
REPORTS = ("report.md", "summary.json", "junit.xml", "report.html")


def load_json(path, problems):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        problems.append(f"{path}: {e}")
        return None


def check_campaign(folder, args, problems):
    doc = load_json(os.path.join(folder, "campaign.json"), problems)
    if doc is None:
        return
    if doc.get("format") != "gmfuzz-campaign-v1":
        problems.append(f"campaign.json: format {doc.get('format')!r}")
    for key, kind in CAMPAIGN_KEYS.items():
        if key not in doc:
            problems.append(f"campaign.json: no {key}")
        elif not isinstance(doc[key], kind) or (kind is int and isinstance(doc[key], bool)):
            problems.append(f"campaign.json: {key} is {doc[key]!r}")
    if doc.get("exit_code") != args.exit:
        problems.append(f"campaign.json: exit_code {doc.get('exit_code')}, expected {args.exit}")
    if doc.get("interrupted") != args.interrupted:
        problems.append(f"campaign.json: interrupted {doc.get('interrupted')}")


def check_samples(folder, args, problems):
    path = os.path.join(folder, "stats.jsonl")
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        problems.append(f"{path}: {e}")
        return
    last_t = -1.0
    for number, line in enumerate(lines, 1):
        try:
            sample = json.loads(line)
        except ValueError as e:
            problems.append(f"stats.jsonl:{number}: {e}")
            continue
        missing = [k for k in SAMPLE_KEYS if not isinstance(sample.get(k), (int, float))]
        if missing:
            problems.append(f"stats.jsonl:{number}: no number for {', '.join(missing)}")
        elif sample["t"] < last_t:
            problems.append(f"stats.jsonl:{number}: t goes back to {sample['t']}")
        else:
            last_t = sample["t"]
    if len(lines) < args.min_samples:
        problems.append(f"stats.jsonl: {len(lines)} samples, expected >= {args.min_samples}")


def check_reports(folder, args, problems):
    known = load_json(os.path.join(folder, "known.json"), problems)
    if known is not None and known.get("format") != "gmfuzz-known-v1":
        problems.append("known.json: not a gmfuzz-known-v1 baseline")
    for name in REPORTS:
        if not os.path.isfile(os.path.join(folder, name)):
            problems.append(f"{name}: missing")
    summary = load_json(os.path.join(folder, "summary.json"), problems)
    if summary is not None:
        new = summary.get("verdict", {}).get("new")
        if new != args.new:
            problems.append(f"summary.json: verdict.new {new}, expected {args.new}")
        if summary.get("campaign", {}).get("exit_code") != args.exit:
            problems.append("summary.json: the campaign's exit code differs from campaign.json")
    if summary is not None and args.new_buckets is not None:
        check_buckets(folder, summary, args, problems)
    try:
        with open(os.path.join(folder, "summary.txt"), encoding="utf-8") as f:
            if f"report: {folder}/report.html" not in f.read():
                problems.append("summary.txt does not name report.html")
    except OSError as e:
        problems.append(f"summary.txt: {e}")


def check_buckets(folder, summary, args, problems):
    """Buckets first: summary.json's count and lists agree, report.md's
    bucket table comes before the signatures, junit.xml's classnames are the
    buckets."""
    verdict = summary.get("verdict", {})
    if verdict.get("new_buckets") != args.new_buckets:
        problems.append(f"summary.json: verdict.new_buckets {verdict.get('new_buckets')}, "
                        f"expected {args.new_buckets}")
    keys = [b.get("bucket") for b in summary.get("buckets", [])]
    for s in summary.get("signatures", []):
        if s.get("bucket") not in keys:
            problems.append(f"summary.json: {s.get('signature')}: bucket {s.get('bucket')} "
                            "is not listed")
    try:
        with open(os.path.join(folder, "report.md"), encoding="utf-8") as f:
            md = f.read()
        at = md.find("## Buckets (")
        if at < 0 or at > md.find("## New signatures"):
            problems.append("report.md: the bucket table is not the first table")
        with open(os.path.join(folder, "junit.xml"), encoding="utf-8") as f:
            xml = f.read()
        for key in keys:
            escaped = key.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            if f'classname="gmfuzz.{escaped}"' not in xml:
                problems.append(f"junit.xml: no testcase of bucket {key}")
    except OSError as e:
        problems.append(str(e))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--exit", type=int, required=True)
    parser.add_argument("--new", type=int, required=True)
    parser.add_argument("--interrupted", action="store_true")
    parser.add_argument("--min-samples", type=int, default=1)
    parser.add_argument("--new-buckets", type=int, default=None)
    args = parser.parse_args()
    problems = []
    check_campaign(args.dir, args, problems)
    check_samples(args.dir, args, problems)
    check_reports(args.dir, args, problems)
    for p in problems:
        print(f"{args.dir}: {p}")
    if not problems:
        print(f"ok: {args.dir}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
