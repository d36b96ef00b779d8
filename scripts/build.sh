#!/bin/sh
# build.sh -- configures and builds the tree in place, against the
# Valgrind installed under $CG_VALGRIND (a prefix, e.g. /opt/valgrind-3.24)
# or, without it, the one pkg-config finds (the system's).  configure is
# run again when the tree was configured against another one.
set -e
cd "$(dirname "$0")/.."
[ -x configure ] || autoreconf -fi
if [ -n "$CG_VALGRIND" ]; then
  want="'--with-valgrind=$CG_VALGRIND'"
else
  want=""
fi
if [ ! -f Makefile ] || [ "$(./config.status --config 2>/dev/null)" != "$want" ]; then
  if [ -n "$CG_VALGRIND" ]; then
    ./configure --with-valgrind="$CG_VALGRIND"
  else
    ./configure
  fi
fi
make -j2
