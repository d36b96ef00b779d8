#!/usr/bin/perl
# caches.t -- --caches=shared|per-thread.
#
#   - shared (the default, 3.19's single set of caches): a threaded
#     program's output equals the system Cachegrind's, given or not;
#   - per-thread on single-threaded programs (tests/progs fixtures):
#     the output equals the system Cachegrind's, byte for byte (no D1cm
#     column: the program made no thread);
#   - per-thread on tests/progs-sharing/sharing.c, under --fair-sched=yes
#     with the workers taking turns of 1,000 iterations so that the
#     threads alternate at known points: two threads incrementing neighbouring
#     counters take coherence misses (D1cm) on the increment's line, the
#     same with padded counters take none there; a producer/consumer
#     ring takes them on both ends' lines; every line's D1cm is at most
#     its D1 misses (a coherence miss is a D1 miss); the counts of the
#     accesses (Ir Dr Dw) equal the shared caches' run;
#   - refused with what it does not model (a policy, a prefetcher,
#     --cache-sim=no, a bad value), naming the option.
#
# Environment: as for every CgTest file (CG_JOBS, CG_ONLY, CG_KEEP_TMP).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Cwd qw(abs_path);
use File::Spec;
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();

my $SRC  = abs_path(File::Spec->catfile(tests_dir(), 'progs-sharing', 'sharing.c'));
my $SELF = abs_path(__FILE__);

my $progs = eval { build_progs() };
my $sharing = $progs && eval { sharing_fixture('O2', $SELF) };
if (!$progs || !$sharing) {
    fail('build the fixtures');
    diag($@);
    done_testing();
    exit 1;
}
pass('built the fixtures');
my %MARK = %{ source_marks($SRC) };

sub main_file {
    my ($res) = @_;
    my ($f) = grep { $_->{name} =~ /^cg\.out\.\d+\z/ } @{ $res->{files} };
    return $f ? parse_cgout(\$f->{content}) : undef;
}

# event name => count on the line (file, fn, line)
sub counts_at {
    my ($p, $fn, $line) = @_;
    my @c = split ' ', ($p->{costs}{"$SRC\0$fn\0$line"} // '');
    return undef unless @c;
    my $i = 0;
    return { map { $_ => $c[$i++] } @{ $p->{event_names} } };
}

# ---------------------------------------------------------------------------
# shared: 3.19's caches, with threads
{
    my $pair = run_pair([], [$progs->{'threads-O0'}], ours_opts => ['--caches=shared'],
                        attempts => 6, cpu => 0);
    ok($pair->{ref}{banner_ok}, "the reference is the system Valgrind's own Cachegrind")
        or diag($pair->{ref}{banner_error} // '');
    ok($pair->{matched}, "threads: --caches=shared equals the system Cachegrind ($pair->{attempts} tries)");
    $pair = run_pair([], [$sharing, 'packed', 2, 20000], attempts => 6, cpu => 0,
                     ours_opts => ['--caches=shared']);
    ok($pair->{matched}, "sharing packed: --caches=shared equals the system Cachegrind ($pair->{attempts} tries)");
}

# per-thread on single-threaded programs: 3.19's output
for my $name (qw(matrix_walk-O2 pointer_chase-O0 straddle_loop-O2 strings-O2 recursion-O2)) {
    SKIP: {
        skip("fixture $name not built", 1) unless $progs->{$name};
        my $pair = run_pair([], [$progs->{$name}], ours_opts => ['--caches=per-thread'],
                            attempts => 3);
        ok($pair->{matched}, "$name: --caches=per-thread equals the system Cachegrind");
    }
}

# per-thread with threads
{
    # The workers take turns of $every iterations (the fixture's fourth
    # argument: one waits, yielding, for the other to pass the turn), so
    # that they alternate about 2 * $iters / $every times whatever the
    # host's load: with time slices alone, and with bare yields, a loaded
    # host sometimes ran one worker to its end first (no coherence miss).
    # Every turn after the other worker's writes of the packed line starts
    # with one coherence miss on the increment.
    my @fair = ('--fair-sched=yes');
    my ($iters, $every) = (100000, 1000);
    my $switches = 2 * $iters / $every;
    my %run;
    for my $mode (qw(packed padded)) {
        my @args = ($sharing, $mode, 2, $iters, $every);
        my $shared = main_file(run_ours([@fair], [@args]));
        my $per = main_file(run_ours([@fair, '--caches=per-thread'], [@args]));
        ok($per && grep({ $_ eq 'D1cm' } @{ $per->{event_names} }), "$mode: the file has D1cm")
            or next;
        $run{$mode} = counts_at($per, "run_$mode", $MARK{$mode});
        my $s = counts_at($shared, "run_$mode", $MARK{$mode});
        ok($run{$mode} && $s && $run{$mode}{Ir} == $s->{Ir} && $run{$mode}{Dr} == $s->{Dr}
           && $run{$mode}{Dw} == $s->{Dw},
           "$mode: Ir Dr Dw on sharing.c:$MARK{$mode} as with shared caches");
        my @over = grep {
            my @c = split ' ', $per->{costs}{$_};
            my %e; @e{ @{ $per->{event_names} } } = @c;
            $e{D1cm} > $e{D1mr} + $e{D1mw};
        } keys %{ $per->{costs} };
        ok(!@over, "$mode: no line has more D1cm than D1 misses");
    }
    cmp_ok($run{packed}{D1cm} // 0, '>=', $switches / 2,
           "packed: coherence misses on the increment (sharing.c:$MARK{packed}), "
           . "at least one per two of the $switches turns");
    is($run{padded}{D1cm} // -1, 0, "padded: none on its increment (sharing.c:$MARK{padded})");

    my $q = main_file(run_ours(['--caches=per-thread'], [$sharing, 'queue', 2, 20000]));
    my $ends = 0;
    for my $fn (qw(run_producer run_consumer)) {
        for my $k (grep { /\0\Q$fn\E\0/ } keys %{ $q->{costs} }) {
            my $c = counts_at($q, $fn, (split /\0/, $k)[2]);
            $ends |= ($fn eq 'run_producer' ? 1 : 2) if $c->{D1cm} > 0;
        }
    }
    is($ends, 3, 'queue: coherence misses on both the producer\'s and the consumer\'s lines');
}

# Refused
for my $case (
    [['--caches=private'], qr/Bad option: --caches=private: shared or per-thread/],
    [['--caches=per-thread', '--cache-sim=no'], qr/--caches=per-thread: it needs --cache-sim=yes/],
    [['--caches=per-thread', '--D1-policy=random'], qr/--caches=per-thread: .*--D1-policy is not lru/],
    [['--caches=per-thread', '--cpu=generic'], qr/--caches=per-thread: .*a --cpu preset.*is on|is not lru/],
    [['--caches=per-thread', '--simulate-wb=yes'], qr/--caches=per-thread: .*--simulate-wb/],
) {
    my ($opts, $re) = @$case;
    my $res = run_ours($opts, ['/bin/true']);
    ok(status_str($res->{status}) eq 'exit 1' && $res->{stderr} =~ $re, "@$opts: refused, named")
        or diag($res->{stderr});
}

done_testing();
