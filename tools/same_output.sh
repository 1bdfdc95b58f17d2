#!/bin/bash
# Behaviour unchanged: the CLI's JSON of two warpscope builds, byte for byte. For every catalog
# family `warpscope table FAMILY --json`, for every catalog variant `warpscope stats VARIANT
# --json`, and `warpscope list`, each run by both binaries (stdout and exit status compared; the
# family and variant names are the first binary's list). The one field that is a wall-clock time,
# stats' "simulated_seconds", is left out of the comparison (kept in the files). Prints one line
# per difference and a count; exit 0 when all are the same, 1 otherwise.
# table's "file" is the path of the assets a build reads (its source tree's, else beside the
# binary): build both in one tree, keeping a copy of the first, or their tables differ in it.
# Usage: tools/same_output.sh BEFORE/warpscope AFTER/warpscope [OUTDIR]  (OUTDIR keeps both outputs)
set -u
if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $0 BEFORE/warpscope AFTER/warpscope [OUTDIR]" >&2
  exit 2
fi
before=$1 after=$2
out=${3:-$(mktemp -d "${TMPDIR:-/tmp}/same_output.XXXXXX")}
mkdir -p "$out/before" "$out/after"
list=$("$before" list) || { echo "$before list failed" >&2; exit 2; }
families=$(printf '%s\n' "$list" | grep -v '^ ' | sed 's/ .*//')
variants=$(printf '%s\n' "$list" | grep '^  ' | awk '{print $1}')
checks=0 differ=0
# One command by both binaries: "NAME ARGS..." -> OUTDIR/{before,after}/NAME.
run() {
  local name=$1
  shift
  "$before" "$@" >"$out/before/$name" 2>/dev/null
  echo "exit status $?" >>"$out/before/$name"
  "$after" "$@" >"$out/after/$name" 2>/dev/null
  echo "exit status $?" >>"$out/after/$name"
  checks=$((checks + 1))
  if ! cmp -s <(grep -v '"simulated_seconds":' "$out/before/$name") <(grep -v '"simulated_seconds":' "$out/after/$name"); then
    differ=$((differ + 1))
    echo "DIFFERS: warpscope $* (diff $out/before/$name $out/after/$name)"
  fi
}
run list list
for f in $families; do run "table_$f.json" table "$f" --json; done
for v in $variants; do run "stats_${v//\//_}.json" stats "$v" --json; done
echo "$checks outputs compared, $((checks - differ)) byte-identical, $differ differ ($out)"
[ "$differ" -eq 0 ]
