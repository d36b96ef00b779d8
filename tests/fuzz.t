#!/usr/bin/perl
# fuzz.t -- a short run of the fuzzers of fuzz/ (see fuzz/README.md).
#
#   * fuzz/mutate.pl is deterministic: the same seed gives the same
#     inputs, another seed others;
#   * it reports what it must: a stand-in program that misbehaves in each
#     way (several error lines, a Perl warning, a signal, a hang, a line
#     without the program's name, an error naming no file) is caught, and
#     the kept input's repro.sh reproduces it; one that behaves is not;
#   * a smoke run of a few thousand mutated inputs through cg_annotate,
#     cg_diff, cg_phases (made from their .in files; cg_annotate also on
#     data and sharing profiles) and cg_merge (built
#     from cg_merge.c) finds nothing, and cg_merge's output and exit
#     status equal 3.19's (/usr/bin/cg_merge) wherever either succeeds;
#   * when AFL++ is installed, `fuzz/run afl` fuzzes cg_merge for a few
#     seconds and finds nothing.  Otherwise that part is skipped.
#
# Core modules only.  Everything is written in a temporary directory.
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use FindBin;
use lib "$FindBin::Bin/lib";
use CgTest qw(run_captured slurp spew);

my $top    = abs_path(dirname(abs_path(__FILE__)) . '/..');
my $mutate = "$top/fuzz/mutate.pl";
my $tmp    = tempdir('fuzz-t-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $bin    = "$tmp/bin";
make_path($bin);

# The programs under test, made from the sources of this tree.
sub make_script {
    my ($name) = @_;
    my $text = slurp("$top/$name.in");
    $text =~ s/\@PERL\@/$^X/g;
    $text =~ s/\@PACKAGE_VERSION\@/test/g;
    $text =~ s/\@CG_ANNOTATE_LAYOUT\@/3.19/g;
    spew("$bin/$name", $text);
    chmod 0755, "$bin/$name" or die "chmod: $!";
    return;
}

sub build_cg_merge {
    my $cc = $ENV{CC} || 'cc';
    my $r = run_captured($tmp, $cc, qw(-std=c99 -O2 -Wall -Wextra -o), "$bin/cg_merge",
                         "$top/cg_merge.c");
    BAIL_OUT("cannot build cg_merge: $r->{err}") if $r->{status};
    return;
}

# Run mutate.pl; returns the run and its summary counts { inputs, KIND }.
sub mutate {
    my (@args) = @_;
    my $r = run_captured($tmp, $^X, $mutate, "--top=$top", '--quiet', @args);
    my %n;
    if ($r->{out} =~ /^\S+: (\d+) inputs in .*?; (.*)$/m) {
        $n{inputs} = $1;
        my $rest = $2;
        $n{$2} = $1 while $rest =~ /(\d+) ([\w-]+)/g;
    }
    return ($r, \%n);
}

#############################################################################
# Determinism
#############################################################################

{
    mutate('--dump=' . "$tmp/d1", '--inputs=60', '--seed=7', 'cg_merge');
    mutate('--dump=' . "$tmp/d2", '--inputs=60', '--seed=7', 'cg_merge');
    mutate('--dump=' . "$tmp/d3", '--inputs=60', '--seed=8', 'cg_merge');
    my (@same, @other);
    for my $i (0 .. 59) {
        my $f = sprintf('%06d', $i);
        push @same, $f if slurp("$tmp/d1/$f") eq slurp("$tmp/d2/$f");
        push @other, $f if slurp("$tmp/d1/$f") ne slurp("$tmp/d3/$f");
    }
    is(scalar @same, 60, 'mutate.pl: the same seed gives the same 60 inputs');
    cmp_ok(scalar @other, '>', 40, 'mutate.pl: another seed gives other inputs');
    my %distinct = map { slurp("$tmp/d1/" . sprintf('%06d', $_)) => 1 } 0 .. 59;
    cmp_ok(scalar keys %distinct, '>', 50, 'mutate.pl: the inputs differ from each other');
}

#############################################################################
# What mutate.pl reports, through a stand-in program
#############################################################################

# Behaves as FAKE_MODE says; "ok" is a well-behaved program.
my $fake_dir = "$tmp/fake";
make_path($fake_dir);
spew("$fake_dir/cg_merge", <<"END");
#!$^X
use strict;
use warnings;
my \$in = \$ARGV[-1];
my \$mode = \$ENV{FAKE_MODE};
if (\$mode eq 'multiline') { print STDERR "cg_merge: \$in:1: bad\\ncg_merge: \$in:2: more\\n"; exit 1 }
if (\$mode eq 'leak')      { print STDERR "cg_merge: \$in: x\\nUse of uninitialized value at /x line 3.\\n"; exit 1 }
if (\$mode eq 'signal')    { kill 'SEGV', \$\$; sleep 5 }
if (\$mode eq 'hang')      { sleep 30 }
if (\$mode eq 'stray')     { print STDERR "oops\\n"; exit 1 }
if (\$mode eq 'unnamed')   { print STDERR "cg_merge: something failed\\n"; exit 1 }
if (\$mode eq 'noerror')   { exit 3 }
if (\$mode eq 'quiet-ok')  { print STDERR "cg_merge: \$in: odd\\n"; exit 0 }
# ok: a warning, then one error line naming the file, or progress lines
print STDERR "cg_merge: \$in:3: warning: something odd\\n";
if ((-s \$in) % 2) { print STDERR "cg_merge: \$in:4: bad line\\n"; exit 1 }
print STDERR "cg_merge: parsing \$in\\ncg_merge: writing (stdout)\\n";
exit 0;
END
chmod 0755, "$fake_dir/cg_merge" or die;

for my $mode (qw(multiline leak signal hang stray unnamed noerror quiet-ok ok)) {
    local $ENV{FAKE_MODE} = $mode;
    my $out = "$tmp/found-$mode";
    my ($r, $n) = mutate("--bin=$fake_dir", "--out=$out", '--inputs=3', '--keep=1',
                         '--timeout=1', 'cg_merge');
    is($n->{inputs}, 3, "stand-in $mode: 3 inputs run");
    if ($mode eq 'ok') {
        is($r->{status}, 0, 'stand-in ok: exit status 0');
        like($r->{out}, qr/; no findings$/m, 'stand-in ok: no findings');
        next;
    }
    is($r->{status}, 1, "stand-in $mode: exit status 1");
    is($n->{$mode}, 3, "stand-in $mode: 3 inputs found as $mode");
    my @kept = glob("$out/cg_merge/$mode-*");
    is(scalar @kept, 1, "stand-in $mode: one input kept (--keep=1)");
    next unless @kept;
    ok(-s "$kept[0]/input.cgout" || -e "$kept[0]/input.cgout", "stand-in $mode: input kept");
    next if $mode eq 'hang';
    my $rr = run_captured($tmp, 'sh', "$kept[0]/repro.sh");
    my $want = slurp("$kept[0]/stderr");
    $want =~ s/\S*input\.cgout/input.cgout/g;
    (my $got = $rr->{err}) =~ s/\S*input\.cgout/input.cgout/g;
    is($got, $want, "stand-in $mode: repro.sh reproduces the stderr kept");
}

#############################################################################
# Smoke run of the real programs
#############################################################################

make_script($_) for qw(cg_annotate cg_diff cg_phases);
build_cg_merge();

my $oracle = '/usr/bin/cg_merge';
my %INPUTS = (cg_annotate => 400, cg_diff => 400, cg_phases => 400, cg_merge => 1500,
              'cg_annotate-data' => 300, 'cg_annotate-sharing' => 300);
for my $prog (sort keys %INPUTS) {
    my @also = $prog eq 'cg_merge' && -x $oracle ? ("--oracle=$oracle") : ();
    my ($r, $n) = mutate("--bin=$bin", "--out=$tmp/smoke", "--inputs=$INPUTS{$prog}",
                         '--seed=1', '--jobs=2', @also, $prog);
    is($n->{inputs}, $INPUTS{$prog}, "$prog: $INPUTS{$prog} mutated inputs run"
       . (@also ? ", compared with $oracle" : ''));
    is($r->{status}, 0, "$prog: no findings") or diag($r->{out} . $r->{err});
}

# --oracle reports a difference: cat prints its input, cg_merge does not.
{
    my ($r, $n) = mutate("--bin=$bin", "--out=$tmp/oracle", '--inputs=20', '--oracle=/bin/cat',
                         'cg_merge');
    is($r->{status}, 1, '--oracle=/bin/cat: exit status 1');
    cmp_ok($n->{differs} // 0, '>', 5, '--oracle=/bin/cat: differences reported');
}

#############################################################################
# AFL++ on cg_merge
#############################################################################

SKIP: {
    my @path = split /:/, $ENV{PATH} // '';
    my $have = sub { my ($p) = @_; grep { -x "$_/$p" } @path };
    skip 'AFL++ not installed (Debian package afl++): afl-fuzz not found', 4
        unless $have->('afl-fuzz');
    skip 'AFL++ installed without a compiler (afl-clang-fast or afl-cc)', 4
        unless $have->('afl-clang-fast') || $have->('afl-cc');
    local $ENV{FUZZ_TIME} = 8;
    local $ENV{FUZZ_OUT} = "$tmp/afl";
    local $ENV{FUZZ_BUILD} = "$tmp/afl-build";
    local $ENV{FUZZ_NO_BUILD} = 1;
    local $ENV{FUZZ_NO_INSTALL} = 1;
    my $r = run_captured($top, 'sh', "$top/fuzz/run", 'afl');
    is($r->{status}, 0, 'AFL++: fuzz/run afl exits 0 (no crash, no hang)')
        or diag($r->{out} . $r->{err} . slurp("$tmp/afl/afl-cg_merge.log"));
    my $stats = -e "$tmp/afl/afl-cg_merge/default/fuzzer_stats"
        ? slurp("$tmp/afl/afl-cg_merge/default/fuzzer_stats") : '';
    my ($execs) = $stats =~ /^execs_done\s*:\s*(\d+)/m;
    ok($execs && $execs > 0, 'AFL++: cg_merge was run (' . ($execs // 0) . ' executions)');
    my ($crashes) = $stats =~ /^saved_crashes\s*:\s*(\d+)/m;
    is($crashes // 0, 0, 'AFL++: no crash');
    like($r->{out}, qr/AFL\+\+: no crash, no hang/, 'AFL++: fuzz/run says so');
}

done_testing();
