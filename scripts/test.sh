#!/bin/sh
# test.sh -- from a fresh clone: install what is needed, build, and run
# every test (TAP, through prove).  CG_VALGRIND=<prefix>: build against
# the Valgrind installed there and test against its Cachegrind.
set -e
top="$(cd "$(dirname "$0")/.." && pwd)"
. "$top/scripts/deps.sh"
"$top/scripts/build.sh"
cd "$top"
prove -j2 tests/
