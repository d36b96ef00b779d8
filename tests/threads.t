#!/usr/bin/perl
# threads.t -- --separate-threads=yes: each thread's counts in a file of
# its own, <main file>.<n> (n: 1 the main thread, then in order of
# creation).
#
# On tests/progs-sharing/sharing.c (threads whose work is known: in
# `packed` mode each worker increments its element `iterations` times on
# the line tagged "MARK: packed"), at -O0 and -O2, with the access log
# and its thread, without the thread, and with --branch-sim=yes:
#   - a file per thread, and the threads' files add up to the main file,
#     line by line and in their summaries;
#   - each worker's file has the marked line with `iterations` writes,
#     the main thread's has none of the workers' code;
#   - the main file is byte-identical to the system Cachegrind's run of
#     the same program (pinned to one CPU, a few tries: which thread the
#     kernel starts first can differ);
#   - the system's own cg_annotate (3.19's) reads a thread's file.
# Also: a single-threaded program's one thread file is its main file;
# --separate-threads with --interval-size is refused naming the option.
#
# Environment: as for every CgTest file (CG_JOBS, CG_ONLY, CG_KEEP_TMP).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Cwd qw(abs_path);
use File::Spec;
use File::Temp qw(tempdir);
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();

my $SRC  = abs_path(File::Spec->catfile(tests_dir(), 'progs-sharing', 'sharing.c'));
my $SELF = abs_path(__FILE__);
my $ITERATIONS = 20000;

my %bins = %{ sharing_fixtures_or_exit($SELF) };
my $MARK = source_marks($SRC)->{packed};

# The run's main file and its thread files (n => parsed file)
sub files_of {
    my ($res) = @_;
    my ($main) = grep { $_->{name} =~ /^cg\.out\.\d+\z/ } @{ $res->{files} };
    my %threads;
    for my $f (@{ $res->{files} }) {
        $threads{$1} = $f if $f->{name} =~ /^cg\.out\.\d+\.(\d+)\z/;
    }
    return ($main, \%threads);
}

sub add_counts {
    my ($sum, $counts) = @_;
    my @c = split ' ', $counts;
    my @s = defined $sum ? split(' ', $sum) : (0) x @c;
    return join ' ', map { $s[$_] + $c[$_] } 0 .. $#c;
}

# Per line, and the summaries: the threads' files sum to the main file
sub check_sums {
    my ($label, $main, $threads) = @_;
    my $m = parse_cgout(\$main->{content});
    my (%sum, $summary);
    for my $n (sort { $a <=> $b } keys %$threads) {
        my $t = parse_cgout(\$threads->{$n}{content});
        $sum{$_} = add_counts($sum{$_}, $t->{costs}{$_}) for keys %{ $t->{costs} };
        $summary = add_counts($summary, $t->{summary});
    }
    # Lines whose counts are all zero are not in the threads' files
    my @missing = grep { !exists $sum{$_} && $m->{costs}{$_} =~ /[1-9]/ } keys %{ $m->{costs} };
    my @differ = grep { exists $m->{costs}{$_} && $m->{costs}{$_} ne $sum{$_} } keys %sum;
    ok(!@missing && !@differ, "$label: the threads' files add up to the main file, line by line")
        or diag(scalar(@missing) . ' lines missing, ' . scalar(@differ) . ' differ');
    is($summary, $m->{summary}, "$label: and their summaries to its summary");
}

for my $opt (qw(O0 O2)) {
    for my $variant ([], ['--sim-thread=no'], ['--branch-sim=yes']) {
        my $label = "packed 3 threads -$opt @$variant";
        my $res = run_ours(['--separate-threads=yes', @$variant],
                           [$bins{$opt}, 'packed', 3, $ITERATIONS]);
        my ($main, $threads) = files_of($res);
        ok($main, "$label: the main file") or next;
        is(join(' ', sort { $a <=> $b } keys %$threads), '1 2 3 4',
           "$label: a file for each of the 4 threads");
        next unless keys %$threads == 4;
        check_sums($label, $main, $threads);
        my $key = "$SRC\0run_packed\0$MARK";
        my $ok = 1;
        for my $n (2 .. 4) {
            my $t = parse_cgout(\$threads->{$n}{content});
            my $i = 0;
            my %ix = map { $_ => $i++ } @{ $t->{event_names} };
            my @c = split ' ', ($t->{costs}{$key} // '');
            $ok &&= @c && $c[ $ix{Dw} ] == $ITERATIONS;
        }
        ok($ok, "$label: each worker's file has sharing.c:$MARK with $ITERATIONS writes");
        my $t1 = parse_cgout(\$threads->{1}{content});
        ok(!grep({ /\0run_packed\0/ } keys %{ $t1->{costs} }),
           "$label: the main thread's file has none of the workers' code");
    }
}

# The main file is the system Cachegrind's
{
    my $cmd = [$bins{O0}, 'packed', 2, $ITERATIONS];
    my ($matched, @refs, @ours);
    for my $try (1 .. 8) {
        push @refs, run_ref([], $cmd, cpu => 0);
        push @ours, run_ours(['--separate-threads=yes'], $cmd, cpu => 0);
        last unless $refs[-1]{banner_ok};
        for my $r (@refs) {
            my ($rm) = files_of($r);
            for my $o (@ours) {
                my ($om) = files_of($o);
                $matched = $try if $rm && $om && $rm->{content} eq $om->{content}
                                   && normalise_stderr($r->{stderr}) eq normalise_stderr($o->{stderr});
            }
        }
        last if $matched;
    }
    ok($refs[0]{banner_ok}, "the reference is the system Valgrind's own Cachegrind")
        or diag($refs[0]{banner_error} // '');
    ok($matched, 'packed 2 threads: with --separate-threads=yes the main file and summary '
                 . "equal the system Cachegrind's" . ($matched ? " ($matched tries)" : ''));
    my ($main, $threads) = files_of($ours[-1]);
    SKIP: {
        my $annotate = '/usr/bin/cg_annotate';
        skip("no $annotate", 1) unless -x $annotate && $threads->{2};
        my $dir = tempdir('cgthreads-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
        my $path = File::Spec->catfile($dir, 'thread.2');
        spew($path, $threads->{2}{content});
        my $r = run_captured($dir, $annotate, $path);
        ok($r->{status} == 0 && $r->{out} =~ /PROGRAM TOTALS/ && $r->{out} =~ /run_packed/,
           "the system's cg_annotate reads a thread's file") or diag($r->{err});
    }
}

# One thread: its file is the main file
{
    my $res = run_ours(['--separate-threads=yes'], ['/bin/true']);
    my ($main, $threads) = files_of($res);
    ok($main && $threads->{1} && keys %$threads == 1
       && $threads->{1}{content} eq $main->{content},
       'a single-threaded run: one thread file, equal to the main file');
}

# Refused with the phase profile
{
    my $res = run_ours(['--separate-threads=yes', '--interval-size=1M'], ['/bin/true']);
    is(status_str($res->{status}), 'exit 1', '--separate-threads with --interval-size: exit 1');
    like($res->{stderr}, qr/Bad option: --separate-threads=yes: not with --interval-size/,
         '... naming both options');
    $res = run_ours(['--separate-threads=maybe'], ['/bin/true']);
    like($res->{stderr}, qr/Bad option: --separate-threads=maybe/, '--separate-threads=maybe: refused');
}

done_testing();
