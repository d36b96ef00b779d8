#!/usr/bin/perl
# bbv.t -- SimPoint basic block vectors (--bb-out-file) against the
# system Valgrind's exp-bbv.
#
# Every case runs one program under `valgrind --tool=exp-bbv` (the
# reference) and under our tool with the same interval size, and
# compares what they wrote:
#   * the same bb files (one per thread: <name>, <name>.<tid>);
#   * per file, the same number of intervals, the same instruction
#     total in every interval, and the same vector in every interval.
#     Block ids are arbitrary labels (exp-bbv also prints a line's
#     entries in hash-table order, ours in first-run order), so each
#     vector is turned into { block address => count } through the
#     run's own pc file before comparing;
#   * the same summary lines after the vectors (Thread, Total
#     intervals, Total instructions, Total reps, Unique reps, Total
#     fldcw instructions), text for text;
#   * pc files listing the same block addresses with the same function
#     names, in the same (address) order;
#   * our run leaves no temporary file (<name>.tmp.<pid>) behind.
# Interval sizes: 10000 and 1k (many intervals: the boundary logic and
# the rep-instruction carry-over are exercised over and over), 1M (a few
# intervals at most) and the default, 100000000, which every program
# here stays under (no vector line at all, only the summary).  1k and 1M
# are given to our tool with a suffix, to exp-bbv as plain numbers.
#
# Programs: the fixtures in tests/progs and two built here from the
# sources at the end of this file: 'reps' (rep movs/stos/scas/cmps,
# back to back and with zero counts, explicit fldcw and long double ->
# integer conversions, so that Total reps / Unique reps / fldcw are not
# all zero) and 'conc' (three threads alive at once: four bb files).
#
# Threads: each thread's vectors depend only on its own instruction
# stream, not on the interleaving, as long as that stream does not
# depend on the interleaving itself.  progs/threads.c is written for
# that; 'conc' too (see its comment).  Measured while writing it:
#   * with lazy binding, the ~670 instructions that resolve write()'s
#     PLT entry went to whichever worker called it first: thread 4 under
#     exp-bbv, thread 2 under ours, every run on a pinned CPU (the host
#     kernel's choice of which woken thread takes Valgrind's lock first;
#     same totals, moved between threads).  So it is linked with -z now;
#   * a pthread_join that finds its thread not yet gone takes a wait
#     path ~94 instructions longer, and whether it did varied from run
#     to run under exp-bbv itself.  So main sleeps before joining.
# With both, all four files agreed in every run.  Threaded cases are
# still pinned to one CPU and may take up to three attempts to find an
# agreeing pair, as in diff-progs.t.
#
# Valgrind 3.19's exp-bbv writes its pc file only when --pc-out-file
# is given, as ours (see 'default pc file name' below), and
# --interval-size=0 kills it with an internal SIGFPE.
#
# exp-bbv's one inconsistency: when a thread's instruction count is an
# exact multiple of the interval size, its "Total intervals" line counts
# one interval more than it wrote vectors for.  Measured at
# --interval-size=1000: 127000 instructions, 126 vector lines and "Total
# intervals: 127"; 126999: 126 and 126; 127001: 127 and 127.  Ours
# writes 126, 126 and 127 vectors, each time with the total to match.
# Which runs end so depends on the machine and the environment (its size
# changes the dynamic loader's instruction count): it has shown up in
# atomics-O2 [1k] on one machine and indirect-O2 [1k] on another.  Where
# the reference's total is exactly one more than its own vector lines,
# the comparison takes the vector lines as the truth: ours must have the
# same vectors and a total equal to their number, and the reference's
# quirk is reported as a note, not a failure.  Any other disagreement of
# the reference with itself still fails.  The 'exact' program built here
# ends a run on a chosen multiple on any machine (one exp-bbv run
# measures its fixed instruction count), so the quirk is met every time;
# the comparator is also unit-tested on synthetic exp-bbv output first.
#
# Host features: 32-bit cases need can_run_m32() and the system
# Valgrind's x86 exp-bbv, and are skipped (with the reason) without
# them; the whole file is skipped if the system Valgrind has no exp-bbv.
#
# Also checked: our cachegrind.out from a run with --bb-out-file
# (chasing and unrolling switched off, as exp-bbv does) must equal the
# system Cachegrind's run with --vex-guest-chase=no
# --vex-iropt-unroll-thresh=0 (for all four programs used, the system
# Cachegrind's file with the default VEX settings differs, so this is
# not vacuous); %p and %q{VAR} in the names; the default pc file name;
# bad --bb-interval-size values; file modes (group-readable, as exp-bbv's).
#
# Environment:
#   CG_ALLOW_SKIP=1   skip (instead of failing) when a tool is missing
#   CG_JOBS=N         concurrent cases (default 2)
#   CG_ONLY=REGEX     only run cases whose label matches REGEX
#   CG_KEEP_TMP=1     keep every run's temporary directory
#   CG_TEST_NO_M32=1  skip the 32-bit cases (see tests/lib/CgTest.pm)
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/lib";
use File::Path qw(make_path);
use File::Spec;
use File::Temp qw(tempdir);
use Time::HiRes qw(time);
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults
{
    my ($have, $why) = have_ref_tool('exp-bbv');
    plan skip_all => $why unless $have;
}
my $t0 = time;

comparator_unit_tests();

my $bins = eval { build_progs() };
my $extra = $bins && eval { build_extra() };
if (!$bins || !$extra) {
    fail('build the fixture programs');
    diag($@);
    done_testing();
    exit 1;
}
pass('built the fixture programs');
%$bins = (%$bins, %$extra);

my @PROGS = qw(strings matrix_walk pointer_chase recursion branches indirect
               simd threads atomics unaligned signals reps conc);
my %THREADED = (threads => 1, conc => 1);

# label, reference options, our options, what the reference must show.
my @SIZES = (
    { label => '10000', size => 10000,
      ref => ['--interval-size=10000'], ours => ['--bb-interval-size=10000'],
      expect => 'many' },
    { label => '1k', size => 1000,
      ref => ['--interval-size=1000'], ours => ['--bb-interval-size=1k'],
      expect => 'many' },
    { label => '1M', size => 1000000,
      ref => ['--interval-size=1000000'], ours => ['--bb-interval-size=1M'] },
    { label => 'default', size => 100000000, ref => [], ours => [],
      expect => 'none' },
);

my @items;
for my $prog (@PROGS) {
    for my $opt ('O0', 'O2') {
        my $variant = "$prog-$opt";
        next unless $bins->{$variant};
        for my $size (@SIZES) {
            my %run;
            $run{cpu} = scalar(@items) if $THREADED{$prog};
            push @items, {
                type     => 'bbv',
                label    => "$variant [$size->{label}]",
                prog     => $prog,
                cmd      => [ $bins->{$variant} ],
                size     => $size,
                run      => \%run,
                attempts => $THREADED{$prog} ? 3 : 1,
            };
        }
    }
}

# Runs that end on an exact multiple of the interval size (see the
# header): the reference's Total intervals quirk, met on purpose.
for my $size (@SIZES[0, 1]) {
    push @items, {
        type => 'exact', label => "exact-O2 [$size->{label}], ends on a multiple",
        prog => 'exact', bin => $bins->{'exact-O2'}, size => $size, run => {},
        attempts => 1,
    };
}

# 32-bit programs through the x86 variant of the tool, where this host
# can run them (can_run_m32) and the system Valgrind has its x86 exp-bbv.
my $m32_why = can_run_m32() // (have_ref_tool('exp-bbv', 'x86'))[1];
{
    my $src = File::Spec->catdir(tests_dir(), 'progs');
    for my $prog (qw(strings recursion matrix_walk)) {
        my $label = "$prog-m32 [10000]";
        if ($m32_why) {
            push @items, { type => 'skip', label => $label, skip => $m32_why };
            next;
        }
        my $c = File::Spec->catfile($src, "$prog.c");
        my $bin = build_one(File::Spec->catfile(build_root(), 'bbv', "$prog-m32"),
                            [$c, File::Spec->catfile($src, 'common.h')],
                            'gcc', '-m32', '-g', '-O2', '-I', $src, $c);
        push @items, {
            type => 'bbv', label => $label, prog => $prog,
            cmd => [ $bin ], size => $SIZES[0], run => {}, attempts => 1,
        };
    }
}

# Our cachegrind.out from a bbv run vs the system Cachegrind without
# chasing and unrolling.
for my $variant (qw(strings-O2 matrix_walk-O0 indirect-O2 reps-O0)) {
    push @items, {
        type  => 'cgout',
        label => "$variant: cachegrind.out with --bb-out-file",
        cmd   => [ $bins->{$variant} ],
    };
}

push @items, misc_items();

run_cases(\@items, sub {
    my ($item, $r) = @_;
    emit_checks($r->{checks});
    if ($item->{type} eq 'cgout') {
        compare_runs($r->{ref}, $r->{ours}, $item->{label}, expect_files => 1);
        return;
    }
    note("$item->{label}: agreed on attempt $r->{attempt}")
        if ($r->{attempt} || 1) > 1;
    $item->{identical} = $r->{identical};
    $item->{quirk} = grep { $_->{quirk} } @{ $r->{checks} || [] };
}, sub {
    my ($item) = @_;
    return bbv_case($item)   if $item->{type} eq 'bbv';
    return exact_case($item) if $item->{type} eq 'exact';
    return cgout_case($item) if $item->{type} eq 'cgout';
    return { checks => $item->{code}->() };
});

# A case that could not run counts as not identical.
my @cases = grep { $_->{type} eq 'bbv' || $_->{type} eq 'exact' } @items;
my @not_identical = map { $_->{label} } grep { !$_->{identical} } @cases;
my @quirks = map { $_->{label} } grep { $_->{quirk} } @cases;
diag(sprintf('bbv: %d program x size cases, %d identical (%.0fs)',
             scalar @cases, @cases - @not_identical, time - $t0));
diag("bbv: not identical: @not_identical") if @not_identical;
diag('bbv: the reference counted one interval more than it wrote in: ' . join(', ', @quirks))
    if @quirks;
done_testing();
exit 0;

# ---------------------------------------------------------------------------
# Checks are plain data (they come back from forked workers):
#   { name => .., ok => 0|1, diag => [lines], todo => reason or undef }
# or a note, which is no assertion: { note => text, ok => 1 } (with
# quirk => 1 for the reference's Total intervals quirk).

sub check {
    my ($ok, $name, @diag) = @_;
    return { ok => $ok ? 1 : 0, name => $name, diag => [ $ok ? () : @diag ] };
}

sub emit_checks {
    my ($checks) = @_;
    for my $k (@$checks) {
        if (defined $k->{note}) {
            note($k->{note});
            next;
        }
        if ($k->{todo}) {
          TODO: {
                local $main::TODO = $k->{todo};
                ok($k->{ok}, $k->{name});
                diag("  $_") for $k->{ok} ? () : @{ $k->{diag} };
            }
            next;
        }
        ok($k->{ok}, $k->{name});
        diag("  $_") for $k->{ok} ? () : @{ $k->{diag} };
    }
    return;
}

sub main_pid {
    my ($res) = @_;
    return $res->{stderr} =~ /^==(\d+)==/m ? $1 : undef;
}

sub first_lines {
    my ($n, @l) = @_;
    return @l <= $n ? @l : (@l[0 .. $n - 1], '... (' . (@l - $n) . ' more)');
}

# ---------------------------------------------------------------------------
# Parsing

# parse_pc($text) -> { id2addr => {id => addr}, fn => {addr => name},
#                      addrs => [addresses in file order], errors => [..] }
sub parse_pc {
    my ($text) = @_;
    my (%id2addr, %fn, @addrs, @errors);
    my @lines = split /\n/, $text, -1;
    if (@lines && $lines[-1] eq '') { pop @lines }
    elsif (length $text)            { push @errors, 'no newline at the end' }
    my $n = 0;
    for my $l (@lines) {
        $n++;
        if ($l !~ /^F:(\d+):([0-9a-f]+):(.*)$/) {
            push @errors, "line $n: not F:<id>:<hex address>:<function>: '$l'";
            next;
        }
        my ($id, $addr, $name) = ($1, $2, $3);
        push @errors, "line $n: id $id listed twice" if exists $id2addr{$id};
        push @errors, "line $n: address $addr listed twice" if exists $fn{$addr};
        $id2addr{$id} = $addr;
        $fn{$addr} = $name;
        push @addrs, $addr;
    }
    return { id2addr => \%id2addr, fn => \%fn, addrs => \@addrs, errors => \@errors };
}

# parse_bb($text, $pc, $size) -> { intervals => [ { key => canonical
#   vector, sum => instructions } ], trailer => 'non-vector lines',
#   summary => { intervals, size, instructions, reps, unique, fldcw },
#   errors => [..] }
sub parse_bb {
    my ($text, $pc, $size) = @_;
    my (@iv, @trailer, @errors);
    my @lines = split /\n/, $text, -1;
    if (@lines && $lines[-1] eq '') { pop @lines }
    else                            { push @errors, 'no newline at the end' }
    my $n = 0;
    for my $l (@lines) {
        $n++;
        if ($l !~ /^T/) {
            push @trailer, $l;
            next;
        }
        push @errors, "line $n: vector after the summary" if grep { /^#/ } @trailer;
        push @errors, "line $n: not T:<id>:<count>   :<id>:<count>   ...: '"
            . substr($l, 0, 60) . "'"
            unless $l =~ /^T(?::\d+:\d+   )+$/;
        my (%v, %seen);
        my $sum = 0;
        while ($l =~ /:(\d+):(\d+)/g) {
            my ($id, $count) = ($1, $2);
            push @errors, "line $n: id $id twice" if $seen{$id}++;
            my $addr = $pc->{id2addr}{$id};
            if (!defined $addr) {
                push @errors, "line $n: id $id is not in the pc file";
                $addr = "id$id";
            }
            $v{$addr} += $count;
            $sum += $count;
        }
        push @iv, { key => join(' ', map { "$_=$v{$_}" } sort keys %v), sum => $sum };
    }
    my %s;
    my $trailer = join("\n", @trailer);
    ($s{thread})       = $trailer =~ /^# Thread (\d+)$/m;
    @s{qw(intervals size)} = $trailer =~ /^#   Total intervals: (\d+) \(Interval Size (\d+)\)$/m;
    ($s{instructions}) = $trailer =~ /^#   Total instructions: (\d+)$/m;
    ($s{reps})         = $trailer =~ /^#   Total reps: (\d+)$/m;
    ($s{unique})       = $trailer =~ /^#   Unique reps: (\d+)$/m;
    ($s{fldcw})        = $trailer =~ /^#   Total fldcw instructions: (\d+)$/m;
    for my $k (qw(thread intervals size instructions reps unique fldcw)) {
        push @errors, "summary: no '$k' line" unless defined $s{$k};
    }
    my $count_error;
    if (defined $s{intervals} && $s{intervals} != @iv) {
        $count_error = "summary: Total intervals $s{intervals} but " . scalar(@iv) . ' vector lines';
        push @errors, $count_error;
    }
    push @errors, "summary: Interval Size $s{size}, asked for $size"
        if defined $s{size} && $s{size} != $size;
    return { intervals => \@iv, trailer => $trailer, summary => \%s, errors => \@errors,
             count_error => $count_error };
}

# ref_total_quirk($bb) -> undef, or, where a reference bb file shows
# exp-bbv's one known inconsistency (its Total intervals exactly one
# more than its vector lines; see the header), { bb => the file as
# parsed but with the total of its vector lines, text => a note }.
# Nothing else is forgiven: other errors stay, and a total off by any
# other amount is no match.
sub ref_total_quirk {
    my ($bb) = @_;
    my $s = $bb->{summary};
    my $lines = @{ $bb->{intervals} };
    return undef unless defined $s->{intervals} && $s->{intervals} == $lines + 1;
    my %fixed = %$bb;
    $fixed{errors}  = [ grep { $_ ne $bb->{count_error} } @{ $bb->{errors} } ];
    $fixed{summary} = { %$s, intervals => $lines };
    ($fixed{trailer} = $bb->{trailer})
        =~ s/^(#   Total intervals: )\d+( \(Interval Size \d+\))$/$1$lines$2/m;
    my $at = '';
    if (defined $s->{instructions}) {
        $at = " after $s->{instructions} instructions";
        $at .= ', a multiple of the interval size'
            if $s->{size} && $s->{instructions} % $s->{size} == 0;
    }
    return { bb => \%fixed,
             text => "exp-bbv's quirk: 'Total intervals: $s->{intervals}' but $lines vector "
                     . "lines$at; compared as $lines, the number of its vectors" };
}

# digest($res, $size): what a bbv run produced, parsed.
sub digest {
    my ($res, $size) = @_;
    my %d = (
        which   => $res->{which},
        res     => { map { $_ => $res->{$_} }
                     qw(which status timed_out stdout banner_ok banner_error) },
        names   => [ sort map { $_->{name} } @{ $res->{files} } ],
        stderr  => $res->{stderr},
        bb      => {},
    );
    my %by = map { $_->{name} => $_->{content} } @{ $res->{files} };
    $d{pc} = parse_pc(defined $by{'pc.out'} ? $by{'pc.out'} : '');
    $d{pc}{missing} = !defined $by{'pc.out'};
    for my $name (grep { /^bb\.out(?:\.\d+)?$/ } keys %by) {
        $d{bb}{$name} = parse_bb($by{$name}, $d{pc}, $size);
    }
    return \%d;
}

# ---------------------------------------------------------------------------
# Comparison of two digested runs -> list of checks

sub describe_vector_diff {
    my ($ka, $kb, $fn) = @_;
    my %a = map { split /=/ } split ' ', $ka;
    my %b = map { split /=/ } split ' ', $kb;
    my %all = (%a, %b);
    my @d;
    for my $addr (sort keys %all) {
        my ($x, $y) = ($a{$addr} // 0, $b{$addr} // 0);
        next if $x == $y;
        my $name = $fn->{$addr} // '';
        push @d, "0x$addr" . ($name ne '' ? " ($name)" : '') . ": exp-bbv $x, ours $y";
    }
    return first_lines(10, @d);
}

sub compare_bbv {
    my ($R, $O, $item) = @_;
    my $L = $item->{label};
    my @c;
    my ($r, $o) = ($R->{res}, $O->{res});

    push @c, check($r->{banner_ok}, "$L: reference is the system exp-bbv",
                   $r->{banner_error} // '');
    push @c, check($o->{banner_ok}, "$L: ours is not the system Cachegrind",
                   $o->{banner_error} // '');
    push @c, check(!$r->{timed_out} && !$o->{timed_out}, "$L: no timeout");
    push @c, check(status_str($r->{status}) eq 'exit 0', "$L: reference exit status",
                   'got ' . status_str($r->{status}));
    push @c, check(status_str($o->{status}) eq status_str($r->{status}), "$L: exit status",
                   'exp-bbv ' . status_str($r->{status}) . ', ours ' . status_str($o->{status}));
    push @c, check($r->{stdout} eq $o->{stdout}, "$L: client stdout",
                   "exp-bbv: $r->{stdout}", "ours: $o->{stdout}");

    # Our files: the vectors, the pc file, the harness's cg.out.<pid>.
    my @tmp = grep { /\.tmp\./ } @{ $O->{names} };
    push @c, check(!@tmp, "$L: no temporary file left", "left: @tmp");
    my @odd = grep { !/^(?:bb\.out(?:\.\d+)?|pc\.out|cg\.out\.\d+)$/ } @{ $O->{names} };
    push @c, check(!@odd, "$L: ours wrote no other file", "other files: @odd");

    my @rb = sort keys %{ $R->{bb} };
    my @ob = sort keys %{ $O->{bb} };
    push @c, check("@rb" eq "@ob" && @rb > 0, "$L: same bb files (one per thread)",
                   "exp-bbv: @rb", "ours: @ob");

    # pc files
    push @c, check(!$R->{pc}{missing} && !$O->{pc}{missing}, "$L: both wrote pc.out",
                   "exp-bbv: " . ($R->{pc}{missing} ? 'none' : 'yes')
                   . ', ours: ' . ($O->{pc}{missing} ? 'none' : 'yes'));
    push @c, check(!@{ $R->{pc}{errors} } && !@{ $O->{pc}{errors} }, "$L: pc files well formed",
                   (map { "exp-bbv: $_" } first_lines(5, @{ $R->{pc}{errors} })),
                   (map { "ours: $_" } first_lines(5, @{ $O->{pc}{errors} })));
    {
        my ($rf, $of) = ($R->{pc}{fn}, $O->{pc}{fn});
        my @only_r = grep { !exists $of->{$_} } sort keys %$rf;
        my @only_o = grep { !exists $rf->{$_} } sort keys %$of;
        push @c, check(!@only_r && !@only_o, "$L: pc files list the same addresses",
                       scalar(keys %$rf) . ' in exp-bbv\'s, ' . scalar(keys %$of) . ' in ours',
                       (map { "only exp-bbv: 0x$_ $rf->{$_}" } first_lines(6, @only_r)),
                       (map { "only ours: 0x$_ $of->{$_}" } first_lines(6, @only_o)));
        my @fn = map { "0x$_: exp-bbv '$rf->{$_}', ours '$of->{$_}'" }
                 grep { exists $of->{$_} && $rf->{$_} ne $of->{$_} } sort keys %$rf;
        push @c, check(!@fn, "$L: pc files give the same function names", first_lines(8, @fn));
        push @c, check("@{ $R->{pc}{addrs} }" eq "@{ $O->{pc}{addrs} }",
                       "$L: pc files in the same order");
    }

    # Vectors, file by file.
    for my $name (grep { $O->{bb}{$_} } @rb) {
        my ($a, $b) = ($R->{bb}{$name}, $O->{bb}{$name});
        my $l = "$L: $name";
        if (my $q = ref_total_quirk($a)) {
            push @c, { note => "$l: $q->{text}", ok => 1, quirk => 1 };
            $a = $q->{bb};
        }
        push @c, check(!@{ $a->{errors} } && !@{ $b->{errors} }, "$l: well formed",
                       (map { "exp-bbv: $_" } first_lines(5, @{ $a->{errors} })),
                       (map { "ours: $_" } first_lines(5, @{ $b->{errors} })));
        my ($ia, $ib) = ($a->{intervals}, $b->{intervals});
        push @c, check(@$ia == @$ib, "$l: number of intervals",
                       'exp-bbv ' . scalar(@$ia) . ', ours ' . scalar(@$ib));
        my $n = @$ia < @$ib ? scalar @$ia : scalar @$ib;
        my ($sum_at, $vec_at);
        for my $i (0 .. $n - 1) {
            $sum_at //= $i if $ia->[$i]{sum} != $ib->[$i]{sum};
            $vec_at //= $i if $ia->[$i]{key} ne $ib->[$i]{key};
            last if defined $sum_at && defined $vec_at;
        }
        push @c, check(!defined $sum_at, "$l: instructions in every interval",
                       defined $sum_at
                       ? ('first difference in interval ' . ($sum_at + 1) . ': exp-bbv '
                          . $ia->[$sum_at]{sum} . ', ours ' . $ib->[$sum_at]{sum}) : ());
        my %fn = (%{ $R->{pc}{fn} }, %{ $O->{pc}{fn} });
        push @c, check(!defined $vec_at && @$ia == @$ib, "$l: vectors equal by address",
                       defined $vec_at
                       ? ('first difference in interval ' . ($vec_at + 1) . ' of ' . scalar(@$ia) . ':',
                          describe_vector_diff($ia->[$vec_at]{key}, $ib->[$vec_at]{key}, \%fn))
                       : ('the shorter file agrees with the start of the longer'));
        my @ta = split /\n/, $a->{trailer}, -1;
        my @tb = split /\n/, $b->{trailer}, -1;
        my @td = map { ("exp-bbv: " . ($ta[$_] // '(none)'), "ours:    " . ($tb[$_] // '(none)')) }
                 grep { ($ta[$_] // "\0") ne ($tb[$_] // "\0") } 0 .. (@ta > @tb ? $#ta : $#tb);
        push @c, check($a->{trailer} eq $b->{trailer}, "$l: summary lines", first_lines(12, @td));
    }

    # The reference must show what the case is meant to exercise.
    my $main = $R->{bb}{'bb.out'};
    if ($main && ($item->{size}{expect} // '') eq 'many') {
        push @c, check(@{ $main->{intervals} } >= 5, "$L: reference has many intervals",
                       'only ' . scalar(@{ $main->{intervals} }));
    }
    if ($main && ($item->{size}{expect} // '') eq 'none') {
        my @some = grep { @{ $R->{bb}{$_}{intervals} } } @rb;
        push @c, check(!@some, "$L: run shorter than one interval", "intervals in @some");
    }
    if ($main && $item->{prog} eq 'reps') {
        my $s = $main->{summary};
        push @c, check(($s->{reps} // 0) > 0 && ($s->{unique} // 0) > 0 && ($s->{fldcw} // 0) > 0,
                       "$L: reference counted reps and fldcw",
                       "reps $s->{reps}, unique $s->{unique}, fldcw $s->{fldcw}");
    }
    if ($item->{prog} eq 'conc') {
        push @c, check(@rb == 4, "$L: reference wrote four bb files", "files: @rb");
    }
    return \@c;
}

sub bbv_case {
    my ($item) = @_;
    my @names = ('--bb-out-file=bb.out', '--pc-out-file=pc.out');
    my $size = $item->{size};
    my (@R, @O, %done, $first);
    for my $attempt (1 .. $item->{attempts}) {
        push @R, digest(run_ref([@names, @{ $size->{ref} }], $item->{cmd},
                                tool => 'exp-bbv', %{ $item->{run} }), $size->{size});
        push @O, digest(run_ours([@names, @{ $size->{ours} }], $item->{cmd},
                                 %{ $item->{run} }), $size->{size});
        for my $i (0 .. $#R) {
            for my $j (0 .. $#O) {
                next if $done{"$i,$j"}++;
                my $checks = compare_bbv($R[$i], $O[$j], $item);
                my $same = !grep { !$_->{ok} } @$checks;
                return { checks => $checks, identical => 1, attempt => $attempt } if $same;
                $first //= $checks;
            }
        }
        last if !$R[-1]{res}{banner_ok} || !$O[-1]{res}{banner_ok};
    }
    return { checks => $first, identical => 0, attempt => scalar @R };
}

# A run of the 'exact' program that ends on a multiple of the interval
# size: one exp-bbv run with no extra instructions measures the fixed
# count, the program then runs as many nops as make up the difference.
sub exact_case {
    my ($item) = @_;
    my $size = $item->{size}{size};
    my $zero = run_ref(['--bb-out-file=bb.out', @{ $item->{size}{ref} }],
                       [ $item->{bin}, '00000' ], tool => 'exp-bbv');
    my ($bb) = grep { $_->{name} eq 'bb.out' } @{ $zero->{files} };
    my ($fixed) = $bb ? $bb->{content} =~ /^#   Total instructions: (\d+)$/m : ();
    return { error => "exp-bbv measuring the fixed count: no 'Total instructions' line\n"
                      . $zero->{stderr} } unless defined $fixed;
    my $n = ($size - $fixed % $size) % $size;
    my $r = bbv_case({ %$item, cmd => [ $item->{bin}, sprintf('%05d', $n) ] });
    unshift @{ $r->{checks} }, { ok => 1, note => "$item->{label}: $fixed fixed instructions "
                                 . "and $n nops, " . ($fixed + $n) . ' in all' };
    # The quirk is exp-bbv's, not ours: a run where it does not show is
    # no failure, but the case then did not test what it is for.
    push @{ $r->{checks} }, { ok => 1, note => "$item->{label}: the reference did not show "
                              . 'its Total intervals quirk this time' }
        unless grep { $_->{quirk} } @{ $r->{checks} };
    return $r;
}

# ---------------------------------------------------------------------------
# The comparator on synthetic exp-bbv output (no tool runs): exactly the
# known quirk of the reference is let through, nothing near it.

sub synthetic_run {
    my ($which, $vectors, $total, %extra) = @_;
    my $pc = join('', map { sprintf("F:%d:%x:fn%d\n", $_, 0x401000 + 16 * $_, $_) } 1 .. 3);
    my $bb = join('', map { "T:1:$_->[0]   :2:$_->[1]   :3:$_->[2]   \n" } @$vectors)
           . ($extra{bad_line} ? "T:1:x   \n" : '')
           . "\n# Thread 1\n#   Total intervals: $total (Interval Size 1000)\n"
           . "#   Total instructions: 4000\n#   Total reps: 0\n#   Unique reps: 0\n"
           . "#   Total fldcw instructions: 0\n\n";
    my $res = { which => $which, status => 0, timed_out => 0, stdout => "synthetic\n",
                banner_ok => 1, stderr => '',
                files => [ { name => 'bb.out', content => $bb }, { name => 'pc.out', content => $pc },
                           ($which eq 'ours' ? { name => 'cg.out.1', content => '' } : ()) ] };
    return digest($res, 1000);
}

sub comparator_unit_tests {
    my @v = ([600, 400, 1], [500, 500, 0], [0, 1000, 0]);    # 3 intervals of 1000 (+1)
    my @v4 = (@v, [1000, 0, 0]);
    my $item = { label => 'synthetic', prog => 'synthetic', size => { size => 1000 } };
    my @cases = (
        # label, reference [vectors, total, extra], ours [vectors, total], accepted
        ['consistent reference, same vectors and total', [\@v, 3], [\@v, 3], 1],
        ['reference total one over its 3 lines, ours 3 and 3', [\@v, 4], [\@v, 3], 1],
        ['reference total one over, ours copies that total', [\@v, 4], [\@v, 4], 0],
        ['reference total one over, ours wrote a 4th vector', [\@v, 4], [\@v4, 4], 0],
        ['reference total one over, ours has a different vector',
         [\@v, 4], [[[600, 400, 1], [500, 499, 1], [0, 1000, 0]], 3], 0],
        ['reference total two over its lines', [\@v, 5], [\@v, 3], 0],
        ['reference total one under its lines', [\@v, 2], [\@v, 3], 0],
        ['reference total one over its lines and a malformed line',
         [\@v, 5, bad_line => 1], [\@v, 3], 0],
        ['consistent reference, ours total one over', [\@v, 3], [\@v, 4], 0],
    );
    subtest 'unit test of the comparator on synthetic exp-bbv output' => sub {
        for my $case (@cases) {
            my ($label, $r, $o, $accept) = @$case;
            my ($rv, $rt, %extra) = @$r;
            my $checks = compare_bbv(synthetic_run('ref', $rv, $rt, %extra),
                                     synthetic_run('ours', @$o), $item);
            my @failed = grep { !$_->{ok} } @$checks;
            my $noted = grep { $_->{quirk} } @$checks;
            if ($accept) {
                ok(!@failed, "$label: accepted")
                    or diag('  ' . join("\n  ", map { $_->{name} } @failed));
                my $quirk = $rt == @$rv + 1;
                is($noted, $quirk ? 1 : 0, "$label: " . ($quirk ? 'the quirk is noted' : 'no note'));
            } else {
                ok(scalar @failed, "$label: rejected");
            }
        }
    };
    return;
}

# ---------------------------------------------------------------------------
# cachegrind.out of a bbv run

sub cgout_case {
    my ($item) = @_;
    my $ref = run_ref(['--vex-guest-chase=no', '--vex-iropt-unroll-thresh=0', '--branch-sim=yes'],
                      $item->{cmd});
    my $ours = run_ours(['--bb-out-file=bb.out', '--bb-interval-size=10000', '--branch-sim=yes'],
                        $item->{cmd});
    my @names = map { $_->{name} } @{ $ours->{files} };
    my @checks = (check((grep { $_ eq 'bb.out' } @names) ? 1 : 0,
                        "$item->{label}: ours wrote the vectors too", "files: @names"));
    # Only the cachegrind.out file takes part in compare_runs.
    $ours->{files} = [ grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $ours->{files} } ];
    return { checks => \@checks, ref => $ref, ours => $ours };
}

# ---------------------------------------------------------------------------
# Names, defaults, bad options, file modes

sub misc_items {
    my @m;
    my $threads = [ $bins->{'threads-O0'} ];

    push @m, { type => 'misc', label => '%p and %q{VAR} in the file names', code => sub {
        my @o = ('--bb-out-file=bb.%p.out', '--pc-out-file=pc.%q{BBV_TAG}');
        my %a = (env => { BBV_TAG => 'tagged' }, cpu => 0);
        my $ref  = run_ref([@o, '--interval-size=10000'], $threads, tool => 'exp-bbv', %a);
        my $ours = run_ours([@o, '--bb-interval-size=10000'], $threads, %a);
        my ($rp, $op) = (main_pid($ref), main_pid($ours));
        my @c = (check($ref->{banner_ok}, 'reference is the system exp-bbv', $ref->{banner_error} // ''),
                 check($ours->{banner_ok}, 'ours is not the system Cachegrind', $ours->{banner_error} // ''),
                 check(defined $rp && defined $op, 'pids from the ==PID== prefix'));
        return \@c unless defined $rp && defined $op;
        my @rn = sort map { (my $n = $_->{name}) =~ s/\b$rp\b/PID/g; $n } @{ $ref->{files} };
        my @on = sort grep { !/^cg\.out\./ }
                 map { (my $n = $_->{name}) =~ s/\b$op\b/PID/g; $n } @{ $ours->{files} };
        push @c, check("@on" eq 'bb.PID.out bb.PID.out.2 pc.tagged',
                       'ours: bb.<pid>.out, bb.<pid>.out.2 and pc.tagged', "got: @on");
        push @c, check("@rn" eq "@on", 'same names as exp-bbv', "exp-bbv: @rn", "ours: @on");
        return \@c;
    } };

    push @m, { type => 'misc', label => 'default pc file name', code => sub {
        my $ref  = run_ref(['--bb-out-file=bb.out'], $threads, tool => 'exp-bbv', cpu => 1);
        my $ours = run_ours(['--bb-out-file=bb.out'], $threads, cpu => 1);
        my @on = sort grep { !/^(?:bb\.out|cg\.out\.)/ } map { $_->{name} } @{ $ours->{files} };
        my @rn = sort grep { !/^bb\.out/ } map { $_->{name} } @{ $ref->{files} };
        # Neither writes a pc file unless --pc-out-file is given.
        return [
            check($ours->{banner_ok} && $ref->{banner_ok}, 'banners', $ours->{banner_error} // '',
                  $ref->{banner_error} // ''),
            check(!@on, 'ours writes no pc file without --pc-out-file', "got: @on"),
            check(!@rn, 'exp-bbv writes no pc file without --pc-out-file', "got: @rn"),
        ];
    } };

    for my $bad ('0', 'abc', '-5', '10x', '') {
        push @m, { type => 'misc', label => "--bb-interval-size='$bad' is refused", code => sub {
            my $ours = run_ours(['--bb-out-file=bb.out', "--bb-interval-size=$bad"],
                                [ $bins->{'strings-O0'} ]);
            my @bb = grep { /^bb\.out/ } map { $_->{name} } @{ $ours->{files} };
            # (exp-bbv itself dies of an internal SIGFPE on
            # --interval-size=0, so there is nothing to compare with.)
            return [
                check(status_str($ours->{status}) eq 'exit 1', 'ours exits with status 1',
                      'got ' . status_str($ours->{status})),
                check($ours->{stderr} =~ /--bb-interval-size/, 'the message names the option',
                      split /\n/, $ours->{stderr}),
                check($ours->{stdout} eq '', 'the client did not run', "stdout: $ours->{stdout}"),
                check(!@bb, 'no bb file', "files: @bb"),
            ];
        } };
    }

    push @m, { type => 'misc', label => 'file modes', code => sub {
        my $dir = tempdir('cgbbv-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
        my $cmd = [ $bins->{'strings-O2'} ];
        my $ref  = run_ref(["--bb-out-file=$dir/ref.bb", "--pc-out-file=$dir/ref.pc",
                            '--interval-size=10000'], $cmd, tool => 'exp-bbv');
        my $ours = run_ours(["--bb-out-file=$dir/ours.bb", "--pc-out-file=$dir/ours.pc",
                             '--bb-interval-size=10000'], $cmd);
        my %mode = map { my @st = stat("$dir/$_"); ($_ => @st ? sprintf('%04o', $st[2] & 07777) : 'missing') }
                   qw(ref.bb ref.pc ours.bb ours.pc);
        my @c;
        for my $kind (qw(bb pc)) {
            my $k = check($mode{"ours.$kind"} eq $mode{"ref.$kind"}, "$kind file mode as exp-bbv's",
                          'exp-bbv ' . $mode{"ref.$kind"} . ', ours ' . $mode{"ours.$kind"}
                          . sprintf(' (umask %04o)', umask));
            push @c, $k;
        }
        return \@c;
    } };
    return @m;
}

# ---------------------------------------------------------------------------
# Programs built here (not in tests/progs: every other test runs those)

sub build_extra {
    my $dir = File::Spec->catdir(build_root(), 'bbv');
    make_path($dir);
    my $cc = defined $ENV{CC} && $ENV{CC} ne '' ? $ENV{CC} : 'gcc';
    my %src = (reps => reps_c(), conc => conc_c(), exact => exact_c());
    my %libs = (conc => ['-pthread', '-Wl,-z,now']);
    my %levels = (exact => ['O2']);
    my %built;
    for my $name (sort keys %src) {
        my $c = File::Spec->catfile($dir, "$name.c");
        # Rewrite the source only when it changed, so that build_one's
        # mtime check rebuilds exactly then.
        if (!-e $c || slurp($c) ne $src{$name}) {
            spew("$c.tmp.$$", $src{$name});
            rename("$c.tmp.$$", $c) or die "rename $c.tmp.$$: $!\n";
        }
        for my $opt (@{ $levels{$name} || ['O0', 'O2'] }) {
            my $out = File::Spec->catfile($dir, "$name-$opt");
            build_one($out, [$c], $cc, '-g', "-$opt", $c, @{ $libs{$name} || [] });
            $built{"$name-$opt"} = $out;
        }
    }
    return \%built;
}

sub reps_c {
    return <<'EOF';
/* bbv.t: rep-prefixed string instructions of every kind (two back to
   back, often with a zero count) and fldcw, explicit and from long
   double -> integer conversion (fnstcw/fldcw/fistp/fldcw). */
#include <stdio.h>

static unsigned char a[8192], b[8192];

static void movsb(void *d, const void *s, unsigned long n)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

static void stosb(void *d, int c, unsigned long n)
{
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}

static void stosq(void *d, unsigned long v, unsigned long n)
{
    __asm__ volatile("rep stosq" : "+D"(d), "+c"(n) : "a"(v) : "memory");
}

static void two_reps(void *d, const void *s, unsigned long n)
{
    __asm__ volatile("mov %2, %%rdx\n\t"
                     "xor %%eax, %%eax\n\t"
                     "rep movsb\n\t"
                     "mov %%rdx, %%rcx\n\t"
                     "rep stosb"
                     : "+D"(d), "+S"(s), "+c"(n) : : "rax", "rdx", "memory");
}

static unsigned long scasb(const void *s, unsigned long n)
{
    __asm__ volatile("xor %%eax, %%eax\n\t"
                     "repne scasb"
                     : "+D"(s), "+c"(n) : : "rax", "cc", "memory");
    return n;
}

static unsigned long cmpsb(const void *x, const void *y, unsigned long n)
{
    __asm__ volatile("repe cmpsb" : "+D"(x), "+S"(y), "+c"(n) : : "cc", "memory");
    return n;
}

static void fldcw_pair(void)
{
    unsigned short cw, trunc;
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    trunc = cw | 0x0c00;
    __asm__ volatile("fldcw %0" : : "m"(trunc));
    __asm__ volatile("fldcw %0" : : "m"(cw));
}

int main(void)
{
    unsigned long acc = 0;
    volatile long double ld = 1.75L;
    for (int i = 0; i < 3000; i++) {
        unsigned long n = (unsigned long)(i * 7) % 4096;
        stosb(a, i & 0xff, n);
        movsb(b, a, n);
        stosq(b + 8, (unsigned long)i, (n / 8) % 64);
        two_reps(a + 1, b + 3, (unsigned long)(i % 5));
        a[(i * 13) % 4000] = 0;
        acc += scasb(a, 4096);
        acc += cmpsb(a, b, (unsigned long)(i % 300));
        if (i % 3 == 0)
            fldcw_pair();
        acc += (unsigned long)(long)(ld * i);
    }
    printf("reps: %lu\n", acc);
    return 0;
}
EOF
}

sub conc_c {
    return <<'EOF';
/* bbv.t: three worker threads alive at the same time (Valgrind thread
   ids 2, 3 and 4, so four bb files), interleaved with main by the
   scheduler.  Each thread's own instruction stream must not depend on
   the interleaving: the workers wait at a gate (a blocking read() costs
   the same instructions whether it blocks or not) until all exist, do a
   little work and report on a second pipe; main does more work, reads
   the three reports, then sleeps before joining, so that the workers
   have finished exiting and pthread_join never takes its wait path.
   Linked with -z now: no lazy binding done by whichever thread first
   calls a function. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>

static unsigned long results[4];
static int gate[2], done[2];

static unsigned long work(int id, int rounds)
{
    unsigned long x = (unsigned long)id + 1, acc = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < 1000; i++) {
            x = x * 6364136223846793005UL + 1442695040888963407UL;
            if (x >> 63)
                acc += x >> 40;
            else
                acc ^= x;
        }
    }
    return acc;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    char c;
    if (read(gate[0], &c, 1) != 0)      /* 0: EOF, main has let us go */
        return NULL;
    results[id] = work((int)id, 20 * (int)id);
    c = (char)id;
    if (write(done[1], &c, 1) != 1)
        return NULL;
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    if (pipe(gate) != 0 || pipe(done) != 0) {
        puts("conc: pipe failed");
        return 1;
    }
    for (long k = 0; k < 3; k++)
        if (pthread_create(&t[k], NULL, worker, (void *)(k + 1)) != 0) {
            puts("conc: pthread_create failed");
            return 1;
        }
    close(gate[1]);
    results[0] = work(0, 200);
    for (int k = 0; k < 3; k++) {
        char c;
        if (read(done[0], &c, 1) != 1) {
            puts("conc: read failed");
            return 1;
        }
    }
    struct timespec ts = { 0, 50 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    for (int k = 0; k < 3; k++)
        pthread_join(t[k], NULL);
    unsigned long total = 0;
    for (int k = 0; k < 4; k++)
        total += results[k];
    printf("conc: %lu\n", total);
    return 0;
}
EOF
}

sub exact_c {
    return <<'EOF';
/* bbv.t: a run of a chosen length.  argv[1] is five decimal digits, n
   (0 to 10000): the program goes through exactly n of the 10000
   one-byte nops below, so that it runs a fixed number of instructions
   plus n, whatever n is (the argument always has the same length, and
   nothing else depends on its value).  bbv.t measures the fixed part
   and picks n to end the run on a multiple of the interval size. */
#include <stdio.h>

static __attribute__((noinline)) void nops(unsigned long n)
{
    __asm__ volatile("lea 1f(%%rip), %%rax\n\t"
                     "sub %0, %%rax\n\t"
                     "jmp *%%rax\n\t"
                     ".rept 10000\n\t"
                     "nop\n\t"
                     ".endr\n"
                     "1:"
                     : : "r"(n) : "rax", "cc", "memory");
}

int main(int argc, char **argv)
{
    unsigned long n = 0;
    if (argc != 2)
        return 2;
    for (int i = 0; i < 5; i++)
        n = n * 10 + (unsigned long)(argv[1][i] - '0');
    if (n > 10000)
        return 2;
    nops(n);
    puts("exact: done");
    return 0;
}
EOF
}
