#!/bin/sh
# demo.sh -- from a fresh clone: install what is needed, build, and
# profile the bundled sample program, printing the annotated source.
set -e
top="$(cd "$(dirname "$0")/.." && pwd)"
. "$top/scripts/deps.sh"
"$top/scripts/build.sh"
work="$(mktemp -d)"
cc -g -O1 -o "$work/sample" "$top/samples/sample.c"
cd "$work"
"$top/vg-in-place" --tool=cachegrind --cachegrind-out-file=cachegrind.out.sample ./sample
"$top/cg_annotate" --auto=yes cachegrind.out.sample
echo "== profile kept in $work/cachegrind.out.sample"
