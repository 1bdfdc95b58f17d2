#!/bin/bash
# Time to the first picture and to the whole launch for every catalog family at its teaching size,
# 4x that size and the largest size the simulator accepts, on 1 and on 2 threads (issue 20, item
# 5; docs/PERFORMANCE.md, "Every family at three sizes"). Each run is the GUI under Xvfb, one pane
# (--no-compare) on the family's first variant as `warpscope list` orders them (the one each
# shipped lesson opens on), pinned to core 0 (1 thread) or cores 0 and 1 (2 threads), its
# `--log-times` lines parsed. The families, their first variants and teaching sizes are read from
# `warpscope list`, the largest size from the program's refusal of a larger one.
# Prints a markdown table with its command, the load average at start and end, and the script's
# running time; keeps every run's stderr in LOGDIR (default: a new folder under /tmp, named on
# stderr). A run is stopped after TIMEOUT seconds (default 600) and its cells say so.
# Usage: tools/family_table.sh BUILD_DIR_OR_BINARY [FAMILY...] [--logs LOGDIR]
set -u
usage() {
  echo "usage: $0 BUILD_DIR_OR_BINARY [FAMILY...] [--logs LOGDIR]  (environment: TIMEOUT=600 seconds a run)" >&2
  exit 2
}
[ $# -ge 1 ] || usage
invoked="$0 $*"
bin=$1
shift
[ -d "$bin" ] && bin=$bin/warpscope
[ -x "$bin" ] || { echo "$0: no warpscope binary at $bin" >&2; usage; }
logs=""
only=()
while [ $# -gt 0 ]; do
  case $1 in
    --logs) [ $# -ge 2 ] || usage; logs=$2; shift 2 ;;
    -*) usage ;;
    *) only+=("$1"); shift ;;
  esac
done
logs=${logs:-$(mktemp -d "${TMPDIR:-/tmp}/family_table.XXXXXX")}
mkdir -p "$logs" || exit 2
timeout_s=${TIMEOUT:-600}
for tool in xvfb-run taskset timeout; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is needed (apt-get install xvfb util-linux coreutils)" >&2; exit 2; }
done
if [ "$(nproc --all)" -lt 2 ]; then echo "$0: two cores are needed for the 2-thread runs" >&2; exit 2; fi

list=$("$bin" list) || { echo "$0: $bin list failed" >&2; exit 2; }
start_s=$(date +%s)
start_load=$(cut -d' ' -f1-3 /proc/loadavg)

# "shortcut — Shortcut ... (n: ..., teaching 64, timing 4096)" then its variants, indented.
families=$(printf '%s\n' "$list" | awk '
  /^[^ ]/ { fam = $1; t = ""; if (match($0, /teaching [0-9]+/)) t = substr($0, RSTART + 9, RLENGTH - 9); first = 1; next }
  /^  / && first { print fam, $1, t; first = 0 }')
for f in "${only[@]}"; do
  printf '%s\n' "$families" | grep -q "^$f " || { echo "$0: no family '$f' in $bin list" >&2; exit 2; }
done

# The largest n a family accepts: the program names it when it refuses a larger one ("size
# n=... is over the simulator's limit of 1024 for shortcut"), before simulating anything.
largest_n() {
  timeout 60 "$bin" stats "$1" --n 2147483647 2>&1 >/dev/null | sed -nE "s/.*limit of ([0-9]+).*/\1/p" | head -1
}

# One run: prints "EARLY_WORDS|EARLY_S|PICTURE_WORDS|PICTURE_S|ALL_MARKS_S|WHOLE_S|LAUNCH|RAN_ON|STATUS"
# from the pane's --log-times lines. The first picture is the first line that begins "first
# picture": the shown step's steps, captions and served-from marks final, its words after that
# kept ("(marks of the first 12 steps)": those of the later steps come after); ALL_MARKS_S is the
# plain "first picture", every step's marks final. Any other line before it is an earlier stage, of
# which the first is kept with its words. A launch of one wave prints only "whole launch".
run_one() {
  local variant=$1 n=$2 threads=$3 cores log rc
  [ "$threads" = 1 ] && cores=0 || cores=0,1
  log="$logs/${variant//\//_}_n${n}_t${threads}.log"
  timeout "$timeout_s" taskset -c "$cores" xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" gui --no-settings \
    --size 1600x1000 --variant "$variant" --no-compare --n "$n" --threads "$threads" --log-times --wait-counters \
    --quit >"$log" 2>&1
  rc=$?
  awk -v rc="$rc" -v limit="$timeout_s" '
    /^warpscope: A: [^ ]+ n=[0-9]+: / {
      line = $0
      sub(/^warpscope: A: [^ ]+ n=[0-9]+: /, "", line)
      if (!match(line, / at [0-9.e+-]+ s \(/)) next
      label = substr(line, 1, RSTART - 1)
      t = substr(line, RSTART + 4); sub(/ s \(.*/, "", t)
      if (label == "whole launch") {
        if (whole != "") next
        whole = t
        # "(simulated 0.37 s; 16384 blocks in 4 waves on 1 thread)"
        if (match(line, /; [0-9]+ blocks? .* on [0-9]+ threads?/)) {
          s = substr(line, RSTART + 2); sub(/\)$/, "", s)
          match(s, / on [0-9]+ thread/)
          launch = substr(s, 1, RSTART - 1); ran = substr(s, RSTART + 4)
        }
      } else if (label ~ /^first picture/) {
        if (picture == "") {
          picture = t; words = label
          sub(/^first picture[ ,:]*/, "", words); sub(/^\(/, "", words); sub(/\)$/, "", words)
        }
        if (label == "first picture" && all == "") all = t
      } else if (early == "" && picture == "") {
        early = t; early_label = label
      }
    }
    END {
      status = rc == 0 ? "ok" : (rc == 124 || rc == 137) ? "stopped after " limit " s" : "exit status " rc
      printf "%s|%s|%s|%s|%s|%s|%s|%s|%s\n", early_label, early, words, picture, all, whole, launch, ran, status
    }' "$log"
}

fmt() { [ -n "$1" ] && printf '%.2f' "$1"; }

# A cell of times on 1 and 2 threads.
cell() {  # cell VALUE1 VALUE2 STATUS1 STATUS2
  local a b
  a=$(fmt "$1"); b=$(fmt "$2")
  [ -z "$a" ] && a=$([ "$3" = ok ] && echo "–" || echo "$3")
  [ -z "$b" ] && b=$([ "$4" = ok ] && echo "–" || echo "$4")
  printf '%s / %s' "$a" "$b"
}

rows=()
notes=()
while read -r family variant teaching; do
  [ -n "$family" ] || continue
  if [ ${#only[@]} -gt 0 ] && ! printf '%s\n' "${only[@]}" | grep -qx "$family"; then continue; fi
  largest=$(largest_n "$variant")
  if [ -z "$teaching" ] || [ -z "$largest" ]; then
    echo "$0: could not read the teaching or largest size of $family from $bin" >&2
    exit 2
  fi
  sizes=("$teaching teaching")
  four=$((teaching * 4))
  if [ "$four" -lt "$largest" ]; then
    sizes+=("$four 4×")
  else
    notes+=("$family: 4× the teaching size ($four) is not below the largest, $largest; that row is left out")
  fi
  [ "$largest" -gt "$teaching" ] && sizes+=("$largest largest")
  for size in "${sizes[@]}"; do
    n=${size%% *}
    which=${size#* }
    IFS='|' read -r el1 e1 pw1 p1 a1 w1 l1 r1 st1 <<<"$(run_one "$variant" "$n" 1)"
    IFS='|' read -r el2 e2 pw2 p2 a2 w2 l2 r2 st2 <<<"$(run_one "$variant" "$n" 2)"
    # A run that prints no first picture (a launch of one wave) draws it with its whole launch,
    # and every step's marks come with the whole launch where no plain "first picture" came.
    p1=${p1:-$w1}
    p2=${p2:-$w2}
    picture=$(cell "$p1" "$p2" "$st1" "$st2")
    words=${pw1:-$pw2}
    [ -n "$words" ] && picture="$picture, $words; every step's: $(cell "${a1:-$w1}" "${a2:-$w2}" "$st1" "$st2")"
    launch=${l1:-${l2:-–}}
    # "1 thread (why)" / "2 threads": the counts, and why once where a launch ran on fewer than asked.
    ran="${r1%% *} / ${r2%% *}"
    [ -z "$r1$r2" ] && ran="–"
    why=""
    [[ $r2 == *"("* ]] && why=${r2#*(} || { [[ $r1 == *"("* ]] && why=${r1#*(}; }
    [ -n "$why" ] && ran="$ran (${why%)})"
    label=${el1:-$el2}
    [ -n "$label" ] && early="$(cell "$e1" "$e2" "$st1" "$st2"), $label" || early="–"
    rows+=("| $family | ${variant#*/} | $n ($which) | $launch | $early | $picture | $(cell "$w1" "$w2" "$st1" "$st2") | $ran |")
  done
done <<<"$families"

end_s=$(date +%s)
end_load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "$("$bin" --version 2>/dev/null | head -1), $(date -u +%Y-%m-%d) $(date -u -d "@$start_s" +%H:%M)-$(date -u -d "@$end_s" +%H:%M) UTC,"
echo "load average $start_load at the start, $end_load at the end; the script ran $((end_s - start_s)) s."
echo
echo "    $invoked"
echo
echo "runs, for each row, with T = 1 on CORES = 0 and T = 2 on CORES = 0,1:"
echo
echo "    timeout $timeout_s taskset -c CORES xvfb-run -a -s \"-screen 0 1920x1080x24\" \\"
echo "      $bin gui --no-settings --size 1600x1000 --variant F/V --no-compare --n N --threads T \\"
echo "      --log-times --wait-counters --quit"
echo
echo "Seconds since the window's start, 1 thread / 2 threads. \"Earliest\": the first line before the"
echo "first picture, in its own words (the steps before their served-from marks). \"First picture\": the"
echo "shown step's steps, captions and marks final (where its words follow, the later steps' marks"
echo "came at \"every step's\"); where it is the whole launch's figure, the run printed none before"
echo "the whole launch (a launch of one wave)."
echo
echo "| family | variant | n | launch (H100) | earliest (s) | first picture (s) | whole launch (s) | threads that ran it |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
for note in "${notes[@]}"; do echo; echo "$note"; done
echo "each run's stderr: $logs" >&2
