#!/bin/sh
# deps.sh -- installs what building and testing cachegrind-ng needs on
# Debian or Ubuntu, if it is not there yet.  Sourced by demo.sh/test.sh.
set -e
need=""
check() { command -v "$1" >/dev/null 2>&1 || need="$need $2"; }
check gcc gcc
check make make
check autoreconf "autoconf automake"
check pkg-config pkg-config
check perl perl
check prove perl
check python3 python3
check bzip2 bzip2
check xz xz-utils
check sqlite3 sqlite3
# tests/html.t: cg_annotate --html in a real browser (playwright-core
# comes from npm when the test runs)
check chromium chromium
check node nodejs
check npm npm
if [ -n "$CG_VALGRIND" ]; then
  # A Valgrind installed under a prefix of the user's: nothing to install.
  if [ ! -x "$CG_VALGRIND/bin/valgrind" ]; then
    echo "CG_VALGRIND=$CG_VALGRIND: no bin/valgrind under it" >&2
    exit 1
  fi
else
  check valgrind valgrind
  [ -f /usr/include/valgrind/pub_tool_basics.h ] || need="$need valgrind"
fi
# 32-bit programs: the x86 variant of the tool needs a 32-bit compiler.
if ! printf 'int main(void){return 0;}\n' \
     | gcc -m32 -x c -o /dev/null - >/dev/null 2>&1; then
  need="$need gcc-multilib"
fi
if [ -n "$need" ]; then
  echo "== installing:$need"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
fi
