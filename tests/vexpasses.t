#!/usr/bin/perl
# vexpasses.t -- VEX's passes after our instrumentation (cg_vexpasses.c).
#
# By default the tool skips VEX's sanity checks of every block's IR (as
# the front end made it, and after instrumentation) and its cleanup of
# the instrumented IR (dead code, constant propagation); every other
# test runs that way.  With --vex-checks=yes they run, as the core
# runs them for other tools:
# here every kind of IR the instrumentation emits goes through VEX's
# sanity check (a malformed block stops the run with a VEX panic, so the
# run cannot match), and the counts must be the same as without them,
# against the system Cachegrind where it has the feature, else against
# our own default run.  And by default, the code generator gets IR that
# nothing folded after the optimiser: also with the optimiser at its
# lower levels, against the reference.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults
my $progs = build_progs();

my @CHECKS = ('--vex-checks=yes');

# Events of every kind (fetches that straddle, x87 and vector sizes,
# string instructions, atomics, guarded accesses, signals, code written
# at run time), hot and cold translations, each group checker kind.
for my $name (qw(matrix_walk-O0 pointer_chase-O2 branches-O2 strings-O2 simd-O2
                 recursion-O0 indirect-O2 unaligned-O2 atomics-O2 x87-O0
                 signals-O0 jitcode-O2 straddle_loop-O2)) {
    ok($progs->{$name}, "fixture $name built") or next;
    # [options of ours only, options of both]
    for my $mode ([[], []], [[], ['--cache-sim=no']], [['--hot-threshold=1'], []],
                  [['--checker-descriptors=no'], []]) {
        my ($own, $both) = @$mode;
        my @common = ('--branch-sim=yes', @$both);
        matches_reference("$name @CHECKS @$own @common", [$progs->{$name}],
                          [@CHECKS, @$own], common => \@common, expect_files => 1);
    }
}

# IR only our tool emits (no reference to compare with): the stack
# check of --toggle-collect, the interval counters of --interval-size,
# the block-vector calls of --bb-out-file.  Every output file must be
# the same with the passes as without.
sub files_of {
    my ($res) = @_;
    # the phase profile names the process
    return [ map { $_->{content} =~ s/^pid: \d+$//mgr } @{ $res->{files} } ];
}
for my $case (['matrix_walk-O0', '--toggle-collect=main'],
              ['branches-O2', '--interval-size=10k', '--intervals-out-file=iv.out'],
              ['branches-O2', '--bb-out-file=bb.out', '--bb-interval-size=10k'],
              ['recursion-O0', '--toggle-collect=fib*', '--branch-sim=yes']) {
    my ($name, @opts) = @$case;
    ok($progs->{$name}, "fixture $name built") or next;
    my $plain = run_ours([@opts], [$progs->{$name}]);
    my $checked  = run_ours([@CHECKS, @opts], [$progs->{$name}]);
    is($plain->{exit_code}, 0, "$name @opts: exit status 0")
        or diag($plain->{stderr});
    is($checked->{exit_code}, 0, "$name @opts @CHECKS: exit status 0")
        or diag($checked->{stderr});
    cmp_ok(scalar @{ $plain->{files} }, '>=', 1, "$name @opts: files written");
    is_deeply(files_of($checked), files_of($plain),
              "$name @opts: the same files with VEX's passes as without");
}

# Without VEX's optimiser (--vex-iropt-level=0) or with its cheap passes
# only (1), the IR reaching the code generator has had no constant
# folding at all when the cleanup is skipped: the default, against the
# reference.
for my $name (qw(branches-O2 simd-O2 strings-O2 x87-O0 atomics-O2 unaligned-O2)) {
    ok($progs->{$name}, "fixture $name built") or next;
    for my $level (0, 1) {
        matches_reference("$name --vex-iropt-level=$level --branch-sim=yes",
                          [$progs->{$name}], [],
                          common => ["--vex-iropt-level=$level", '--branch-sim=yes'],
                          expect_files => 1);
    }
}

# --stats=yes says on how many blocks the passes ran or were skipped:
# by default skipped on every block translated, with the option run on
# every one.  The cleanup shows in the code made: with it, less host
# code for the same translations.
{
    my $count = sub {
        my ($opts) = @_;
        my $res = run_ours(['--stats=yes', @$opts], [$progs->{'branches-O2'}]);
        my %n;
        @n{qw(run front skipped)} = $res->{stderr} =~ /^--\d+-- VEX IR checks and cleanup: run on (\d+) blocks \((\d+) front-end checks\), skipped on (\d+)$/m;
        @n{qw(translations host_bytes)} = $res->{stderr} =~ /^--\d+-- +transtab: new +([\d,]+) \([\d,]+ -> ([\d,]+);/m;
        defined $_ && tr/,//d for values %n;
        return \%n;
    };
    my $default = $count->([]);
    my $checked = $count->([@CHECKS]);
    cmp_ok($default->{translations} // 0, '>', 100, 'branches-O2 makes translations');
    is($default->{skipped}, $default->{translations}, 'default: skipped on every block translated');
    is($default->{run}, 0, 'default: VEX IR checks and cleanup run on no block');
    is($default->{front}, 0, "default: no check of the front end's IR");
    is($checked->{translations}, $default->{translations}, "@CHECKS: the same translations");
    is($checked->{run}, $checked->{translations}, "@CHECKS: run on every block translated");
    is($checked->{front}, $checked->{translations}, "@CHECKS: the front end's IR checked for each");
    is($checked->{skipped}, 0, "@CHECKS: skipped on no block");
    cmp_ok($checked->{host_bytes} // 0, '<', $default->{host_bytes} // 0,
           "@CHECKS: the cleanup ran (less host code)");
}

# The option itself.
{
    my $bad = run_ours(['--vex-checks=maybe'], ['/bin/true']);
    is($bad->{status} >> 8, 1, '--vex-checks=maybe: exit status 1');
    like($bad->{stderr}, qr/Bad option: --vex-checks=maybe/,
         '--vex-checks=maybe: names the option');
    my $help = run_captured(top_dir(), ours_valgrind(), '--tool=cachegrind', '--help-debug');
    like($help->{out}, qr/^    --vex-checks=no\|yes +VEX sanity-checks [^\n]*\n(?: {37}[^\n]*\n){0,3}? {37}[^\n]*\[no\]$/m,
         '--help-debug lists --vex-checks with its default');
}

done_testing();
