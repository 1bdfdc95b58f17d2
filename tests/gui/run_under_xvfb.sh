#!/bin/sh
# Runs a GUI test program under a virtual X server (Mesa's software OpenGL), 1920x1080x24: room for the projector sizes.
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "SKIPPED: xvfb-run not found; install it with: sudo apt-get install xvfb"
  exit 77
fi
exec xvfb-run -a -s "-screen 0 1920x1080x24" "$@"
