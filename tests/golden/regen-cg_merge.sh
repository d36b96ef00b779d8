#!/bin/bash
# regen-cg_merge.sh -- regenerate the expected results of the cg_merge
# golden tests (tests/golden/cg_merge/expected/) by running the system
# cg_merge (Valgrind 3.19) on every case listed in tests/golden/cg_merge/cases.
#
#   tests/golden/regen-cg_merge.sh              expected results only
#   tests/golden/regen-cg_merge.sh --profiles   first re-create the real
#       Cachegrind profiles in inputs/ from src/ with the system Valgrind
#       (their counts depend on the machine, so this changes the goldens)
#
# CG_MERGE_ORACLE overrides the reference binary (default /usr/bin/cg_merge).
# Each case runs in an empty temporary directory holding copies of the
# inputs it names, with argv[0] set to "cg_merge", exactly as
# tests/cg_merge.t runs it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=$here/cg_merge
oracle=${CG_MERGE_ORACLE:-/usr/bin/cg_merge}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

die() { echo "regen-cg_merge.sh: $*" >&2; exit 1; }

make_profiles() {
    local valgrind=/usr/bin/valgrind p=$work/profiles
    [ -x "$valgrind" ] || die "$valgrind not found"
    mkdir "$p"
    cp "$dir"/src/*.c "$p"/
    (
        cd "$p"
        unset VALGRIND_LIB
        cc -g -O0 -o sum sum.c
        cc -g -O0 -o sort sort.c
        cg() { "$valgrind" --tool=cachegrind "$@" >/dev/null 2>&1; }
        cg --cachegrind-out-file=true.cgout /bin/true
        cg --cachegrind-out-file=sum.cgout ./sum 1000
        cg --cachegrind-out-file=sum-big.cgout ./sum 50000
        cg --branch-sim=yes --cachegrind-out-file=sort-branch.cgout ./sort 1
        cg --branch-sim=yes --cachegrind-out-file=sort-branch2.cgout ./sort 7
        cg --cache-sim=no --cachegrind-out-file=sum-nocache.cgout ./sum 10
        cg --cache-sim=no --cachegrind-out-file=true-nocache.cgout /bin/true
    )
    for f in "$p"/*.cgout; do
        install -m 644 "$f" "$dir/inputs/"
    done
    echo "regenerated profiles in $dir/inputs"
}

# run_case NAME ARGS...: run the oracle in a fresh directory, store results.
run_case() {
    local name=$1; shift
    local run=$work/run-$name arg status
    mkdir "$run"
    for arg in "$@"; do
        if [ -f "$dir/inputs/$arg" ]; then cp "$dir/inputs/$arg" "$run/"; fi
    done
    set +e
    (cd "$run" && exec -a cg_merge "$oracle" "$@") \
        >"$dir/expected/$name.stdout" 2>"$dir/expected/$name.stderr"
    status=$?
    set -e
    echo "$status" >"$dir/expected/$name.status"
    if [ -e "$run/merged.cgout" ]; then
        cp "$run/merged.cgout" "$dir/expected/$name.outfile"
    else
        rm -f "$dir/expected/$name.outfile"
    fi
    echo "$name: exit $status"
}

[ -x "$oracle" ] || die "$oracle not found"
if [ "${1:-}" = --profiles ]; then make_profiles; fi
mkdir -p "$dir/expected"
rm -f "$dir"/expected/*
while read -r name args; do
    case "$name" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086  # arguments are split on white space
    run_case "$name" $args
done <"$dir/cases"
