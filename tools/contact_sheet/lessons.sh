#!/usr/bin/env bash
# Exports every shipped lesson at 1280x720 under Xvfb and writes docs/lessons-contact-sheet.png:
# one row per lesson, each slide a quarter of its size. Run from the source folder after a build:
#   tools/contact_sheet/lessons.sh [BUILD_DIR]
set -euo pipefail
build="${1:-build}"
out=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-lessons.XXXXXX")
trap 'rm -rf "$out"' EXIT
dirs=()
for lesson in assets/lessons/*.json; do
  name=$(basename "$lesson" .json)
  xvfb-run -a -s "-screen 0 1280x720x24" "$build/warpscope" lesson "$lesson" --no-settings --size 1280x720 \
    --export "$out/$name"
  dirs+=("$out/$name")
done
"$build/ws_contact_sheet" docs/lessons-contact-sheet.png 4 "${dirs[@]}"
