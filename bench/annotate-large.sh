#!/bin/sh
# annotate-large.sh -- time cg_annotate on a large (~200 MB) data file.
#
# Generates a synthetic but well-formed cachegrind.out (9 events, a few
# thousand fl=/fn= blocks, a correct summary line) plus source files for
# some of its files, then runs our cg_annotate (the report, --json,
# --cycles and --html) and, if present, the
# system's (Valgrind 3.19) under /usr/bin/time -v and prints the elapsed
# seconds and peak resident set size of each, and whether their outputs
# are identical.
#
# Usage: bench/annotate-large.sh [SIZE_MB]     (default 200)
# Env:   BENCH_DIR  where to write the data (default: a fresh temp dir,
#                   removed afterwards)
#        CG_ANNOTATE  our script (default: ./cg_annotate next to bench/)
set -eu

size_mb=${1:-200}
top=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x /usr/bin/time ]; then
    echo "annotate-large.sh: /usr/bin/time is missing (apt-get install time)" >&2
    exit 1
fi

if [ -n "${BENCH_DIR:-}" ]; then
    dir=$BENCH_DIR
    mkdir -p "$dir"
    cleanup=:
else
    dir=$(mktemp -d)
    cleanup="rm -rf '$dir'"
fi
# shellcheck disable=SC2064  # expanded now, on purpose
trap "$cleanup" EXIT

ours=${CG_ANNOTATE:-$top/cg_annotate}
if [ ! -x "$ours" ]; then
    # Not configured yet: make a runnable copy from the template.
    ours=$dir/cg_annotate
    sed -e 's|@PERL@|/usr/bin/perl|' -e 's|@PACKAGE_VERSION@|bench|' \
        "$top/cg_annotate.in" > "$ours"
    chmod +x "$ours"
fi
cd "$dir"

echo "generating a ${size_mb} MB data file in $dir ..."
perl - "$size_mb" <<'GEN'
use strict;
use warnings;
my $target = $ARGV[0] * 1024 * 1024;
srand(12345);
my @events = qw(Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw);
my @sum = (0) x @events;
my $size = 0;
open(my $out, '>', 'cachegrind.out.large') or die "cachegrind.out.large: $!";
my $hdr = "desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
        . "desc: D1 cache:         32768 B, 64 B, 8-way associative\n"
        . "desc: LL cache:         8388608 B, 64 B, 16-way associative\n"
        . "cmd: ./big-program --with arguments\n"
        . "events: @events \n";
print $out $hdr;
$size += length $hdr;
mkdir 'src';
my $fileno = 0;
while ($size < $target) {
    $fileno++;
    my $dirpart = ('lib', 'core', 'util', 'net', 'ui')[$fileno % 5];
    my $file = "src/$dirpart/file$fileno.c";
    my $nfuncs = 1 + int(rand(40));
    my $line = 1;
    my $block = '';
    for my $f (1 .. $nfuncs) {
        # a few hot functions (about 0.2% of them: enough to pass the 0.1%
        # threshold), some warm ones, many cold ones
        my $heat = rand() < 0.002 ? 1000 : rand() < 0.2 ? 20 : 1;
        $block .= "fl=$file\nfn=f${fileno}_$f\n";
        my $nlines = 5 + int(rand(150));
        for (1 .. $nlines) {
            $line += 1 + int(rand(3));
            my $ir = int(rand(50) * $heat * (1 + rand(20)));
            my $dr = int($ir * rand(0.5));
            my $dw = int($ir * rand(0.2));
            my @c = ($ir, (rand() < 0.05 ? (1, 1) : (0, 0)),
                     $dr, (rand() < 0.1 ? (int(rand(5)), int(rand(2))) : (0, 0)),
                     $dw, (rand() < 0.1 ? (int(rand(3)), int(rand(2))) : (0, 0)));
            $sum[$_] += $c[$_] for 0 .. $#c;
            $block .= "$line @c\n";
        }
    }
    print $out $block;
    $size += length $block;
    # Sources exist for every fifth file, so some files get annotated.
    if ($fileno % 5 == 0) {
        mkdir "src/$dirpart";
        open(my $src, '>', $file) or die "$file: $!";
        print $src "/* line $_ of $file */\n" for 1 .. $line + 5;
        close $src;
    }
}
print $out "summary: @sum\n";
close $out or die;
printf "%d files, %.1f MB\n", $fileno, (-s 'cachegrind.out.large') / 1048576;
GEN
lines=$(wc -l < cachegrind.out.large)
echo "$lines lines"

run() {
    label=$1
    shift
    /usr/bin/time -v "$@" cachegrind.out.large > "out.$label" 2> "time.$label" || {
        echo "$label: failed"; tail -5 "time.$label"; return 0; }
    secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "time.$label")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "time.$label")
    printf '%-8s elapsed %s (m:ss)  peak RSS %s MB\n' "$label" "$secs" "$((rss / 1024))"
}

run ours "$ours"
grep -c 'annotated source:' out.ours | sed 's/^/annotated files: /' || :
run json "$ours" --json
run cycles "$ours" --cycles
run html "$ours" --html=report.html
printf 'html: %s KB page\n' "$(($(wc -c < report.html) / 1024))"
printf 'json: %s lines written, %s MB\n' "$(grep -c '^      {"line": ' out.json)" "$(($(wc -c < out.json) / 1048576))"
if [ -x /usr/bin/cg_annotate ]; then
    run system /usr/bin/cg_annotate
    if cmp -s out.ours out.system; then
        echo "outputs identical"
    elif [ "$(sort out.ours | md5sum)" = "$(sort out.system | md5sum)" ]; then
        # 3.19 prints the annotated files in Perl's hash order, we sort them.
        echo "outputs have the same lines, in a different order (3.19's hash order)"
    else
        echo "outputs differ"
    fi
fi
