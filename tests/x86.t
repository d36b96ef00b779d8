#!/usr/bin/perl
# x86.t -- 32-bit programs are profiled by the x86 variant of our tool,
# with results identical to the system Cachegrind's.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use File::Path qw(make_path);
use File::Spec;
use Test::More;
use CgTest qw(:all);

-x ours_valgrind() or BAIL_OUT('no ./vg-in-place: build the tree first (sh scripts/build.sh)');

my $probe = File::Spec->catfile(build_root(), 'm32-probe');
make_path(build_root());
if (system("printf 'int main(void){return 0;}\\n' | gcc -m32 -x c -o '$probe' - 2>/dev/null") != 0) {
    plan skip_all => 'no 32-bit compiler (gcc-multilib): the x86 variant cannot be built here either';
}
ok(-x File::Spec->catfile(top_dir(), 'cachegrind', 'cachegrind-x86-linux'),
   'a 32-bit compiler works, so the x86 variant was built')
    or BAIL_OUT('gcc -m32 works but cachegrind-x86-linux is missing: re-run ./configure');

my $src = File::Spec->catdir(tests_dir(), 'progs');
my $out = File::Spec->catdir(build_root(), 'progs32');
# (atomics.c uses cmpxchg16b, which 32-bit x86 does not have.)
my @progs = qw(matrix_walk branches indirect strings recursion unaligned);
my @opts = ([], ['--branch-sim=yes'], ['--cache-sim=no'],
            ['--I1=16384,4,64', '--D1=16384,4,64', '--LL=1048576,16,64']);

for my $name (@progs) {
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
