#!/usr/bin/perl
# Differential test on the fixture programs in tests/progs: every program
# variant is run under the system Cachegrind and under ours with
# identical options, and exit status, client stdout, every output file
# (byte for byte) and the normalised stderr must agree.
#
# Environment:
#   CG_ALLOW_SKIP=1   skip (instead of failing) when a tool is missing
#   CG_JOBS=N         concurrent cases (default 2)
#   CG_ONLY=REGEX     only run cases whose label matches REGEX
#   CG_KEEP_TMP=1     keep every run's temporary directory
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use File::Path qw(remove_tree);
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults

my $bins = eval { build_progs() };
if (!$bins) {
    fail('build the fixture programs');
    diag($@);
    done_testing();
    exit 1;
}
pass('built the fixture programs');

my @OPTSETS = (
    [],
    ['--branch-sim=yes'],
    ['--cache-sim=no'],
    ['--cache-sim=no', '--branch-sim=yes'],
    ['--I1=16384,4,64', '--D1=16384,4,64', '--LL=1048576,16,64', '--branch-sim=yes'],
    # Not a power of two in size, but a power-of-two number of sets.
    ['--I1=32768,8,64', '--D1=49152,12,64', '--LL=3145728,12,64'],
);

# Per-program expectations and arguments.
my %FILES  = (forker => 2, exec => 0);
my %STATUS = (segv => 'signal 11');

my @cases;
for my $variant (sort keys %$bins) {
    next if $variant =~ /\.so$/;
    (my $base = $variant) =~ s/-O[0-9s]$//;
    my @cmd = ($bins->{$variant});
    push @cmd, $bins->{'libhot.so'}, $bins->{'libhot2.so'} if $base eq 'dlopen_main';
    # The last-symbol range's epoch check (cg_costs.c): see progs/swaplib.c.
    push @cmd, $bins->{'libswap1.so'}, $bins->{'libswap2.so'} if $base eq 'dlswap';
    for my $opts (@OPTSETS) {
        my %case = (
            label  => case_label($variant, $opts),
            base   => $base,
            opts   => [@$opts],
            cmd    => \@cmd,
            files  => exists $FILES{$base} ? $FILES{$base} : 1,
            run    => {},
        );
        # chdir: no --cachegrind-out-file at all, so the default relative
        # name cachegrind.out.<pid> must land in the start-up directory
        # although the client has moved to /.
        $case{run}{default_out} = 1 if $base eq 'chdir';
        if ($base eq 'threads') {
            # Cache/branch-predictor state depends on which thread the
            # host kernel lets run first (see progs/threads.c); pin to one
            # CPU and allow a few attempts to find a matching pair.
            $case{run}{cpu}      = scalar(@cases);
            $case{run}{attempts} = 6;
        }
        $case{status} = $STATUS{$base} if exists $STATUS{$base};
        push @cases, \%case;
    }
    if ($base eq 'dlopen_main') {
        # Unloaded debug info kept (archived: still in the core's list,
        # outside the current epoch), which the tool's name lookups must
        # skip as the core's search does.  (Not a test of the last-symbol
        # range's epoch check: translations of other code always come
        # between the dlclose and the second library's.  dlswap is.)
        for my $opts (['--keep-debuginfo=yes'], ['--keep-debuginfo=yes', '--branch-sim=yes']) {
            push @cases, { label => case_label($variant, $opts), base => $base,
                           opts => [@$opts], cmd => \@cmd, files => 1, run => {} };
        }
    }
    if ($base eq 'exec') {
        # With --trace-children=yes the exec'd /bin/true is simulated too
        # and writes the only output file (the pre-exec image writes none).
        for my $opts ([], ['--branch-sim=yes']) {
            my @o = ('--trace-children=yes', @$opts);
            push @cases, { label => case_label($variant, \@o), base => $base,
                           opts => \@o, cmd => \@cmd, files => 1, run => {} };
        }
    }
}

# bench/run gives these three a repetition count: the repeated form
# must match too.
for my $base (qw(matrix_walk pointer_chase branches)) {
    my $variant = "$base-O2";
    next unless $bins->{$variant};
    for my $opts ([], ['--branch-sim=yes']) {
        push @cases, { label => case_label($variant, $opts) . ' (repeated 3 times)',
                       base => $base, opts => [@$opts],
                       cmd => [$bins->{$variant}, '3'], files => 1, run => {} };
    }
}

my $identical = 0;
my $t0 = time;

my $n = run_cases(\@cases, sub {
    my ($c, $r) = @_;
    my ($ref, $ours) = ($r->{ref}, $r->{ours});
    # Sanity checks on the reference itself, so that a broken
    # fixture is not mistaken for agreement.
    like($ref->{stdout}, qr/^\Q$c->{base}\E\b/m, "$c->{label}: reference client output")
        or diag("  ref stdout: $ref->{stdout}\n  ref stderr:\n$ref->{stderr}");
    is(_status($ref->{status}), $c->{status} || 'exit 0', "$c->{label}: reference exit status");
    $identical++ if compare_runs($ref, $ours, $c->{label}, expect_files => $c->{files});
    note("$c->{label}: matched on attempt $r->{attempts}")
        if $r->{attempts} > 1 && $r->{matched};
});

diag(sprintf('compared %d program x option cases, %d identical (%.0fs)',
             $n, $identical, time - $t0));

# The comparison can fail: ours run with an option the reference did not
# get must not match it, and a failed comparison's runs are kept.
{
    my $pair = run_pair([], [$bins->{'branches-O0'}], ours_opts => ['--branch-sim=yes']);
    ok(!runs_match($pair->{ref}, $pair->{ours}),
       'self-check: a run with other options does not match the reference');
    my $dir = keep_evidence('self-check --branch-sim=yes', $pair->{ref}, $pair->{ours});
    my @kept = map { -s "$dir/$_" ? $_ : () }
               qw(ref.stdout ref.stderr ours.stdout ours.stderr);
    my @outs = glob("$dir/ref.cg.out.* $dir/ours.cg.out.*");
    is(scalar(@kept) + scalar(@outs), 6,
       'self-check: both runs\' stdout, stderr and output file kept')
        or diag("  kept in $dir: @kept @outs");
    remove_tree($dir);
}
done_testing();

sub _status {
    my ($st) = @_;
    return 'not run' unless defined $st && $st >= 0;
    return 'exit ' . ($st >> 8) unless $st & 127;
    return 'signal ' . ($st & 127);
}
