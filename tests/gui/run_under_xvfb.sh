#!/bin/sh
# Runs a GUI test program under a virtual X server (Mesa's software OpenGL), 1920x1080x24: room for the projector sizes.
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "SKIPPED: xvfb-run not found; install it with: sudo apt-get install xvfb"
  exit 77
fi
# The X authority file is ours, not a folder xvfb-run makes and removes: its removal has been seen
# to fail beside other X servers on a loaded machine, and xvfb-run then turns a passing run into
# exit status 5.
auth=$(mktemp "${TMPDIR:-/tmp}/warpscope-xauth.XXXXXX") || exit 1
xvfb-run -a -f "$auth" -s "-screen 0 1920x1080x24" "$@"
rc=$?
rm -f "$auth" 2>/dev/null
exit $rc
