#!/usr/bin/env bash
# Key-aware order against the naive one on a JIT-specializing target
# (issue 22: at least 5x faster): the same sweep twice, `--schedule naive`
# (every case drawn anew: a new specialization nearly every case) and
# `--schedule classes` (runs of one class, new classes within a JIT budget:
# fuzz/fuzz_sched.h), each from an empty JIT cache, on the CPU stand-in
# examples/specializing_cpu.py with its default costs (a compile 0.3 s plus
# 20 s at a 65,536-row scan block, a load 0.03 s) unless the environment
# says otherwise. No GPU needed.
#
#   bench/schedule_speed.sh GMFUZZ [--time S] [--jobs N] [--rounds R] [--target T]
#
# Prints each round's two rates (cases checked a second over the whole
# campaign) and their ratio, then the median ratio.
set -uo pipefail
gmfuzz="${1:?usage: bench/schedule_speed.sh GMFUZZ [--time S] [--jobs N] [--rounds R]}"
shift
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds=30 jobs=1 rounds=3 target="python:$root/examples/specializing_cpu.py"
while [ $# -gt 0 ]; do
  case "$1" in
    --time) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --target) target="$2"; shift 2 ;;
    *) echo "schedule_speed.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
export GMFUZZ_PYTHON="${GMFUZZ_PYTHON:-/usr/bin/python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rate() {  # schedule, round: cases a second over the whole campaign
  local dir="$work/$1-$2"
  "$gmfuzz" sweep --target "$target" --target-device cpu --jobs "$jobs" --time "$seconds" \
    --schedule "$1" --seed "$2" --batch 8 --no-minimize --target-cache "$dir.cache" --out "$dir" \
    >"$dir.log" 2>&1
  sed -n 's/^  ran \([0-9.]*\) s: \([0-9]*\) execs.*/\2 \1/p' "$dir.log" |
    awk '{ printf "%.1f", $1 / $2 }'
}

ratios=()
for r in $(seq 1 "$rounds"); do
  naive=$(rate naive "$r")
  classes=$(rate classes "$r")
  ratio=$(awk -v a="$classes" -v b="$naive" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "inf" }')
  ratios+=("$ratio")
  printf 'round %d: naive %8s cases/s   by class %8s cases/s   ratio %s\n' "$r" "$naive" \
    "$classes" "$ratio"
done
printf '%s\n' "${ratios[@]}" | sort -g | awk '{ v[NR] = $1 } END { print "median ratio: " v[int((NR + 1) / 2)] }'
