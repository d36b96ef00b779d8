#!/usr/bin/perl
# phases.t -- the phase profile end to end: --interval-size on a program
# whose phases are known by construction (tests/progs-phases/phases.c:
# stream, pointer chase, compute with a planted spike, compute again),
# read back by cg_phases.  Also: the intervals file adds up to the main
# profile, the main profile is unchanged by the option (and still equal
# to the system Cachegrind's), a forked child writes its own file, and
# bad option values are refused.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use File::Spec;
use File::Temp qw(tempdir);
use Test::More;
use CgTest qw(:all);
simulate_caches();   # a test of the cache simulation, with any release's defaults

my $top = top_dir();
-x "$top/cg_phases" or BAIL_OUT('cg_phases is not built: run sh scripts/build.sh');

# Fixed caches, so that the rates do not depend on the host.
my @caches = ('--I1=32768,8,64', '--D1=32768,8,64', '--LL=1048576,16,64');
my $src = File::Spec->catfile(tests_dir(), 'progs-phases', 'phases.c');
my $bin = build_one(File::Spec->catfile(build_root(), 'progs-phases', 'phases-O1'),
                    [$src], 'gcc', '-g', '-O1', $src);

# The source line of the planted spike's reads.
my $spike_line = do {
    open(my $fh, '<', $src) or die "$src: $!\n";
    my $n = 0;
    my $found;
    while (<$fh>) { $n++; $found = $n if /sum \+= big\[/ }
    $found;
};

sub parse_intervals {
    my ($text) = @_;
    my (%head, @ivs, $cur);
    for my $line (split /\n/, $text) {
        next if $line =~ /^#/ || $line eq '';
        my ($key, $value) = $line =~ /^([a-z-]+): ?(.*)$/ or die "bad line: $line\n";
        if ($key eq 'interval') {
            my ($i, $start, $end, @counts) = split ' ', $value;
            $cur = { index => $i, start => $start, end => $end, counts => \@counts };
            push @ivs, $cur;
        } elsif ($key =~ /^(hot|miss)(-fn)?$/ && $cur) {
            $cur->{$key} = $value;
        } elsif ($key eq 'line' && $cur) {
            my @f = split / /, $value;
            my ($line, $file) = splice(@f, 9, 2);   # nine events here
            push @{ $cur->{lines} }, { counts => \@f, line => $line, file => $file };
        } elsif ($key eq 'line-fn' && $cur) {
            $cur->{lines}[-1]{fn} = $value;
        } else {
            $head{$key} = $value;
        }
    }
    return (\%head, \@ivs);
}

# --- One run with the phase profile, one without, and the reference --------

my $with = run_ours([@caches, '--interval-size=100k',
                     '--intervals-out-file=phases.iv'], [$bin]);
is($with->{exit_code}, 0, 'run with --interval-size=100k') or diag($with->{stderr});
my ($iv) = grep { $_->{name} eq 'phases.iv' } @{ $with->{files} };
my ($cg) = grep { $_->{name} =~ /^cg\.out\./ } @{ $with->{files} };
ok($iv, 'the intervals file is written under the given name') or BAIL_OUT('no file');
ok(!grep({ $_->{name} =~ /\.tmp\./ } @{ $with->{files} }), 'no temporary file is left');

my $without = run_ours([@caches], [$bin]);
my $ref     = run_ref([@caches], [$bin]);
is($cg->{content}, $without->{files}[0]{content},
   'the main profile is the same with and without --interval-size');
is($cg->{content}, $ref->{files}[0]{content},
   "... and equal to the system Cachegrind's");

my ($head, $ivs) = parse_intervals($iv->{content});
is($head->{version}, 2, 'format version 2');
is($head->{'interval-size'}, 100000, 'interval-size recorded');
like($head->{cmd}, qr/phases-O1$/, 'cmd recorded');
my @events = split ' ', $head->{events};
is("@events", 'Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw', 'events as in the main file');

# Intervals: numbered from 1, contiguous, Ir of each = its length.
my ($contiguous, $ir_is_length, $sizes_ok) = (1, 1, 1);
for my $k (0 .. $#$ivs) {
    my $v = $ivs->[$k];
    $contiguous = 0 unless $v->{index} == $k + 1
        && $v->{start} == ($k == 0 ? 0 : $ivs->[$k - 1]{end});
    $ir_is_length = 0 unless $v->{counts}[0] == $v->{end} - $v->{start};
    # every interval but the last ends at most a group past a multiple
    $sizes_ok = 0 if $k < $#$ivs
        && !($v->{end} >= 100000 * ($k + 1) && $v->{end} < 100000 * ($k + 1) + 100);
}
ok(@$ivs > 100, scalar(@$ivs) . ' intervals');
ok($contiguous, 'intervals are numbered from 1 and contiguous');
ok($ir_is_length, "each interval's Ir equals its instruction range");
ok($sizes_ok, 'each interval ends within a group of a multiple of 100,000');

# The totals line, the sum of the intervals and the main file's summary.
my @sum = (0) x @events;
for my $v (@$ivs) { $sum[$_] += $v->{counts}[$_] for 0 .. $#events }
is($head->{totals}, "@sum", 'totals: is the sum of the intervals');
my ($summary) = $cg->{content} =~ /^summary: (.*)$/m;
is("@sum", join(' ', split(' ', $summary)),
   "the intervals add up to the main profile's summary");

# Per-line records (--interval-lines, 10 by default): each interval lists
# its lines among the ten with the most of some event, each once, with
# counts that add up to at most the interval's; the hot line is among
# them with its count.
{
    my ($listed, $bounded, $hot_listed, $unique, $fns, $most) = (1, 1, 1, 1, 1, 0);
    for my $v (@$ivs) {
        my @lines = @{ $v->{lines} // [] };
        $listed = 0 unless @lines;
        $most = @lines if @lines > $most;
        my %seen;
        for my $l (@lines) {
            $unique = 0 if $seen{"$l->{file}\0$l->{fn}\0$l->{line}"}++;
            $fns = 0 unless defined $l->{fn} && $l->{fn} ne '';
        }
        for my $e (0 .. $#events) {
            my $sum = 0;
            $sum += $_->{counts}[$e] for @lines;
            $bounded = 0 if $sum > $v->{counts}[$e];
        }
        my ($ir, $ln, $file) = ($v->{hot} // '') =~ /^Ir (\d+) (\d+) (.*)$/;
        $hot_listed = 0 if defined $ir
            && !grep { $_->{counts}[0] == $ir && $_->{line} == $ln && $_->{file} eq $file } @lines;
    }
    ok($listed, 'every interval lists its costliest lines (line: records)');
    ok($most <= 10 * @events, "at most ten lines per event in an interval (most: $most)");
    ok($unique, 'each line once per interval');
    ok($fns, "each with its function (line-fn:)");
    ok($bounded, "their counts add up to at most the interval's, every event");
    ok($hot_listed, "the interval's hot line is among them, with its count");
}

# With --interval-lines at least the program's number of lines, every
# line is listed where it counted, and each line's sums over the
# intervals are its counts in the main file (4,000 lines or so, most of
# them ld.so's and libc's); with 0, none.
{
    my $all = run_ours([@caches, '--interval-size=100k', '--interval-lines=100000',
                        '--intervals-out-file=all.iv'], [$bin]);
    my ($f) = grep { $_->{name} eq 'all.iv' } @{ $all->{files} };
    my ($m) = grep { $_->{name} =~ /^cg\.out\./ } @{ $all->{files} };
    my (%from_iv, %from_main);
    my (undef, $all_ivs) = parse_intervals($f ? $f->{content} : '');
    for my $v (@$all_ivs) {
        for my $l (@{ $v->{lines} // [] }) {
            my $k = "$l->{file}:$l->{fn}:$l->{line}";
            $from_iv{$k}[$_] += $l->{counts}[$_] for 0 .. $#events;
        }
    }
    my ($fl, $fn) = ('', '');
    for (split /\n/, $m ? $m->{content} : '') {
        if (/^fl=(.*)/) { $fl = $1 }
        elsif (/^fn=(.*)/) { $fn = $1 }
        elsif (/^(\d+) (.*)/) {
            my @c = split ' ', $2;
            $from_main{"$fl:$fn:$1"}[$_] += $c[$_] // 0 for 0 .. $#events;
        }
    }
    my @differ = grep {
        join(' ', map { $_ // 0 } @{ $from_main{$_} // [] }[0 .. $#events])
            ne join(' ', map { $_ // 0 } @{ $from_iv{$_} // [] }[0 .. $#events])
    } sort keys %{ { %from_main, %from_iv } };
    ok(keys %from_main > 1000 && !@differ,
       '--interval-lines=100000: ' . scalar(keys %from_main) . " lines' sums over the intervals equal the main file's")
        or diag("differing: @differ[0 .. ($#differ < 4 ? $#differ : 4)]");
    my $none = run_ours([@caches, '--interval-size=100k', '--interval-lines=0',
                         '--intervals-out-file=none.iv'], [$bin]);
    my ($n) = grep { $_->{name} eq 'none.iv' } @{ $none->{files} };
    ok($n && $n->{content} =~ /^interval: /m && $n->{content} !~ /^line/m,
       '--interval-lines=0: no line records');
    for my $bad ('-1', '100001', 'x') {
        my $r = run_ours(["--interval-lines=$bad"], ['/bin/true']);
        ok($r->{exit_code} && $r->{stderr} =~ /--interval-lines=\Q$bad\E/,
           "--interval-lines=$bad is refused, naming the option");
    }
}

# --- cg_phases finds the planted phases and the spike -----------------------

my $dir = tempdir('cgphases-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
my $ivfile = File::Spec->catfile($dir, 'phases.iv');
spew($ivfile, $iv->{content});
my $svg = File::Spec->catfile($dir, 'phases.svg');
my $report = `'$top/cg_phases' --svg='$svg' '$ivfile' 2>&1`;
is($?, 0, 'cg_phases reads the file') or diag($report);

my @phases;
for my $line (split /\n/, $report) {
    next unless $line =~ /^\s+(\d+)\s+(\d+)-(\d+)\s+(\d+)\s+\S+\s+\S+%\s+(\d+)\s+(\S+)\s*$/;
    push @phases, { first => $2, last => $3, n => $4, spikes => $5, fn => $6 };
}
my @names = map { $_->{fn} } @phases;
my ($s) = grep { $names[$_] eq 'stream' } 0 .. $#names;
ok(defined $s && "@names[$s .. $s + 4]" eq 'stream chase compute spike compute',
   'phases found in the planted order: stream, chase, compute, spike, compute')
    or diag("phases: @names\n$report");
SKIP: {
    skip 'phases not found', 3 unless defined $s && $s + 4 <= $#phases;
    ok($phases[$s]{n} >= 30 && $phases[$s + 1]{n} >= 30,
       "stream and chase last $phases[$s]{n} and $phases[$s + 1]{n} intervals");
    ok($phases[$s + 2]{n} >= 20 && $phases[$s + 4]{n} >= 20,
       'both compute phases last 20 intervals or more');
    my $spiky = join ' ', map { "$_->{fn}:$_->{spikes}" } grep { $_->{spikes} } @phases;
    is($spiky, "spike:$phases[$s + 3]{n}",
       'every spike is in the planted spike phase, and all of it is flagged');
}

my @spikes = grep { /^\s+\d+\s+\d+\s+[\d,]+-[\d,]+\s+[\d.]+%/ } split /\n/, $report;
ok(@spikes >= 1 && @spikes <= 3, scalar(@spikes) . ' spike interval(s) reported');
is(scalar(grep { /phases\.c:$spike_line\s+spike\s*$/ } @spikes), scalar(@spikes),
   "each names the planted reads (phases.c:$spike_line) in function spike");

ok(-s $svg, 'the SVG chart is written');
my $chart = -s $svg ? slurp($svg) : '';
like($chart, qr/<svg\b.*<\/svg>\s*$/s, '... as a complete SVG document');
like($chart, qr/spike \(phases\.c:$spike_line\)/, '... with the spike labelled');

# --- A forked child writes its own file --------------------------------------

my $progs = build_progs();
my $fork = run_ours(['--interval-size=10k', '--intervals-out-file=iv.%p'],
                    [$progs->{'forker-O0'}]);
my @ivfiles = grep { $_->{name} =~ /^iv\.\d+$/ } @{ $fork->{files} };
my @cgfiles = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $fork->{files} };
is(scalar(@ivfiles), scalar(@cgfiles), 'a forking program: one intervals file per process');
my ($pids_ok, $wellformed) = (1, 1);
for my $f (@ivfiles) {
    my ($h, $v) = parse_intervals($f->{content});
    $pids_ok = 0 unless defined $h->{pid} && $h->{pid} == $f->{pid} && defined $h->{totals};
    # no line written twice (buffered lines must not reach both files)
    my @versions = $f->{content} =~ /^version:/mg;
    $wellformed = 0 unless @versions == 1 && @$v
        && !grep { $v->[$_]{index} != $_ + 1 } 0 .. $#$v;
}
ok(@ivfiles >= 2 && $pids_ok, 'each names its own pid and is complete');
ok($wellformed, 'each has one header and intervals numbered 1, 2, ... once');

# --- A 32-bit program (the x86 variant counts down in 32-bit words) ---------

SKIP: {
    my $why = can_run_m32();
    skip $why, 3 if $why;
    my $bin32 = build_one(File::Spec->catfile(build_root(), 'progs-phases', 'phases-m32'),
                          [$src], 'gcc', '-m32', '-g', '-O1', $src);
    my $r = run_ours([@caches, '--interval-size=100k', '--intervals-out-file=phases.iv'],
                     [$bin32]);
    is($r->{exit_code}, 0, 'a 32-bit program with --interval-size') or diag($r->{stderr});
    my ($f32) = grep { $_->{name} eq 'phases.iv' } @{ $r->{files} };
    my ($c32) = grep { $_->{name} =~ /^cg\.out\./ } @{ $r->{files} };
    my ($h32, $i32) = $f32 ? parse_intervals($f32->{content}) : ({}, []);
    ok(@$i32 > 100, '... writes ' . scalar(@$i32) . ' intervals');
    my ($sum32) = $c32 ? $c32->{content} =~ /^summary: (.*)$/m : ('');
    is($h32->{totals} // '', join(' ', split(' ', $sum32 // '')),
       "... that add up to its main profile's summary");
}

# --- Bad values ----------------------------------------------------------------

for my $bad ('0', 'abc', '10x', '-5', '') {
    my $r = run_ours(["--interval-size=$bad"], ['/bin/true']);
    ok($r->{exit_code} && $r->{stderr} =~ /--interval-size=\Q$bad\E/,
       "--interval-size='$bad' is refused, naming the option");
}
my $help = run_ours(['--help'], ['/bin/true']);
like($help->{stdout}, qr/--interval-size=.*--intervals-out-file=.*--interval-lines=<n> .*\[10\]/s,
     '--help lists the options');

done_testing();
