#!/usr/bin/env python3
"""campaign.json's "placement" (issue 12 item 5): which job ran where.

A sweep on --gpus 0,0 runs two hubs, both pinned to device 0 (builtin:cpu:
no GPU needed to place jobs); each job must be listed with its engine, the
pid of every run, the hub that pid talks to (pid mod 2, the harness's rule)
and the hub's device. Without hubs every run is pinned to none. A record
without "placement" and "host" (an older writer) must still be read.

usage: placement_check.py GMFUZZ OUTDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys


def run(gmfuzz, out, *extra):
    shutil.rmtree(out, ignore_errors=True)
    cmd = [gmfuzz, "sweep", "--target", "builtin:cpu", "--cases", "300", "--seed", "3",
           "--time", "60", "--no-minimize", "--out", out, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stdout}{p.stderr}")
    with open(os.path.join(out, "campaign.json")) as f:
        return json.load(f)


def check_jobs(record, jobs, hubs, gpu):
    placement = record.get("placement")
    if not isinstance(placement, list) or len(placement) != jobs:
        sys.exit(f"placement: expected {jobs} jobs, found {placement!r}")
    for k, job in enumerate(placement):
        if job["job"] != k or job["name"] != f"job-{k}" or job["engine"] != "sweep":
            sys.exit(f"placement[{k}]: {job!r}")
        if not job["pids"] or job["pids"] != [r["pid"] for r in job["runs"]]:
            sys.exit(f"placement[{k}]: pids {job['pids']!r} against runs {job['runs']!r}")
        for r in job["runs"]:
            hub = r["pid"] % hubs if hubs else None
            if r["hub"] != hub or r["gpu"] != gpu:
                sys.exit(f"placement[{k}]: run {r!r}: expected hub {hub}, gpu {gpu}")
    pids = [p for job in placement for p in job["pids"]]
    if len(set(pids)) != len(pids):
        sys.exit(f"placement: a pid listed twice: {pids}")


def check_hub_logs(out, record, hubs, cases):
    """Each hub served the cases of the jobs the record puts on it: the
    record says where the jobs really went, not just what the rule says."""
    on = [0] * hubs
    for job in record["placement"]:
        if len(job["runs"]) != 1:
            sys.exit(f"placement: job {job['job']} restarted: {job['runs']!r}")
        on[job["runs"][0]["hub"]] += 1
    for k in range(hubs):
        with open(os.path.join(out, "logs", f"hub-{k}.log")) as f:
            served = [int(n) for n in re.findall(r" (\d+) cases \(", f.read())]
        if sum(served) != cases * on[k]:
            sys.exit(f"hub {k} served {served} cases; the record puts {on[k]} jobs of "
                     f"{cases} on it")


def main():
    gmfuzz, outdir = sys.argv[1], sys.argv[2]
    placed = os.path.join(outdir, "gpus00")
    record = run(gmfuzz, placed, "--gpus", "0,0", "--jobs", "2")
    check_jobs(record, 2, 2, 0)
    check_hub_logs(placed, record, 2, 300)
    if not isinstance(record.get("host"), str) or not record["host"]:
        sys.exit(f"host: {record.get('host')!r}")
    check_jobs(run(gmfuzz, os.path.join(outdir, "nohubs"), "--jobs", "1", "--hubs", "0"),
               1, 0, None)
    # An older record: no placement, no host. triage reads campaign.json.
    for key in ("placement", "host"):
        del record[key]
    with open(os.path.join(placed, "campaign.json"), "w") as f:
        json.dump(record, f)
    p = subprocess.run([gmfuzz, "triage", placed], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"triage of a record without placement: exit {p.returncode}\n{p.stdout}{p.stderr}")
    print("ok: 2 jobs on 2 hubs of device 0, 1 job pinned to none, an older record read")


main()
