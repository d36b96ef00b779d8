#!/usr/bin/perl
# exec.t -- the phase profile (--interval-size) and the vectors
# (--bb-out-file, --pc-out-file) of a program that execs.
#
# Those files are open while the program runs, under <name>.tmp.<pid>,
# and an exec replaces the process image before the tool's end, where
# they would be finished.  The tool gives them up before the core's own
# handling of the exec: their temporary files are removed and one line
# says so.  If the exec fails (here: a path that does not exist), the
# program goes on and the files start again, as a forked child's.
# docs/manual.md, sections 3.5 and 11, describes it.
#
# The fixture is tests/progs-faults/exec_self.c (faults.t runs it
# without these options): 'exec' execs itself as 'child' (same pid),
# 'fork-exec' does so in a forked child, 'fail' execs a path that does
# not exist and goes on.  Each case runs it under the system Cachegrind
# (3.19) without the options and under ours with them, with and without
# --trace-children=yes, and checks:
#   * exit status, client stdout and every main file (cg.out.<pid>)
#     as the reference's; with the vectors, the reference runs without
#     chasing and unrolling, as ours then does (see bbv.t);
#   * no <name>.tmp.<pid> left, whichever process wrote what;
#   * the message: one line where the image that execs had a file open
#     (it had: intervals and vectors of 100,000 instructions end before
#     the exec), none where it had none (the forked child execs at once),
#     and for a failed exec a second line saying the files start again;
#   * stderr, without those lines, as the reference's;
#   * the files each process left are complete: a phase profile numbered
#     from 1, contiguous, whose totals: are the sum of its intervals and,
#     where it covers the whole process, the main file's summary; vector
#     files ending with their summary, whose intervals are the vector
#     lines; pc files listing every block the vectors name.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Cwd qw(abs_path);
use File::Spec;
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults

my $SRC  = File::Spec->catdir(tests_dir(), 'progs-faults');
my $CC   = defined $ENV{CC} && $ENV{CC} ne '' ? $ENV{CC} : 'gcc';
my $SELF = abs_path(__FILE__);
my $c    = File::Spec->catfile($SRC, 'exec_self.c');
my $prog = build_one(File::Spec->catfile(build_root(), 'exec', 'exec_self-O2'),
                     [ $c, File::Spec->catfile($SRC, 'faults.h'), $SELF ],
                     $CC, '-g', '-O2', '-I', $SRC, $c);

my $SIZE = 100000;
my @PHASES  = ("--interval-size=$SIZE", '--intervals-out-file=intervals.%p');
my @VECTORS = ('--bb-out-file=bb.%p', "--bb-interval-size=$SIZE", '--pc-out-file=pc.%p');
my @NO_CHASE = ('--vex-guest-chase=no', '--vex-iropt-unroll-thresh=0');

my %FEATURES = (
    phases  => { ours => \@PHASES, ref => [] },
    vectors => { ours => \@VECTORS, ref => \@NO_CHASE },
    both    => { ours => [ @PHASES, @VECTORS ], ref => \@NO_CHASE },
);

my $EXECS  = qr/^==\d+== the program execs: .*\n/m;
my $FAILED = qr/^==\d+== the exec failed, so the program goes on: .*\n/m;

# ---------------------------------------------------------------------------
# Reading what a run left

sub files_like {
    my ($run, $re) = @_;
    return grep { $_->{name} =~ $re } @{ $run->{files} };
}

sub main_pid {
    my ($run) = @_;
    return $run->{stderr} =~ /^==(\d+)== Command: /m ? $1 : 'none';
}

# The problems of a phase profile (empty: complete).  $summary: the main
# file's summary line when the profile covers the whole process.
sub phase_problems {
    my ($text, $summary) = @_;
    my (@iv, $totals, $events);
    for my $l (split /\n/, $text) {
        if ($l =~ /^interval: (\d+) (\d+) (\d+) ([\d ]+)$/) {
            push @iv, { index => $1, start => $2, end => $3, counts => [ split ' ', $4 ] };
        } elsif ($l =~ /^totals: ([\d ]+)$/) {
            $totals = $1;
        } elsif ($l =~ /^events: (.*)$/) {
            $events = $1;
        }
    }
    my @p;
    return ('no totals: line (not finished)') unless defined $totals;
    return ('no interval') unless @iv;
    my @sum = (0) x @{ $iv[0]{counts} };
    for my $k (0 .. $#iv) {
        my $v = $iv[$k];
        push @p, "interval $v->{index} is number " . ($k + 1) if $v->{index} != $k + 1;
        push @p, "interval $v->{index} starts at $v->{start}, not at the previous end"
            if $k > 0 && $v->{start} != $iv[$k - 1]{end};
        $sum[$_] += $v->{counts}[$_] for 0 .. $#sum;
    }
    push @p, "totals: $totals, intervals add up to @sum" if "@sum" ne $totals;
    if (defined $summary) {
        push @p, "starts at $iv[0]{start}, not 0" if $iv[0]{start} != 0;
        push @p, "totals: $totals, main file's summary: $summary" if $totals ne $summary;
    }
    return @p;
}

# The problems of a vector file and its pc file (empty: complete).
# $restarted: the file was started again after a failed exec; its
# summary still counts the whole process, as a forked child's does.
sub vector_problems {
    my ($bb, $pc, $restarted) = @_;
    my @p;
    my @lines = grep { /^T/ } split /\n/, $bb;
    my ($intervals) = $bb =~ /^#   Total intervals: (\d+) /m;
    push @p, 'no summary (not finished)'
        unless $bb =~ /^#   Total fldcw instructions: \d+\n\n\z/m && defined $intervals;
    return @p if @p;
    push @p, scalar(@lines) . " vector lines, Total intervals: $intervals"
        if $restarted ? @lines > $intervals : @lines != $intervals;
    return (@p, 'no pc file') unless defined $pc;
    my %in_pc = map { /^F:(\d+):[0-9a-f]+:/ ? ($1 => 1) : () } split /\n/, $pc;
    my %named;
    $named{$_} = 1 for map { /:(\d+):\d+/g } @lines;
    my @missing = grep { !$in_pc{$_} } sort { $a <=> $b } keys %named;
    push @p, 'blocks not in the pc file: ' . join(' ', @missing[0 .. ($#missing < 4 ? $#missing : 4)])
        if @missing;
    return @p;
}

# ---------------------------------------------------------------------------
# The cases

my @cases;
for my $feature (qw(phases vectors both)) {
    for my $tc (qw(no yes)) {
        for my $mode (qw(exec fail fork-exec)) {
            push @cases, { label => "exec_self $mode, $feature, --trace-children=$tc",
                           feature => $feature, tc => $tc, mode => $mode };
        }
    }
}

sub run_case {
    my ($c) = @_;
    my $f = $FEATURES{ $c->{feature} };
    my @common = ("--trace-children=$c->{tc}");
    return {
        ref  => run_ref([ @common, @{ $f->{ref} } ], [ $prog, $c->{mode} ]),
        ours => run_ours([ @common, @{ $f->{ref} }, @{ $f->{ours} } ], [ $prog, $c->{mode} ]),
    };
}

# The line the image that execs prints, for the files of $feature.
sub exec_message {
    my ($feature, $pid) = @_;
    my $nor = $feature eq 'phases' ? 'is its cachegrind.out' : 'are its pc file and cachegrind.out';
    my $what = $feature eq 'phases' ? "phase profile '/\\S+/intervals\\.$pid' is"
             : $feature eq 'vectors' ? "vectors '/\\S+/bb\\.$pid' are"
             : "phase profile '/\\S+/intervals\\.$pid' and vectors '/\\S+/bb\\.$pid' are";
    return qr/^==$pid== the program execs: its $what not written \(nor \Q$nor\E\)$/;
}

sub check_case {
    my ($c, $r) = @_;
    my ($id, $mode, $tc, $feature) = @$c{qw(label mode tc feature)};
    my ($ref, $ours) = @$r{qw(ref ours)};
    check_banner($ref, $id, 'ref');
    check_banner($ours, $id, 'ours');
    ok(!$ref->{timed_out} && !$ours->{timed_out}, "$id: no timeout");
    is($ours->{status}, $ref->{status}, "$id: exit status as the reference's");
    is($ours->{stdout}, $ref->{stdout}, "$id: client stdout as the reference's");

    # Main files: 3.19's count, and ours identical.
    my $n = $mode eq 'fail' ? 1
          : $mode eq 'exec' ? ($tc eq 'yes' ? 1 : 0)
          : ($tc eq 'yes' ? 2 : 1);
    my @rm = files_like($ref, qr/^cg\.out\.\d+$/);
    my @om = files_like($ours, qr/^cg\.out\.\d+$/);
    is(scalar @rm, $n, "$id: reference wrote $n main file(s)");
    is(scalar @om, scalar @rm, "$id: as many main files")
        or diag('  ours: ' . join(' ', map { $_->{name} } @{ $ours->{files} }));
    for my $i (0 .. ($#rm < $#om ? $#rm : $#om)) {
        ok($om[$i]{content} eq $rm[$i]{content}, "$id: main file #" . ($i + 1) . ' identical');
    }

    my @tmp = files_like($ours, qr/\.tmp\./);
    ok(!@tmp, "$id: no temporary file left") or diag('  found: ' . join(' ', map { $_->{name} } @tmp));

    # The message, and nothing else new on stderr.
    my $pid = main_pid($ours);
    my @execs = $ours->{stderr} =~ /$EXECS/g;
    my @failed = $ours->{stderr} =~ /$FAILED/g;
    if ($mode eq 'fork-exec') {
        is(scalar @execs + scalar @failed, 0,
           "$id: no message (the forked child had no file open when it execed)")
            or diag(join '', @execs, @failed);
    } else {
        is(scalar @execs, 1, "$id: one line says the files are not written")
            or diag(join '', @execs);
        like($execs[0] // '', exec_message($feature, $pid), "$id: ... naming them");
        is(scalar @failed, $mode eq 'fail' ? 1 : 0,
           $mode eq 'fail' ? "$id: one line says they start again" : "$id: no line about a failed exec");
        like($ours->{stderr}, qr/^==$pid== the program execs: .*\n==$pid== the exec failed, so the program goes on: the files named above are started again from here$/m,
             "$id: ... right after the first one")
            if $mode eq 'fail';
    }
    (my $rest = $ours->{stderr}) =~ s/$EXECS|$FAILED//g;
    my ($want, $got) = (normalise_stderr($ref->{stderr}), normalise_stderr($rest));
    ok($want eq $got, "$id: stderr without those lines as the reference's")
        or diag("  ref:\n$want\n  ours:\n$got");

    # The files each process of ours left: by pid.
    my %main = map { $_->{name} =~ /(\d+)$/ ? ($1 => $_->{content}) : () } @om;
    my %ours_files;
    for my $f (@{ $ours->{files} }) {
        next unless $f->{name} =~ /^(intervals|bb|pc)\.(\d+)$/;
        $ours_files{$2}{$1} = $f->{content};
    }
    my @writers = sort keys %ours_files;
    is("@writers", join(' ', sort keys %main),
       "$id: the processes that wrote a main file, and only they, wrote " .
       ($feature eq 'phases' ? 'a phase profile' : $feature eq 'vectors' ? 'vectors' : 'both'));
    for my $p (@writers) {
        my $files = $ours_files{$p};
        my ($summary) = ($main{$p} // '') =~ /^summary: (.*)$/m;
        # A failed exec starts the phase profile again: it does not
        # cover the process from its start.
        my $whole = $mode eq 'fail' ? undef : $summary;
        my $who = $p eq $pid ? 'the process Valgrind started' : 'the forked child';
        if ($feature ne 'vectors') {
            my @p = defined $files->{intervals} ? phase_problems($files->{intervals}, $whole)
                                                : ('missing');
            ok(!@p, "$id: $who: phase profile complete"
                    . (defined $whole ? ", its totals the main file's summary" : ''))
                or diag(join "\n", map { "  $_" } @p);
        }
        if ($feature ne 'phases') {
            my @p = defined $files->{bb} ? vector_problems($files->{bb}, $files->{pc},
                                                           $mode eq 'fail')
                                         : ('missing');
            ok(!@p, "$id: $who: vectors and pc file complete")
                or diag(join "\n", map { "  $_" } @p);
        }
    }
    return;
}

run_cases(\@cases, \&check_case, \&run_case);

done_testing();
