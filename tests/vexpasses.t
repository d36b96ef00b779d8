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
# our own default run.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use CgTest qw(:all);

require_tools();
my $progs = build_progs();

my @CHECKS = ('--vex-checks=yes');

# Events of every kind (fetches that straddle, x87 and vector sizes,
# string instructions, atomics, guarded accesses, signals, code written
# at run time), hot and cold translations, each group checker kind.
for my $name (qw(matrix_walk-O0 pointer_chase-O2 branches-O2 strings-O2 simd-O2
                 recursion-O0 indirect-O2 unaligned-O2 atomics-O2 x87-O0
                 signals-O0 jitcode-O2 straddle_loop-O2)) {
    next unless $progs->{$name};
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
    next unless $progs->{$name};
    my $plain = run_ours([@opts], [$progs->{$name}]);
    my $checked  = run_ours([@CHECKS, @opts], [$progs->{$name}]);
    is($checked->{exit_code}, 0, "$name @opts @CHECKS: exit status 0")
        or diag($checked->{stderr});
    cmp_ok(scalar @{ $plain->{files} }, '>=', 1, "$name @opts: files written");
    is_deeply(files_of($checked), files_of($plain),
              "$name @opts: the same files with VEX's passes as without");
}

# --stats=yes says how many blocks had the passes: none by default, all
# with the option, and the same blocks either way.
{
    my $count = sub {
        my ($opts) = @_;
        my $res = run_ours(['--stats=yes', @$opts], [$progs->{'branches-O2'}]);
        return $res->{stderr} =~ /^--\d+-- VEX IR checks and cleanup: run on (\d+) blocks \((\d+) front-end checks\), skipped on (\d+)$/m
            ? ($1, $2, $3) : (-1, -1, -1);
    };
    my ($run_default, $front_default, $skipped_default) = $count->([]);
    my ($run_checked, $front_checked, $skipped_checked) = $count->([@CHECKS]);
    is($run_default, 0, 'default: VEX IR checks and cleanup run on no block');
    is($front_default, 0, 'default: no check of the front end\'s IR');
    cmp_ok($skipped_default, '>', 100, 'default: skipped on every block');
    is($skipped_checked, 0, "@CHECKS: skipped on no block");
    is($run_checked, $skipped_default, "@CHECKS: run on the same blocks");
    is($front_checked, $run_checked, "@CHECKS: the front end's IR checked for each");
}

# The option itself.
{
    my $bad = run_ours(['--vex-checks=maybe'], ['/bin/true']);
    is($bad->{status} >> 8, 1, '--vex-checks=maybe: exit status 1');
    like($bad->{stderr}, qr/Bad option: --vex-checks=maybe/,
         '--vex-checks=maybe: names the option');
    my $help = run_captured(top_dir(), ours_valgrind(), '--tool=cachegrind', '--help-debug');
    like($help->{out}, qr/^    --vex-checks=no\|yes +VEX sanity-checks .*?\[no\]$/ms,
         '--help-debug lists --vex-checks with its default');
}

done_testing();
