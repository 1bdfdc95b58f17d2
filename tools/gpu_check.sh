#!/usr/bin/env bash
# On a machine with a GPU: bench every variant, run the GPU tests, compare the simulator with
# Nsight Compute, and run compute-sanitizer (memcheck, racecheck) on every variant.
# usage: tools/gpu_check.sh BUILD_DIR OUT_DIR [bench|tests|ncu|sanitize ...] (default: all)
set -u
BIN=$(realpath "${1:-build-gpu}"); OUT=$(realpath -m "${2:-gpu-out}"); shift 2 || true
STEPS="${*:-bench tests ncu sanitize}"
WS=$BIN/warpscope
# Full logs go to a folder outside OUT and are packed into OUT/logs.tar.gz after every step, so
# OUT holds few files (the device tool brings back at most 8) and a cut-off run keeps its logs.
LOGS=$(mktemp -d)/logs; mkdir -p "$LOGS" "$OUT"
pack() { tar -C "$(dirname "$LOGS")" -czf "$OUT/logs.tar.gz" logs; }
cd "$(dirname "$0")/.."
has() { [[ " $STEPS " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,memory.total --format=csv > "$LOGS/nvidia-smi.csv" 2>&1
"$WS" list > "$LOGS/list.txt"
mapfile -t VARIANTS < <(grep '^  ' "$LOGS/list.txt" | awk '{print $1}')

# Sizes other than a family's timing size: WS_BENCH_SIZES="shortcut=2048 pairs=16384".
size_of() { for kv in ${WS_BENCH_SIZES:-}; do [[ ${kv%%=*} == "$1" ]] && echo "${kv#*=}"; done; }

if has bench; then
  echo "== bench (every variant, one process per family) =="
  : > "$OUT/bench.txt"
  for fam in $(grep -v '^  ' "$LOGS/list.txt" | awk '{print $1}'); do
    n=$(size_of "$fam")
    "$WS" bench "$fam" ${n:+--n $n} --json "$LOGS/bench_$fam.json" 2>>"$LOGS/bench_progress.txt" | tee -a "$OUT/bench.txt"
    echo "bench $fam exit code ${PIPESTATUS[0]}" | tee -a "$OUT/bench.txt"
  done
  python3 - "$OUT" "$LOGS" <<'PY'
import glob, json, sys
out, logs = sys.argv[1], sys.argv[2]
merged = None
for f in sorted(glob.glob(logs + "/bench_*.json")):
    j = json.load(open(f))
    if merged is None:
        merged = j
    else:
        merged["timings"] += j["timings"]
if merged:
    merged["command"] = "tools/gpu_check.sh (warpscope bench FAMILY per family)"
    json.dump(merged, open(out + "/bench.json", "w"), indent=1)
PY
  pack
fi

if has tests; then
  if [[ -f "$BIN/CTestTestfile.cmake" ]]; then
    echo "== GPU tests: ctest -L gpu =="
    (cd "$BIN" && ctest -L gpu --output-on-failure) > "$LOGS/gpu_tests.txt" 2>&1; rc=$?
  else
    echo "== GPU tests (the binary ctest -L gpu runs) =="
    "$BIN/ws_gpu_tests" > "$LOGS/gpu_tests.txt" 2>&1; rc=$?
  fi
  grep -E "PASSED|FAILED|tests passed|tests failed|note" "$LOGS/gpu_tests.txt" | tail -30
  echo "GPU tests exit code $rc"
  pack
fi

if has ncu; then
  echo "== simulator vs ncu =="
  python3 tools/ncu_compare.py --warpscope "$WS" --out "$OUT" > "$LOGS/ncu_summary.txt" 2>&1
  tail -40 "$LOGS/ncu_summary.txt"
  mv "$OUT/ncu_log.txt" "$LOGS/" 2>/dev/null
  pack
fi

if has sanitize; then
  echo "== compute-sanitizer, every variant at its teaching size, one plain launch =="
  : > "$OUT/sanitizer.txt"
  for v in "${VARIANTS[@]}"; do
    # the family's teaching size (as `warpscope stats`), from "family — ... teaching N, timing M)"
    tn=$(grep "^${v%%/*} " "$LOGS/list.txt" | sed -E 's/.*teaching ([0-9]+).*/\1/')
    for tool in memcheck racecheck; do
      log="$LOGS/sanitizer_${tool}_${v//\//_}.txt"
      timeout "${WS_SANITIZER_TIMEOUT:-60}" compute-sanitizer --tool "$tool" --error-exitcode 9 "$WS" bench "$v" --n "$tn" --single-launch > "$log" 2>&1
      rc=$?
      summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Race reported|hazard" "$log" | sort | uniq -c | head -5 | tr '\n' ';')
      echo "$v $tool exit=$rc $summary" | tee -a "$OUT/sanitizer.txt"
    done
  done
fi
pack
