#!/bin/sh
# regen-cg_annotate.sh -- regenerate the cg_annotate golden files.
#
#   tests/golden/regen-cg_annotate.sh             expected outputs
#   tests/golden/regen-cg_annotate.sh --profiles  also the profiles
#
# Every case listed in cg_annotate/cases.txt (NAME<TAB>ARGUMENTS) is run
# through the system's cg_annotate (Valgrind 3.19; CG_ANNOTATE_ORACLE
# overrides the path), and its standard output becomes
# cg_annotate/expected/NAME.out.  tests/cg_annotate.t compares our
# cg_annotate with these files and, where the system one exists, with a
# fresh run of it.
#
# The cases run in a copy of cg_annotate/ whose modification times are
# set as tests/cg_annotate.t sets them (3.19 warns when a source file is
# newer than the data file): every file 2020-01-01, every *.cgout
# 2021-01-01, every file whose name contains "newer" 2022-01-01 (UTC).
# Each case is run under several Perl hash seeds; a case whose output
# depends on 3.19's hash order (ties) is an error.
#
# --profiles first rebuilds the *.cgout profiles of the C programs with
# the system Cachegrind (gcc and /usr/bin/valgrind needed).  They are
# compiled here with -fdebug-prefix-map so that the fl= lines hold
# relative names (././sortsearch.c) and the tests work from any clone.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
dir=$here/cg_annotate
oracle=${CG_ANNOTATE_ORACLE:-/usr/bin/cg_annotate}

if [ "${1:-}" = --profiles ]; then
    cd "$dir"
    profile() {   # NAME OPT BRANCH-SIM [ARGS...]
        name=$1 opt=$2 bs=$3
        shift 3
        gcc -g "-$opt" -fdebug-prefix-map="$dir"=. -o "./$name-$opt" "$name.c"
        out=$name-$opt
        [ "$bs" = yes ] && out=$out-bs
        [ $# -gt 0 ] && out=$out-n$1
        env -u VALGRIND_LIB /usr/bin/valgrind --tool=cachegrind \
            --branch-sim="$bs" --cachegrind-out-file="$out.cgout" \
            "./$name-$opt" "$@" > /dev/null 2>&1
        chmod 644 "$out.cgout"
        rm -f "./$name-$opt"
        echo "profiled $out.cgout"
    }
    profile sortsearch O0 no
    profile sortsearch O0 yes
    profile sortsearch O2 no
    profile sortsearch O2 yes
    profile matrix O0 no
    profile matrix O2 no
    profile matrix O2 yes
    profile branchy O0 yes
    profile branchy O2 yes
    profile branchy O2 no
    # two runs of one program, for the merge tests
    profile sortsearch O0 no 1000
    profile sortsearch O0 no 3000
    # the same two merged by the system cg_merge (its count lines have
    # extra and trailing blanks)
    /usr/bin/cg_merge -o sortsearch-O0-merged.cgout \
        sortsearch-O0-n1000.cgout sortsearch-O0-n3000.cgout 2> /dev/null
    chmod 644 sortsearch-O0-merged.cgout
    echo "merged sortsearch-O0-merged.cgout"
fi

[ -x "$oracle" ] || { echo "regen-cg_annotate.sh: no $oracle" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$dir/." "$work/"
find "$work" -exec touch -h -d @1577836800 {} +
find "$work" -name '*.cgout' -exec touch -h -d @1609459200 {} +
find "$work" -name '*newer*' -exec touch -h -d @1640995200 {} +

mkdir -p "$dir/expected"
status=0
count=0
tab=$(printf '\t')
while IFS= read -r line; do
    case $line in '' | '#'*) continue ;; esac
    name=${line%%"$tab"*}
    args=${line#*"$tab"}
    first=
    for seed in 1 2 3 4 5 6; do
        # shellcheck disable=SC2086  # the arguments are split on purpose
        out=$(cd "$work" && PERL_HASH_SEED=$seed "$oracle" $args 2>/dev/null; echo "rc=$?")
        if [ -z "$first" ]; then
            first=$out
        elif [ "$out" != "$first" ]; then
            echo "$name: output depends on hash order (ties?)" >&2
            status=1
            break
        fi
    done
    case $first in *rc=0) ;; *) echo "$name: exit status ${first##*rc=}" >&2; status=1 ;; esac
    # shellcheck disable=SC2086
    (cd "$work" && PERL_HASH_SEED=1 "$oracle" $args > "$dir/expected/$name.out" 2>/dev/null) || :
    count=$((count + 1))
done < "$dir/cases.txt"
echo "regenerated $count expected outputs"
exit $status
