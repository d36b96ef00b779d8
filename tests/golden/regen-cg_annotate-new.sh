#!/bin/sh
# regen-cg_annotate-new.sh -- regenerate the golden files of
# cg_annotate --layout=new from the Python cg_annotate of a Valgrind
# release.
#
#   tests/golden/regen-cg_annotate-new.sh [valgrind-X.Y.Z.tar.xz]
#
# The script is taken out of the release's source tarball (default: the
# 3.24.0 one in ../shared/valgrind-src beside the repository), its
# @VERSION@ filled in, and run with python3 on every case of
# cg_annotate/new-cases.txt (NAME<TAB>ARGUMENTS) in a copy of
# cg_annotate/ whose modification times are set as tests/cg_annotate.t
# sets them.  Its standard output, without the Invocation: line (which
# names the script), becomes cg_annotate/expected-new/NAME.out.  A case
# the script rejects is an error.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=$here/cg_annotate
tarball=${1:-$here/../../../shared/valgrind-src/valgrind-3.24.0.tar.xz}
[ -f "$tarball" ] || { echo "regen-cg_annotate-new.sh: no tarball $tarball" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

release=$(basename "$tarball" .tar.xz)
tar xJf "$tarball" -C "$tmp" "$release/cachegrind/cg_annotate.in"
version=${release#valgrind-}
sed "s/@VERSION@/$version/" "$tmp/$release/cachegrind/cg_annotate.in" > "$tmp/cg_annotate.py"

cp -r "$dir" "$tmp/work"
find "$tmp/work" -exec sh -c 'for f; do
    case "$f" in *newer*) t=202201010000 ;; *.cgout) t=202101010000 ;; *) t=202001010000 ;; esac
    touch -t "$t" "$f"; done' sh {} +

mkdir -p "$dir/expected-new"
grep -v '^#' "$dir/new-cases.txt" | while IFS='	' read -r name args; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086 # the arguments split on blanks
    (cd "$tmp/work" && TZ=UTC python3 "$tmp/cg_annotate.py" $args) > "$tmp/out" \
        || { echo "regen-cg_annotate-new.sh: $name: the script failed" >&2; exit 1; }
    grep -v '^Invocation:' "$tmp/out" > "$dir/expected-new/$name.out"
    echo "$name"
done
