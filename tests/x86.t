#!/usr/bin/perl
# x86.t -- 32-bit programs are profiled by the x86 variant of our tool,
# with results identical to the system Cachegrind's.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use File::Spec;
use Test::More;
use CgTest qw(:all);
simulate_caches();   # a test of the cache simulation, with any release's defaults

-x ours_valgrind() or BAIL_OUT('no ./vg-in-place: build the tree first (sh scripts/build.sh)');

# Building: configure builds the x86 variant whenever gcc -m32 links a
# program, so with a working 32-bit compiler a missing variant is a
# broken build.  Running: the kernel may still refuse 32-bit programs
# (no IA-32 emulation), and the system Valgrind may lack its x86 tools;
# then every case is skipped, with the reason.
if (my $why = can_compile_m32()) {
    plan skip_all => "$why: the x86 variant cannot be built here either";
}
ok(-x File::Spec->catfile(top_dir(), 'cachegrind', 'cachegrind-x86-linux'),
   'a 32-bit compiler works, so the x86 variant was built')
    or BAIL_OUT('gcc -m32 works but cachegrind-x86-linux is missing: re-run ./configure');
my $cannot = can_run_m32() // (have_ref_tool('cachegrind', 'x86'))[1];

my $src = File::Spec->catdir(tests_dir(), 'progs');
my $out = File::Spec->catdir(build_root(), 'progs32');
# (atomics.c uses cmpxchg16b, which 32-bit x86 does not have.)
my @progs = qw(matrix_walk branches indirect strings recursion unaligned);
my @opts = ([], ['--branch-sim=yes'], ['--cache-sim=no'],
            ['--I1=16384,4,64', '--D1=16384,4,64', '--LL=1048576,16,64']);

for my $name (@progs) {
    if ($cannot) {
        # One skip per case, so that the counts say what was not run.
        my @labels = ((map { case_label("$name (32-bit)", $_) } @opts),
                      "$name (32-bit) --vex-checks=yes --branch-sim=yes");
        note("not run: $_") for @labels;
        SKIP: { skip $cannot, scalar @labels }
        next;
    }
    my $bin = File::Spec->catfile($out, "$name-m32");
    my $c = File::Spec->catfile($src, "$name.c");
    CgTest::build_one($bin, [$c, File::Spec->catfile($src, 'common.h')],
                      'gcc', '-m32', '-g', '-O2', '-I', $src, $c);
    for my $o (@opts) {
        my $label = case_label("$name (32-bit)", $o);
        my $pair = run_pair($o, [$bin]);
        subtest $label => sub { compare_runs($pair->{ref}, $pair->{ours}, $label) };
    }
    # VEX's IR checks, which ours skips by default (tests/vexpasses.t),
    # on the x86 tool's IR too: a malformed block would stop the run.
    my $label = "$name (32-bit) --vex-checks=yes --branch-sim=yes";
    my $pair = run_pair(['--branch-sim=yes'], [$bin], ours_opts => ['--vex-checks=yes']);
    subtest $label => sub { compare_runs($pair->{ref}, $pair->{ours}, $label) };
}

done_testing();
