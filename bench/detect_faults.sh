#!/usr/bin/env bash
# Time to detect each planted fault of kernel/fused_faults.h: the fuzzer's
# self-test, as a benchmark and (with --check) as the `efficacy` ctest.
#
# One fuzzing tree (clang, -DGMFUZZ_FUZZ=ON, CPU only, no tests) is
# configured once per fault with -DGMFUZZ_FAULT=<name>; a fault changes the
# kernel's two files only, so each rebuild is short. Each variant's
# libFuzzer target and gmfuzz (whose minimizer must run the same faulted
# kernel) are kept in BUILD/variants/<fault>/. Then, per fault, one job
# (one core) runs
#   gmfuzz fuzz --target <variant> --jobs 1 --seed S --stop-on-new ...
# from the seed corpus, against corpus/known.json: it ends at the first
# signature the baseline does not know, minimizes it, and exits 1.
# "none" (the kernel as it is) is the control: it must find nothing. A
# detection counts only when the reproducer it wrote does not replay on the
# correct kernel: the difference is the fault's.
#
#   bench/detect_faults.sh [options] [FAULT...]     (default: every fault)
#     --build DIR    the variants' tree (default build/faults)
#     --out DIR      campaign folders and the table (default out/detect-<time>)
#     --seed S       libFuzzer seed (default 1)
#     --time S       give up on a fault after S seconds (default 60)
#     --runs N       give up after N executions instead (a fixed budget)
#     --cold         no seed corpus and no dictionary (a cold start)
#     --jobs-build N parallel compile jobs (default: cores)
#     --build-only   build the variants and stop
#     --no-build     use the variants already built
#     --check        exit 1 unless every fault is detected with a new
#                    signature and "none" finds nothing
#     --buckets      count NEW buckets instead (issue 10): one campaign per
#                    fault over the whole budget (no --stop-on-new, no
#                    minimizing); with --check, exit 1 unless each fault
#                    gives 1 to 3 new buckets that are its doing (a scan
#                    that restarts per segment, is exclusive or saturates:
#                    found, only in the scan's buffers, its regions the
#                    data's), a pair
#                    a+b (both planted, -DGMFUZZ_FAULT=a+b) at least 2, and
#                    "none" 0. A fault with fewer of its buckets than that
#                    within the budget gets the budget again, its campaign
#                    resumed (corpus and findings kept, the next seed), up
#                    to --rounds times in all: libFuzzer schedules by time,
#                    so a fixed budget is not a fixed run (negative_q_stride_
#                    shifted's first finding came after 1,198 to 22,477
#                    executions over seeds 1-8 under load); the buckets are
#                    counted over all rounds
#     --rounds N     --buckets: at most N budgets for a fault (default 5)
#     --sweep        the engine is `gmfuzz sweep` (harness/harness_gen.c, one
#                    job, default options) instead of libFuzzer; --runs is
#                    then its case count (the same seed and count are the
#                    same cases on any machine, loaded or not); with
#                    --buckets and --check, exit 1 unless each fault gives
#                    a new bucket that is its doing (a pair two), "none" 0
#
# Prints one line per fault:
#   fault  detected  seconds  execs  signature
# or, with --buckets:
#   fault  buckets  theirs  signatures  first-bucket-seconds  the buckets
# and the median seconds over the faults detected. The seconds are from the
# campaign's start to the failure file's time (the engine's start-up and
# the seed corpus included); execs is libFuzzer's count at the failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build/faults"
out=""
seed=1
time_limit=60
runs=""
jobs_build="$(nproc 2>/dev/null || echo 2)"
do_build=1
do_run=1
check=0
buckets=0
sweep=0
cold=()
faults=()
rounds=5

while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --time) time_limit="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --jobs-build) jobs_build="$2"; shift 2 ;;
    --build-only) do_run=0; shift ;;
    --no-build) do_build=0; shift ;;
    --check) check=1; shift ;;
    --cold) cold=(--no-seeds --no-dict); shift ;;
    --buckets) buckets=1; shift ;;
    --rounds) rounds="$2"; shift 2 ;;
    --sweep) sweep=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "detect_faults: unknown option $1" >&2; exit 2 ;;
    *) faults+=("$1"); shift ;;
  esac
done

# The catalogue's names, from the header itself (as kernel/CMakeLists.txt).
catalogue() {
  grep -oE '^ *X\([a-z0-9_]+,' "$root/kernel/fused_faults.h" | sed -E 's/^ *X\(//; s/,$//'
}
if [ ${#faults[@]} -eq 0 ]; then
  mapfile -t faults < <(catalogue)
  faults+=(none)
fi

if [ "$sweep" = 1 ] && [ "$buckets" = 0 ] && [ "$do_run" = 1 ]; then
  echo "detect_faults: --sweep counts buckets: give --buckets too" >&2
  exit 2
fi

if ! command -v clang >/dev/null 2>&1; then
  echo "detect_faults: clang is needed for the libFuzzer targets" >&2
  exit 77
fi

build_variant() {  # fault (a+b: both planted)
  local fault="$1" flag="$1"
  [ "$fault" = none ] && flag=""
  cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release \
    -DGMFUZZ_FUZZ=ON -DGMFUZZ_CUDA=OFF -DBUILD_TESTING=OFF -DGMFUZZ_FAULT="$flag" \
    >"$build/detect-configure.log" 2>&1 || { cat "$build/detect-configure.log" >&2; return 1; }
  cmake --build "$build" -j "$jobs_build" --target gmfuzz-libfuzzer-cpu gmfuzz \
    >"$build/detect-build.log" 2>&1 || { tail -40 "$build/detect-build.log" >&2; return 1; }
  mkdir -p "$build/variants/$fault"
  cp "$build/fuzz/gmfuzz-libfuzzer-cpu" "$build/cli/gmfuzz" "$build/variants/$fault/"
}

if [ "$do_build" = 1 ]; then
  mkdir -p "$build"
  for fault in "${faults[@]}"; do
    start=$SECONDS
    build_variant "$fault"
    echo "built $fault in $((SECONDS - start)) s" >&2
  done
fi
[ "$do_run" = 1 ] || exit 0

[ -n "$out" ] || out="$root/out/detect-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
table="$out/table.txt"
: >"$table"
failed=0
seconds_found=()

# The signatures a campaign found itself (first seen after its start; a
# resumed folder lists the earlier ones too, before its start), one
# "signature<TAB>seconds<TAB>execs<TAB>repro" line each, in order.
new_findings() {  # summary file
  awk '
    /^  signature / {
      sig = $0; sub(/^  signature /, "", sig); sub(/: [0-9]+ inputs?, first after .*/, "", sig)
      secs = $0; sub(/.* first after /, "", secs); sub(/ s and .*/, "", secs)
      execs = $0; sub(/.* s and /, "", execs); sub(/ execs.*/, "", execs)
      pending = 1; next
    }
    /^    repro: / && pending {
      repro = $0; sub(/^    repro: /, "", repro); sub(/ \(bs .*/, "", repro)
      if (secs + 0 >= 0) print sig "\t" secs "\t" execs "\t" repro
      pending = 0
    }' "$1"
}

# Whether a reproducer is the fault's doing: replayed on the correct kernel
# ("none"), its recorded fused outputs must no longer come back. A
# difference the correct kernel shows too is a gap in corpus/known.json,
# not a detection.
attributed() {  # repro, replay log
  ! "$build/variants/none/gmfuzz" replay "$1" >"$2" 2>&1
}

add() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a + b }'; }

# Runs the variant's campaign in rounds on one folder: each round stops at
# the first new signature; one that the correct kernel shows too is noted
# and the next round resumes (the corpus and the signatures found so far
# carry over, so it looks for others), until a detection or the budget is
# spent. Sets: found (sig<TAB>seconds<TAB>execs), passed (signatures of the
# correct kernel met on the way).
campaign_rounds() {  # fault
  local fault="$1" dir="$out/$1" variant="$build/variants/$1"
  local spent_s=0 spent_execs=0 round=0 rc left line ran_s ran_execs sig secs execs repro
  found="" passed=()
  rm -rf "$dir" "$dir".*
  while [ -z "$found" ]; do
    left="$(awk -v t="$time_limit" -v s="$spent_s" 'BEGIN { print t - s }')"
    awk -v l="$left" 'BEGIN { exit !(l >= 1) }' || break
    local args=(fuzz --target "$variant/gmfuzz-libfuzzer-cpu" --jobs 1 --seed $((seed + round))
                --stop-on-new --time "$left" --out "$dir" "${cold[@]}")
    if [ -n "$runs" ]; then
      [ "$spent_execs" -lt "$runs" ] || break
      args+=(--runs $((runs - spent_execs)))
    fi
    rc=0
    "$variant/gmfuzz" "${args[@]}" >"$dir.summary.$round" 2>>"$dir.stderr" || rc=$?
    [ "$rc" = 1 ] || break  # 0: the budget is spent; else a broken campaign
    while IFS=$'\t' read -r sig secs execs repro; do
      if attributed "$repro" "$dir.replay.$round"; then
        found="$sig"$'\t'"$(add "$spent_s" "$secs")"$'\t'$((spent_execs + execs))
        break
      fi
      passed+=("$sig")
    done < <(new_findings "$dir.summary.$round")
    line="$(grep -m1 '^  ran ' "$dir.summary.$round")"
    ran_s="$(sed -E 's/^  ran ([0-9.]+) s.*/\1/' <<<"$line")"
    ran_execs="$(sed -E 's/.*: ([0-9]+) execs .*/\1/' <<<"$line")"
    spent_s="$(add "$spent_s" "$ran_s")"
    spent_execs=$((spent_execs + ran_execs))
    round=$((round + 1))
  done
  last_rc="$rc"
}

row() { printf '%-32s %-9s %8s %10s  %s\n' "$@" | tee -a "$table"; }

# The control: the correct kernel, one campaign over the whole budget, must
# find no signature that corpus/known.json does not list.
control() {
  local dir="$out/none" variant="$build/variants/none" rc=0 n
  local args=(fuzz --target "$variant/gmfuzz-libfuzzer-cpu" --jobs 1 --seed "$seed"
              --time "$time_limit" --no-minimize --out "$dir" "${cold[@]}")
  [ -n "$runs" ] && args+=(--runs "$runs")
  rm -rf "$dir" "$dir".*
  "$variant/gmfuzz" "${args[@]}" >"$dir.summary" 2>"$dir.stderr" || rc=$?
  if [ "$rc" = 0 ]; then
    row none nothing - - "(the correct kernel: no new signature)"
    return 0
  fi
  n="$(grep -c '^  signature ' "$dir.summary" || true)"
  row none FOUND - - "$n signatures not in corpus/known.json (exit $rc): $(
    grep '^  signature ' "$dir.summary" | head -3 | sed -E 's/^  signature ([^:]+):.*/\1/' |
    tr '\n' ' ')..."
  return 1
}

# One fault; prints its table line and returns 0 when it was detected.
detect() {  # fault
  local fault="$1" sig secs execs note=""
  [ "$fault" != none ] || { control; return; }
  campaign_rounds "$fault"
  [ ${#passed[@]} -eq 0 ] || note=" (passed ${#passed[@]} the correct kernel shows too)"
  if [ -n "$found" ]; then
    IFS=$'\t' read -r sig secs execs <<<"$found"
    row "$fault" yes "$secs" "$execs" "$sig$note"
    seconds_found+=("$secs")
    return 0
  fi
  row "$fault" "NO" - - "exit $last_rc$note; see $out/$fault.summary.*"
  return 1
}

# --buckets: the NEW buckets of one campaign over the whole budget. A bucket
# is the fault's doing when its failure does not replay on the correct
# kernel (as `attributed`); the others are gaps of corpus/known.json.
bucket_row() { printf '%-40s %7s %7s %10s %8s  %s\n' "$@" | tee -a "$table"; }

# One --buckets campaign's command line over the whole budget, no
# minimizing: the variant's libFuzzer target, or (--sweep) its builtin
# kernel swept; round R runs seed + R.
campaign_args() {  # variant dir round
  local s=$((seed + $3))
  if [ "$sweep" = 1 ]; then
    # a sweep meets many signatures where a fault breaks every case: the
    # reproducers' replays would take the minimizer's whole budget, and
    # bucket_tally replays the failures it counts itself
    args=(sweep --jobs 1 --seed "$s" --time "$time_limit" --no-minimize --minimize-time 1
          --out "$2")
    [ -n "$runs" ] && args+=(--cases "$runs")
  else
    args=(fuzz --target "$1/gmfuzz-libfuzzer-cpu" --jobs 1 --seed "$s"
          --time "$time_limit" --no-minimize --out "$2" "${cold[@]}")
    [ -n "$runs" ] && args+=(--runs "$runs")
  fi
  return 0
}

# One --buckets campaign of the variant on its folder: round 0 starts it,
# a later round resumes it with the next seed. False: a broken campaign.
bucket_campaign() {  # fault round
  local fault="$1" round="$2" dir="$out/$1" variant="$build/variants/$1" rc=0 args=()
  campaign_args "$variant" "$dir" "$round"
  "$variant/gmfuzz" "${args[@]}" >"$dir.summary" 2>>"$dir.stderr" || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 1 ] || { bucket_rc="$rc"; return 1; }
}

# The NEW buckets in the folder's summary (all rounds: a resumed campaign
# lists the earlier findings too). Sets n, theirs, names, sigs, first.
bucket_tally() {  # fault
  local fault="$1" dir="$out/$1" all="$out/$1.summary" key failure
  n=0 theirs=0 names=()
  [ -f "$dir/summary.txt" ] && all="$dir/summary.txt"  # every bucket, not the screen's
  while IFS=$'\t' read -r key failure; do
    n=$((n + 1))
    if attributed "$failure" "$dir.replay.$n"; then
      theirs=$((theirs + 1))
      names+=("$key")
    else
      names+=("($key: the correct kernel too)")
    fi
  done < <(awk '/^  bucket / && !/known to the baseline/ {
                  key = $0; sub(/^  bucket /, "", key); sub(/: [0-9]+ signatures?, .*/, "", key)
                  f = $0; sub(/.*; (failure|repro): /, "", f); sub(/ \(bs [0-9]+\)$/, "", f)
                  print key "\t" f }' "$all")
  sigs="$(sed -nE 's/^  found ([0-9]+) new signatures? .*/\1/p' "$all" | head -1)"
  sigs="${sigs:-0}"
  # the first new signature's seconds (a sweep: its case, fixed by seed and
  # count); a resumed campaign's earlier findings have negative seconds
  first="$(awk -v cases="$sweep" '
                /^  signature / { s = $0; sub(/.* first after /, "", s); e = s
                                  sub(/ s and .*/, "", s); sub(/.* s and /, "", e); sub(/ execs.*/, "", e)
                                  k = (cases == 1 ? e : s)
                                  if (s + 0 >= 0 && (best == "" || k + 0 < best + 0)) best = k }
                END { print (best == "" ? "-" : best) }' "$all")"
}

count_buckets() {  # fault
  local fault="$1" dir="$out/$1" round=0 n theirs sigs first names bucket_rc="" need=1
  case "$fault" in none) need=0 ;; *+*) need=2 ;; esac
  rm -rf "$dir" "$dir".*
  while :; do
    if ! bucket_campaign "$fault" "$round"; then
      bucket_row "$fault" - - - - "broken campaign (exit $bucket_rc); see $dir.summary"
      return 1
    fi
    bucket_tally "$fault"
    { [ "$theirs" -lt "$need" ] && [ $((round + 1)) -lt "$rounds" ]; } || break
    round=$((round + 1))
    echo "detect_faults: $fault: $theirs of its buckets;" \
         "round $((round + 1)) of at most $rounds" >&2
  done
  [ "$round" -eq 0 ] || names+=("[$((round + 1)) rounds]")
  bucket_row "$fault" "$n" "$theirs" "$sigs" "$first" "$(IFS=' '; echo "${names[*]:-}")"
  [ "$check" = 1 ] || return 0
  if [ "$sweep" = 1 ]; then  # found is enough: the bucket counts are the fuzzer's bar
    case "$fault" in
      none) [ "$n" -eq 0 ] ;;
      *+*) [ "$theirs" -ge 2 ] ;;
      *) [ "$theirs" -ge 1 ] ;;
    esac
    return
  fi
  case "$fault" in
    none) [ "$n" -eq 0 ] ;;
    *+*) [ "$theirs" -ge 2 ] ;;
    # A scan whose sums restart every segment first differs at the first
    # segment edge past rows that carry a sum: with empty rows, or terms
    # that cancel (seq_len + offset below 0), that edge is the data's, and
    # any scan region can be a bucket's WHERE (up to 6 seen with 60,000
    # runs); an exclusive scan first differs at the first row with a
    # nonzero term, past the case's leading empty rows (seeds 1-9: 2 to 4
    # buckets, @rows<512 and @rows<1024 among them); a scan that saturates
    # first differs where the sum passes int32: the data's too. Found, and
    # every bucket in the scan's buffers.
    scan_first_* | scan_exclusive | scan_saturates)
      [ "$theirs" -ge 1 ] && [ "$theirs" -eq "$n" ] &&
        ! printf '%s\n' "${names[@]}" | grep -v '^\[' | grep -qv '^cu_seqlens_[kq]' ;;
    *) [ "$theirs" -ge 1 ] && [ "$n" -le 3 ] ;;
  esac
}

if [ "$buckets" = 1 ]; then
  if [ "$sweep" = 1 ]; then
    bucket_row fault buckets theirs signatures first_case buckets
  else
    bucket_row fault buckets theirs signatures first_s buckets
  fi
  for fault in "${faults[@]}"; do
    count_buckets "$fault" || failed=$((failed + 1))
  done
  echo "table: $table" >&2
  if [ "$check" = 1 ] && [ "$failed" -gt 0 ]; then
    echo "detect_faults: $failed of ${#faults[@]} not as expected" >&2
    exit 1
  fi
  exit 0
fi

row fault detected seconds execs signature
for fault in "${faults[@]}"; do
  detect "$fault" || failed=$((failed + 1))
done
if [ ${#seconds_found[@]} -gt 0 ]; then
  median="$(printf '%s\n' "${seconds_found[@]}" | sort -g |
            awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}')"
  echo "median time to detect: $median s over ${#seconds_found[@]} faults (seed $seed${cold[*]:+, cold start})" |
    tee -a "$table"
fi
echo "table: $table" >&2
if [ "$check" = 1 ] && [ "$failed" -gt 0 ]; then
  echo "detect_faults: $failed of ${#faults[@]} not as expected" >&2
  exit 1
fi
