#!/bin/sh
# build.sh -- configures (once) and builds the tree in place.
set -e
cd "$(dirname "$0")/.."
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j2
