#!/bin/sh
# regen-cg_diff.sh -- regenerate the expected outputs of the cg_diff golden
# tests (tests/golden/cg_diff/cases/*.exp) with the system's Valgrind 3.19
# cg_diff, which is the reference.
#
#   sh tests/golden/regen-cg_diff.sh              expected outputs only
#   sh tests/golden/regen-cg_diff.sh --profiles   first re-make the real
#                                                 profiles (inputs/real-*)
#
# Layout of tests/golden/cg_diff/:
#   src/work.c          the program behind the real profiles; two variants
#                       are built from it (-DROUNDS=3 and -DROUNDS=5)
#   inputs/*.out        the Cachegrind output files compared; real-* are
#                       made by --profiles, the rest are written by hand
#   cases/NAME.args     one cg_diff argument per line (paths relative to
#                       tests/golden/cg_diff, where cg_diff is run)
#   cases/NAME.exp      the system cg_diff's standard output (generated)
#   cases/NAME.own      hand-written expected output for inputs 3.19
#                       cannot handle; such cases get no .exp
#   cases/NAME.no-annotate
#                       if present, tests/cg_diff.t does not run the
#                       system cg_annotate on this case (the file says why)
#
# 3.19 writes the (file, function) blocks in Perl hash order, so a .exp
# file is only meaningful after sorting its blocks; tests/cg_diff.t does
# that.
set -e

ref_diff=/usr/bin/cg_diff
ref_valgrind=/usr/bin/valgrind
here=$(cd "$(dirname "$0")" && pwd)
dir=$here/cg_diff

case $("$ref_diff" --version 2>&1) in
  cg_diff-3.19.*) ;;
  *) echo "regen-cg_diff.sh: $ref_diff is not Valgrind 3.19's cg_diff" >&2
     exit 1 ;;
esac

if [ "${1:-}" = --profiles ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cp "$dir/src/work.c" "$tmp/"
  # Fixed cache geometry, so the profiles do not depend on the machine.
  caches="--I1=32768,8,64 --D1=32768,8,64 --LL=1048576,16,64"
  for variant in a:3 b:5; do
    name=${variant%%:*}
    rounds=${variant#*:}
    # -ffile-prefix-map keeps the build directory out of the profile
    # (the file shows as ././work.c).
    (cd "$tmp" && gcc -g -O0 -ffile-prefix-map="$tmp"=. -DROUNDS="$rounds" \
        -o "work-$name" work.c)
    for kind in basic branch; do
      opts=""
      [ "$kind" = branch ] && opts="--branch-sim=yes"
      # shellcheck disable=SC2086
      (cd "$tmp" && env -u VALGRIND_LIB "$ref_valgrind" --tool=cachegrind \
          $caches $opts \
          --cachegrind-out-file="$dir/inputs/real-$kind.$name.out" \
          "./work-$name" >/dev/null 2>&1)
      chmod 644 "$dir/inputs/real-$kind.$name.out"
    done
  done
  echo "regenerated $dir/inputs/real-*.out"
fi

cd "$dir"
for args in cases/*.args; do
  name=${args%.args}
  [ -f "$name.own" ] && continue
  set --
  while IFS= read -r arg; do
    set -- "$@" "$arg"
  done < "$args"
  if ! "$ref_diff" "$@" > "$name.exp" 2>/dev/null; then
    echo "regen-cg_diff.sh: $ref_diff failed on $args" >&2
    exit 1
  fi
  echo "wrote $name.exp"
done
