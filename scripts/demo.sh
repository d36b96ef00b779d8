#!/bin/sh
# demo.sh -- from a fresh clone: install what is needed, build, and
# profile the bundled sample program, printing the annotated source.
# CG_VALGRIND=<prefix>: build against the Valgrind installed there.
set -e
top="$(cd "$(dirname "$0")/.." && pwd)"
. "$top/scripts/deps.sh"
"$top/scripts/build.sh"
work="$(mktemp -d)"
cc -g -O1 -o "$work/sample" "$top/samples/sample.c"
cd "$work"
# --cache-sim=yes: from Valgrind 3.21 on, caches are simulated only on request
"$top/vg-in-place" --tool=cachegrind --cache-sim=yes --cachegrind-out-file=cachegrind.out.sample ./sample
"$top/cg_annotate" --auto=yes cachegrind.out.sample
echo "== profile kept in $work/cachegrind.out.sample"
