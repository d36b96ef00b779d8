#!/usr/bin/perl
# cg_phases.t -- tests of cg_phases (cg_phases.in).
#
# Every input is a synthetic interval file written here, with a known
# structure:
#   * three phases (stream ~5%, chase ~12%, compute ~0.1% D1mr/Dr) and one
#     planted spike in compute whose miss: line is spike.c:42 in spike_fn:
#     the phase table, the spike table, the header's median / MAD /
#     threshold (recomputed here), --spike, --event (DLmr, Dr), the
#     default event;
#   * the MAD = 0 fallback, a run whose rate never varies, a whole phase
#     above the rest of the run;
#   * the SVG chart: well-formed (tags checked here, no XML module), its
#     title, one circle per spike, the legend, escaping, atomic writing;
#   * malformed input: every error names FILE:LINE on one line, status 1;
#   * the command line: usage errors (status 2), --help, --version.
#
# Core modules only.  The script is made from cg_phases.in (configure's
# substitutions done here), or CG_PHASES=path tests another copy.
use strict;
use warnings;

use File::Spec;
use File::Temp qw(tempdir);
use FindBin;
use Test::More;
use lib "$FindBin::Bin/lib";
use CgTest qw(top_dir slurp spew run_captured);

my $top  = top_dir();
my $tmp  = tempdir('cg_phases-t-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $prog = $ENV{CG_PHASES} ? File::Spec->rel2abs($ENV{CG_PHASES}) : make_script();

#############################################################################
# Helpers
#############################################################################

# cg_phases.in with @PERL@ and @PACKAGE_VERSION@ replaced.
sub make_script {
    my $version = 'test';
    my $ac = slurp("$top/configure.ac");
    $version = $1 if $ac =~ /AC_INIT\(\s*\[?[^,\]]*\]?\s*,\s*\[?([^,\]\)]+)/;
    my $text = slurp("$top/cg_phases.in");
    $text =~ s/\@PERL\@/$^X/g;
    $text =~ s/\@PACKAGE_VERSION\@/$version/g;
    my $path = "$tmp/cg_phases";
    spew($path, $text);
    chmod 0755, $path or die "chmod $path: $!";
    return $path;
}

# Run cg_phases with ARGS in $tmp; returns { out, err, status }.
sub run {
    my @args = @_;
    return run_captured($tmp, $prog, @args);
}

# Write an interval file into $tmp.
sub write_file {
    my ($name, $text) = @_;
    spew("$tmp/$name", $text);
    return $name;
}

my @EV9 = qw(Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw);

# An interval file from interval descriptions.  Each interval: { fn (or
# undef: no hot lines), counts => { event => n }, miss => [ev, count,
# line, file, fn] (or undef), ir }.  Missing counts are 0; Ir defaults
# to 1,000,000 + the index (the tool's boundaries are not exact).
sub make_intervals {
    my (%a) = @_;
    my @events = @{ $a{events} || \@EV9 };
    my $text = "# cachegrind.intervals: a phase profile written by Cachegrind-ng "
             . "(read it with cg_phases)\n"
             . "version: 1\ncreator: Cachegrind-ng-0.1.0\npid: 4242\n"
             . "cmd: " . ($a{cmd} // './phases --big') . "\n"
             . "interval-size: " . ($a{size} // 1000000) . "\n"
             . "events: @events\n";
    my @tot = (0) x @events;
    my $pos = 0;
    my $i = 0;
    for my $iv (@{ $a{intervals} }) {
        $i++;
        my %c = %{ $iv->{counts} };
        $c{Ir} //= $iv->{ir} // 1000000 + $i;
        my @c = map { $c{$_} // 0 } @events;
        $tot[$_] += $c[$_] for 0 .. $#c;
        $text .= "interval: $i $pos " . ($pos + $c{Ir}) . " @c\n";
        $pos += $c{Ir};
        if (defined $iv->{fn}) {
            $text .= "hot: Ir " . int($c{Ir} / 2) . " 31 /src/$iv->{fn}.c\n";
            $text .= "hot-fn: $iv->{fn}\n";
        }
        if ($iv->{miss}) {
            my ($ev, $n, $line, $file, $fn) = @{ $iv->{miss} };
            $text .= "miss: $ev $n $line $file\nmiss-fn: $fn\n";
        }
    }
    $text .= "totals: @tot\n";
    return ($text, \@tot);
}

# One interval of the main file: D1mr/Dr = RATE, DLmr = D1mr / LLDIV.
sub iv_at {
    my ($fn, $rate, $lldiv, %more) = @_;
    my $dr = 400000;
    my $d1 = int($dr * $rate + 0.5);
    return { fn => $fn,
             counts => { I1mr => 100, ILmr => 10, Dr => $dr, D1mr => $d1,
                         DLmr => int($d1 / $lldiv), Dw => 200000, D1mw => 300,
                         DLmw => 20 },
             miss => $more{miss} // [ 'D1mr', int($d1 * 0.8), 12, "/src/$fn.c", $fn ],
             %more };
}

# The main file: 1-10 stream (~5%), 11-20 chase (~12%; interval 15 has
# no hot lines), 21-30 compute (~0.1%) with interval 26 at 60%, whose top
# miss line is spike.c:42 in spike_fn.
sub main_intervals {
    my @iv;
    for my $i (1 .. 30) {
        my $jit = 0.0001 * ($i % 3);
        if ($i <= 10) {
            push @iv, iv_at('stream', 0.05 + $jit, 4);
        }
        elsif ($i <= 20) {
            my $iv = iv_at('chase', 0.12 + $jit, 2);
            $iv->{fn} = undef if $i == 15;
            push @iv, $iv;
        }
        elsif ($i == 26) {
            push @iv, iv_at('compute', 0.60, 3,
                            miss => [ 'D1mr', 230000, 42, '/src/spike.c', 'spike_fn' ]);
        }
        else {
            push @iv, iv_at('compute', 0.001 + $jit, 10);
        }
    }
    return \@iv;
}

sub median {
    my @v = sort { $a <=> $b } @_;
    return @v % 2 ? $v[$#v / 2] : ($v[@v / 2 - 1] + $v[@v / 2]) / 2;
}

# The rows of the phase table: [phase, first, last, count, start, end,
# rate, spikes, fn].
sub phase_rows {
    my ($out) = @_;
    my ($sec) = $out =~ /^-- Phases:.*?\n-+\n(.*?)(?:\n\n|\z)/ms or return [];
    my @rows;
    for my $line (split /\n/, $sec) {
        next if $line =~ /^phase /;
        my @f = $line =~ /^\s*(\d+)\s+(\d+)-(\d+)\s+(\d+)\s+([\d,]+)-([\d,]+)\s+(\S+)\s+(\d+)  (.*)$/
            or return [ "unparsed: $line" ];
        s/,//g for @f[4, 5];
        push @rows, \@f;
    }
    return \@rows;
}

# The rows of the spike table: [interval, phase, start, end, rate, devs,
# event, count, source, function].  The source and function columns are
# cut where their headings start (they may contain blanks).
sub spike_rows {
    my ($out) = @_;
    my ($sec) = $out =~ /^-- Spikes:.*?\n-+\n(.*)\z/ms or return [];
    my ($head, @lines) = split /\n/, $sec;
    return [] if $head eq '(none)';
    my $src = index($head, 'source');
    my $fn  = index($head, 'function');
    my @rows;
    for my $line (@lines) {
        my @f = substr($line, 0, $src) =~ /^\s*(\d+)\s+(\d+)\s+([\d,]+)-([\d,]+)\s+(\S+)\s+([\d.]+)\s+(\S+|\(no misses\))\s+([\d,]+|-)\s+$/
            or return [ "unparsed: $line" ];
        s/,//g for @f[2, 3, 7];
        (my $source = substr($line, $src, $fn - $src)) =~ s/\s+\z//;
        push @rows, [ @f, $source, substr($line, $fn) ];
    }
    return \@rows;
}

sub header_field {
    my ($out, $name) = @_;
    return $out =~ /^\Q$name\E:\s+(.*)$/m ? $1 : undef;
}

# Tag balance of an XML document: returns an error string or ''.
sub xml_problem {
    my ($xml) = @_;
    return 'no XML declaration' unless $xml =~ /\A<\?xml version="1\.0" encoding="UTF-8"\?>\n/;
    my $body = $';
    my @stack;
    my $root_done = 0;
    while ($body =~ /\G([^<]*)(<[^>]*>)?/gc) {
        my ($text, $tag) = ($1, $2);
        return "bad character data '$text'" if $text =~ />/ || $text =~ /&(?!(?:amp|lt|gt|quot|apos);)/;
        return "text outside the root element" if !@stack && $text =~ /\S/;
        last unless defined $tag;
        return "content after the root element" if $root_done;
        if ($tag =~ m{\A</([\w:-]+)\s*>\z}) {
            return "unexpected </$1>" unless @stack && $stack[-1] eq $1;
            pop @stack;
            $root_done = 1 unless @stack;
        }
        elsif ($tag =~ m{\A<([\w:-]+)((?:\s+[\w:-]+="[^"<]*")*)\s*(/?)>\z}) {
            my ($name, $attrs, $empty) = ($1, $2, $3);
            my %seen;
            for my $attr ($attrs =~ /([\w:-]+)=/g) {
                return "attribute $attr twice in <$name>" if $seen{$attr}++;
            }
            for my $val ($attrs =~ /="([^"]*)"/g) {
                return "bad attribute value '$val'" if $val =~ /&(?!(?:amp|lt|gt|quot|apos);)/;
            }
            if ($empty) { $root_done = 1 unless @stack }
            else        { push @stack, $name }
        }
        else {
            return "malformed tag $tag";
        }
    }
    return "unclosed <$stack[-1]>" if @stack;
    return 'no root element' unless $root_done;
    return '';
}

#############################################################################
# The main file: phases, spikes, header
#############################################################################

my $ivs = main_intervals();
my ($main_text, $main_tot) = make_intervals(intervals => $ivs);
my $main = write_file('cachegrind.intervals.4242', $main_text);

{
    my $r = run($main);
    is($r->{status}, 0, 'main file: exit 0');
    is($r->{err}, '', 'main file: nothing on stderr');
    my $out = $r->{out};

    # Phases: exactly the three planted ones.
    my $ph = phase_rows($out);
    is(scalar @$ph, 3, 'three phases');
    is_deeply([ map { [ @$_[0 .. 3], $_->[8] ] } @$ph ],
              [ [ 1, 1, 10, 10, 'stream' ], [ 2, 11, 20, 10, 'chase' ],
                [ 3, 21, 30, 10, 'compute' ] ],
              'phase numbers, interval ranges, counts and hot functions');
    # Instruction ranges: contiguous, from 0 to the end of the run.
    is($ph->[0][4], 0, 'phase 1 starts at instruction 0');
    is($ph->[1][4], $ph->[0][5], 'phase 2 starts where phase 1 ends');
    is($ph->[2][5], $main_tot->[0], 'phase 3 ends at the run\'s instruction count');
    is_deeply([ map { $_->[7] } @$ph ], [ 0, 0, 1 ], 'spikes per phase');

    # Phase rates: sum D1mr / sum Dr over the phase.
    my @want_rates;
    for my $range ([ 0, 9 ], [ 10, 19 ], [ 20, 29 ]) {
        my ($n, $d) = (0, 0);
        for my $i ($range->[0] .. $range->[1]) {
            $n += $ivs->[$i]{counts}{D1mr};
            $d += $ivs->[$i]{counts}{Dr};
        }
        push @want_rates, sprintf('%.3f%%', 100 * $n / $d);
    }
    is_deeply([ map { $_->[6] } @$ph ], \@want_rates, 'phase rates (D1mr/Dr)');

    # Spikes: exactly interval 26, blamed on spike.c:42 / spike_fn.
    my $sp = spike_rows($out);
    is(scalar @$sp, 1, 'one spike');
    is($sp->[0][0], 26, 'the spike is the planted interval 26');
    is($sp->[0][1], 3, 'in phase 3');
    is($sp->[0][4], '60.000%', 'its rate');
    is_deeply([ @{ $sp->[0] }[6 .. 9] ], [ 'D1mr', 230000, '/src/spike.c:42', 'spike_fn' ],
              'its responsible source: miss event, count, file:line, function');

    # The header, against the statistics recomputed here.
    my @rates = map { $_->{counts}{D1mr} / $_->{counts}{Dr} } @$ivs;
    my $med = median(@rates);
    my $mad = median(map { abs($_ - $med) } @rates);
    my $thr = $med + 3.5 * 1.4826 * $mad;
    is(header_field($out, 'Command'), './phases --big', 'header: command');
    is(header_field($out, 'Interval size'), '1,000,000 instructions', 'header: interval size');
    like(header_field($out, 'Intervals'), qr/^30, /, 'header: 30 intervals');
    is(header_field($out, 'Rate analysed'), 'D1 read miss rate (D1mr / Dr), in %',
       'header: the event and its denominator');
    is(header_field($out, 'Median rate'), sprintf('%.3f%%', 100 * $med), 'header: median');
    like(header_field($out, 'MAD'), qr/^\Q${\ sprintf('%.3f%%', 100 * $mad)}\E; one robust deviation = 1\.4826 x MAD = /,
         'header: MAD');
    is(header_field($out, 'Spike threshold'),
       'median + 3.5 robust deviations = ' . sprintf('%.3f%%', 100 * $thr), 'header: threshold');
    is(header_field($out, 'Spikes'), 1, 'header: one spike');
    like($sp->[0][5], qr/^\d+\.\d$/, 'robust deviations column');
    is($sp->[0][5], sprintf('%.1f', (0.60 - $med) / (1.4826 * $mad)),
       'robust deviations above the median');

    # Deterministic.
    my $again = run($main);
    is($again->{out}, $out, 'the same output twice');
}

# --spike changes the set.
{
    my $r = run('--spike=0.5', $main);
    is($r->{status}, 0, '--spike=0.5: exit 0');
    my $sp = spike_rows($r->{out});
    is_deeply([ map { $_->[0] } @$sp ], [ 11 .. 20, 26 ],
              '--spike=0.5: the whole chase phase and interval 26');
    is_deeply([ map { $_->[7] } @{ phase_rows($r->{out}) } ], [ 0, 10, 1 ],
              '--spike=0.5: spikes per phase');
    like(header_field($r->{out}, 'Spike threshold'), qr/^median \+ 0\.5 robust deviations = /,
         '--spike=0.5: threshold line names K');

    $r = run('--spike', '10', $main);
    is($r->{status}, 0, '--spike 10 (separate argument): exit 0');
    is(scalar @{ spike_rows($r->{out}) }, 0, '--spike 10: no spike');
    like($r->{out}, qr/^\(none\)$/m, '--spike 10: the spike section says (none)');

    $r = run('--spike=0', $main);
    my $med = median(map { $_->{counts}{D1mr} / $_->{counts}{Dr} } @$ivs);
    my $above = grep { $_->{counts}{D1mr} / $_->{counts}{Dr} > $med } @$ivs;
    is(scalar @{ spike_rows($r->{out}) }, $above, '--spike=0: every interval above the median');
}

# --event=DLmr: another rate, the same phases.
{
    my $r = run('--event=DLmr', $main);
    is($r->{status}, 0, '--event=DLmr: exit 0');
    is(header_field($r->{out}, 'Rate analysed'), 'LL read miss rate (DLmr / Dr), in %',
       '--event=DLmr: header');
    my $ph = phase_rows($r->{out});
    my @want;
    for my $range ([ 0, 9 ], [ 10, 19 ], [ 20, 29 ]) {
        my ($n, $d) = (0, 0);
        for my $i ($range->[0] .. $range->[1]) {
            $n += $ivs->[$i]{counts}{DLmr};
            $d += $ivs->[$i]{counts}{Dr};
        }
        push @want, sprintf('%.3f%%', 100 * $n / $d);
    }
    is_deeply([ map { $_->[6] } @$ph ], \@want, '--event=DLmr: phase rates are DLmr/Dr');
    isnt($want[0], phase_rows(run($main)->{out})->[0][6], 'DLmr rates differ from D1mr rates');
    like($r->{out}, qr/^phase .*DLmr\/Dr/m, '--event=DLmr: column heading');

    # An access event: per 1000 instructions.
    $r = run('--event', 'Dr', $main);
    is($r->{status}, 0, '--event Dr: exit 0');
    is(header_field($r->{out}, 'Rate analysed'),
       'Data reads per 1,000 instructions (Dr x 1000 / Ir)', '--event=Dr: header');
    my ($n, $d) = (0, 0);
    for my $i (0 .. 9) {
        $n += $ivs->[$i]{counts}{Dr};
        $d += 1000000 + $i + 1;
    }
    is(phase_rows($r->{out})->[0][6], sprintf('%.3f', $n * 1000 / $d),
       '--event=Dr: phase rate per 1000 instructions');
}

#############################################################################
# Default event, robust-deviation fallbacks, phase rules
#############################################################################

{
    my %want = ('Ir I1mr ILmr' => 'I1 instruction miss rate (I1mr / Ir), in %',
                'Ir Bc Bcm Bi Bim' => 'Conditional branch misprediction rate (Bcm / Bc), in %',
                'Ir Dr DLmr' => 'LL read miss rate (DLmr / Dr), in %',
                'Ir' => 'Instructions per 1,000 instructions (Ir x 1000 / Ir)');
    for my $events (sort keys %want) {
        my @ev = split ' ', $events;
        my ($text) = make_intervals(events => \@ev,
            intervals => [ map { +{ fn => 'f', counts => { map { $_ => 100 } grep { $_ ne 'Ir' } @ev } } } 1 .. 3 ]);
        my $r = run(write_file('default.iv', $text));
        is($r->{status}, 0, "events '$events': exit 0");
        is(header_field($r->{out}, 'Rate analysed'), $want{$events},
           "events '$events': the default event");
    }
}

# MAD = 0: 19 intervals at exactly 1%, one at 50%.
{
    my @iv = map { +{ fn => 'steady', counts => { Dr => 400000, D1mr => $_ == 11 ? 200000 : 4000 },
                     miss => [ 'D1mr', 100, 7, 'steady.c', 'steady' ] } } 1 .. 20;
    my ($text) = make_intervals(intervals => \@iv);
    my $r = run(write_file('mad0.iv', $text));
    is($r->{status}, 0, 'MAD 0: exit 0');
    my $mean_ad = 0.49 / 20;
    like(header_field($r->{out}, 'MAD'),
         qr/^0 \(more than half the intervals have the median rate\); one robust deviation = 1\.2533 x mean absolute deviation 2\.450% = 3\.071%$/,
         'MAD 0: falls back to 1.2533 x the mean absolute deviation');
    is(header_field($r->{out}, 'Spike threshold'),
       'median + 3.5 robust deviations = ' . sprintf('%.3f%%', 100 * (0.01 + 3.5 * 1.2533 * $mean_ad)),
       'MAD 0: threshold');
    is_deeply([ map { $_->[0] } @{ spike_rows($r->{out}) } ], [ 11 ], 'MAD 0: the outlier is a spike');

    # No variation at all: no threshold, no spike.
    @iv = map { +{ fn => 'flat', counts => { Dr => 400000, D1mr => 4000 } } } 1 .. 8;
    ($text) = make_intervals(intervals => \@iv);
    $r = run('--svg=flat.svg', write_file('flat.iv', $text));
    is($r->{status}, 0, 'constant rate: exit 0');
    is(header_field($r->{out}, 'MAD'), '0, and so is the mean absolute deviation',
       'constant rate: MAD line');
    is(header_field($r->{out}, 'Spike threshold'), 'none (every interval has the same rate)',
       'constant rate: no threshold');
    like($r->{out}, qr/^-- Spikes: none, the D1mr\/Dr rate is the same in every interval$/m,
         'constant rate: the spike section says why');
    my $svg = slurp("$tmp/flat.svg");
    is(xml_problem($svg), '', 'constant rate: the chart is well-formed');
    unlike($svg, qr/class="threshold"/, 'constant rate: no threshold line');
    like($svg, qr/no spike threshold/, 'constant rate: the legend says there is no threshold');
}

# A whole phase far above the rest of the run: the median and threshold
# are the run's, so each of its intervals is a spike (documented).
{
    my @iv = ((map { iv_at('stream', 0.05, 4) } 1 .. 10),
              (map { iv_at('chase', 0.40, 2) } 1 .. 10),
              (map { iv_at('compute', 0.001, 10) } 1 .. 10));
    my ($text) = make_intervals(intervals => \@iv);
    my $r = run(write_file('highphase.iv', $text));
    is_deeply([ map { $_->[7] } @{ phase_rows($r->{out}) } ], [ 0, 10, 0 ],
              'a phase far above the rest: all of its intervals are spikes');
}

# Phase rules: intervals without hot-fn join the phase before them (the
# first ones, the first phase); a function hot twice gives two phases;
# an empty hot-fn reads as ???; a file name with blanks is kept.
{
    my @iv = ((map { +{ fn => undef, counts => { Dr => 100, D1mr => 1 } } } 1 .. 2),
              (map { +{ fn => 'a', counts => { Dr => 100, D1mr => 1 } } } 1 .. 2),
              { fn => 'b', counts => { Dr => 100, D1mr => 1 } },
              { fn => undef, counts => { Dr => 100, D1mr => 90 },
                miss => [ 'D1mr', 80, 9, '/my src/odd name.c', 'odd fn' ] },
              (map { +{ fn => 'a', counts => { Dr => 100, D1mr => 1 } } } 1 .. 2));
    my ($text) = make_intervals(intervals => \@iv);
    $text =~ s/^(hot: Ir \d+ 31 \/src\/b\.c\nhot-fn:) b$/$1 /m or die;
    my $r = run(write_file('rules.iv', $text));
    is($r->{status}, 0, 'phase rules: exit 0');
    is_deeply([ map { [ @$_[1, 2], $_->[8] ] } @{ phase_rows($r->{out}) } ],
              [ [ 1, 4, 'a' ], [ 5, 6, '???' ], [ 7, 8, 'a' ] ],
              'phase rules: leading and later intervals without hot-fn; empty hot-fn; a recurring function');
    my $sp = spike_rows($r->{out});
    is_deeply([ map { [ $_->[0], @$_[8, 9] ] } @$sp ],
              [ [ 6, '/my src/odd name.c:9', 'odd fn' ] ], 'a file name and a function with blanks');
}

#############################################################################
# The SVG chart
#############################################################################

{
    my $r = run('--svg=chart.svg', $main);
    is($r->{status}, 0, '--svg: exit 0');
    is($r->{out}, run($main)->{out}, '--svg: the text report is unchanged');
    my $svg = slurp("$tmp/chart.svg");
    is(xml_problem($svg), '', 'the chart is well-formed XML');
    like($svg, qr/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/, 'an SVG root element');
    like($svg, qr/>D1 read miss rate \(D1mr \/ Dr\) per interval of 1,000,000 instructions -- \.\/phases --big</,
         'the title says what is plotted');
    like($svg, qr/>instructions executed</, 'x axis title');
    like($svg, qr/>D1mr \/ Dr \(%\)</, 'y axis title');
    like($svg, qr/>10M</, 'x tick labels in millions');
    like($svg, qr/>20%</, 'y tick labels in percent');
    my @circles = $svg =~ /<circle class="spike"/g;
    is(scalar @circles, 1, 'one circle per spike');
    like($svg, qr/>spike_fn \(spike\.c:42\)</, 'the spike is labelled function (file:line)');
    for my $fn (qw(stream chase compute)) {
        like($svg, qr/<text [^>]*>$fn</, "the phase band of $fn is labelled");
    }
    my @bands = $svg =~ /<rect class="phase"/g;
    is(scalar @bands, 3, 'one band per phase');
    my ($legend) = $svg =~ /<g class="legend"[^>]*>(.*?)<\/g>/s;
    ok(defined $legend, 'a legend');
    $legend //= '';
    like($legend, qr/>rate of each interval: D1mr\/Dr</, 'legend: the rate line');
    like($legend, qr/>median over all intervals: [\d.]+%</, 'legend: the median');
    like($legend, qr/>spike threshold: [\d.]+% \(median \+ 3\.5 robust deviations\)</,
         'legend: the threshold');
    like($legend, qr/stroke="#d62728"[^>]*stroke-dasharray/, 'legend: the threshold is dashed red');
    like($legend, qr/>spike, labelled/, 'legend: the spike marker');
    like($legend, qr/>phase: /, 'legend: the phase bands');
    like($svg, qr/<line class="median"[^>]*stroke-dasharray/, 'a dashed median line');
    like($svg, qr/<line class="threshold"[^>]*stroke="#d62728"[^>]*stroke-dasharray/,
         'a dashed red threshold line');
    my @steps = $svg =~ /<path class="rate" d="([^"]*)"/;
    my @h = ($steps[0] // '') =~ /H/g;
    is(scalar @h, 30, 'the rate line has one step per interval');
    my @left = glob("$tmp/chart.svg.tmp*");
    is(scalar @left, 0, 'no temporary file left');

    # Eleven spikes: eleven circles; replaces the old chart; deterministic.
    $r = run('--spike=0.5', '--svg', 'chart.svg', $main);
    $svg = slurp("$tmp/chart.svg");
    is(scalar(() = $svg =~ /<circle class="spike"/g), 11, '--spike=0.5: eleven circles');
    is(xml_problem($svg), '', '--spike=0.5: well-formed');
    is(scalar(() = $svg =~ />chase \(chase\.c:12\)</g), 1,
       '--spike=0.5: the run of ten chase spikes is labelled once');
    like($svg, qr/>spike_fn \(spike\.c:42\)</, '--spike=0.5: the planted spike keeps its label');
    run('--spike=0.5', '--svg=chart2.svg', $main);
    is(slurp("$tmp/chart2.svg"), $svg, 'the same chart twice');

    # Access event: per-1000 axis.
    run('--event=Dr', '--svg=dr.svg', $main);
    $svg = slurp("$tmp/dr.svg");
    like($svg, qr/>Dr per 1,000 instructions</, '--event=Dr: y axis title');
    like($svg, qr/>Data reads per 1,000 instructions \(Dr x 1000 \/ Ir\) per interval/,
         '--event=Dr: title');
    is(xml_problem($svg), '', '--event=Dr: well-formed');

    # Markup and bytes that are not UTF-8 in the names.
    my @iv = map { iv_at('f<&>"g\'', $_ == 3 ? 0.9 : 0.01 + 0.001 * $_, 2,
                         miss => [ 'D1mr', 5, 3, "/x/\xff<y>.c", "h&i\x01" ]) } 1 .. 9;
    my ($text) = make_intervals(intervals => \@iv, cmd => "./a <b> & \"c\" \xc3\xa9\xff");
    $r = run('--svg=esc.svg', write_file('esc.iv', $text));
    is($r->{status}, 0, 'markup in names: exit 0');
    $svg = slurp("$tmp/esc.svg");
    is(xml_problem($svg), '', 'markup in names: the chart is well-formed');
    like($svg, qr/\.\/a &lt;b&gt; &amp; &quot;c&quot; \xc3\xa9\xef\xbf\xbd/,
         'markup escaped, UTF-8 kept, other bytes U+FFFD');
    unlike($svg, qr/\x01/, 'control characters dropped');

    # Cannot write: status 1, one line, nothing left behind.
    $r = run('--svg=no/such/dir/c.svg', $main);
    is($r->{status}, 1, 'unwritable chart: exit 1');
    like($r->{err}, qr/\Acg_phases: cannot write no\/such\/dir\/c\.svg: [^\n]+\n\z/,
         'unwritable chart: one-line error');
}

#############################################################################
# Malformed input: cg_phases: FILE:LINE: message, status 1
#############################################################################

my @BASE = (
    '# a comment',                            #  1
    'version: 1',                             #  2
    'cmd: ./x',                               #  3
    'interval-size: 100',                     #  4
    'events: Ir Dr D1mr',                     #  5
    'interval: 1 0 100 100 40 2',             #  6
    'hot: Ir 60 5 a.c',                       #  7
    'hot-fn: f',                              #  8
    'miss: D1mr 2 6 a.c',                     #  9
    'miss-fn: f',                             # 10
    '',                                       # 11
    'interval: 2 100 200 100 40 4',           # 12
    'hot: Ir 60 5 a.c',                       # 13
    'hot-fn: f',                              # 14
    'totals: 200 80 6',                       # 15
);

# [name, edit of the lines (1-based: replace, insert before, delete),
#  line reported, message pattern]
my @BAD = (
    [ 'version 3',               [ r => 2, 'version: 3' ], 2, qr/unsupported version '3' \(this cg_phases reads versions 1 to 2\)/ ],
    [ 'version 0',               [ r => 2, 'version: 0' ], 2, qr/unsupported version '0'/ ],
    [ 'line in version 1',       [ i => 11, 'line: 40 2 1 5 a.c' ], 11, qr/'line:' line in a version 1 file/ ],
    [ 'not an interval file',    [ r => 2, 'desc: I1 cache: 32768 B' ], 2, qr/not an interval file/ ],
    [ 'version missing',         [ d => 2 ], 2, qr/expected 'version: 2' first/ ],
    [ 'too few counts',          [ r => 6, 'interval: 1 0 100 100 40' ], 6, qr/needs 3 \+ 3 numbers/ ],
    [ 'too many counts',         [ r => 6, 'interval: 1 0 100 100 40 2 9' ], 6, qr/needs 3 \+ 3 numbers.*found 7/ ],
    [ 'non-numeric count',       [ r => 6, 'interval: 1 0 100 100 4x 2' ], 6, qr/count '4x' for Dr is not a number/ ],
    [ 'negative count',          [ r => 6, 'interval: 1 0 100 100 -4 2' ], 6, qr/count '-4' for Dr is not a number/ ],
    [ 'non-numeric start',       [ r => 6, 'interval: 1 zero 100 100 40 2' ], 6, qr/start 'zero' is not a number/ ],
    [ 'first index not 1',       [ r => 6, 'interval: 2 0 100 100 40 2' ], 6, qr/interval 2 out of order \(expected interval 1\)/ ],
    [ 'index out of order',      [ r => 12, 'interval: 3 100 200 100 40 4' ], 12, qr/interval 3 out of order \(expected interval 2\)/ ],
    [ 'not contiguous',          [ r => 12, 'interval: 2 150 200 100 40 4' ], 12, qr/starts at 150, but interval 1 ended at 100/ ],
    [ 'ends before it starts',   [ r => 12, 'interval: 2 100 50 100 40 4' ], 12, qr/ends \(50\) before it starts \(100\)/ ],
    [ 'hot-fn without hot',      [ d => 13 ], 13, qr/'hot-fn:' line without a 'hot:' line for interval 2/ ],
    [ 'miss-fn without miss',    [ d => 9 ], 9, qr/'miss-fn:' line without a 'miss:' line for interval 1/ ],
    [ 'second hot',              [ i => 8, 'hot: Ir 6 5 a.c' ], 8, qr/second 'hot:' line for interval 1/ ],
    [ 'second hot-fn',           [ i => 9, 'hot-fn: g' ], 9, qr/second 'hot-fn:' line for interval 1/ ],
    [ 'hot before any interval', [ i => 6, 'hot: Ir 6 5 a.c' ], 6, qr/'hot:' line before the first 'interval:' line/ ],
    [ 'hot event not Ir',        [ r => 7, 'hot: Dr 60 5 a.c' ], 7, qr/'hot:' event must be Ir/ ],
    [ 'hot without a file',      [ r => 7, 'hot: Ir 60' ], 7, qr/'hot:' needs EVENT COUNT LINE FILE/ ],
    [ 'hot bad line number',     [ r => 7, 'hot: Ir 60 x5 a.c' ], 7, qr/line number 'x5' is not a number/ ],
    [ 'hot bad count',           [ r => 7, 'hot: Ir 6.5 5 a.c' ], 7, qr/'hot:' count '6\.5' is not a number/ ],
    [ 'miss event not a miss',   [ r => 9, 'miss: Dr 2 6 a.c' ], 9, qr/'miss:' event 'Dr' is not a miss event/ ],
    [ 'miss event not in file',  [ r => 9, 'miss: D1mw 2 6 a.c' ], 9, qr/'miss:' event 'D1mw' is not a miss event of this file/ ],
    [ 'unknown key',             [ i => 12, 'phase: 3' ], 12, qr/unknown line kind 'phase:'/ ],
    [ 'garbage line',            [ i => 12, 'hello world' ], 12, qr/unrecognised line 'hello world'/ ],
    [ 'header after intervals',  [ i => 12, 'cmd: ./y' ], 12, qr/'cmd:' line after the first 'interval:' line/ ],
    [ 'second cmd',              [ i => 4, 'cmd: ./y' ], 4, qr/second 'cmd:' line/ ],
    [ 'second version',          [ i => 3, 'version: 1' ], 3, qr/second 'version:' line/ ],
    [ 'event twice',             [ r => 5, 'events: Ir Dr Dr' ], 5, qr/event 'Dr' listed twice/ ],
    [ 'events without Ir',       [ r => 5, 'events: Dr D1mr Dw' ], 5, qr/'events:' line without Ir/ ],
    [ 'events empty',            [ r => 5, 'events:' ], 5, qr/'events:' line without event names/ ],
    [ 'interval before events',  [ d => 5 ], 5, qr/'interval:' line before the 'events:' line/ ],
    [ 'no interval-size',        [ d => 4 ], 5, qr/'interval:' line before the 'interval-size:' line/ ],
    [ 'interval-size 0',         [ r => 4, 'interval-size: 0' ], 4, qr/'interval-size:' needs a positive number/ ],
    [ 'interval-size not a number', [ r => 4, 'interval-size: 1e6' ], 4, qr/'interval-size:' needs a positive number/ ],
    [ 'pid not a number',        [ i => 3, 'pid: abc' ], 3, qr/'pid:' needs a process id/ ],
    [ 'totals too short',        [ r => 15, 'totals: 200 80' ], 15, qr/'totals:' line: expected 3 counts/ ],
    [ 'totals not a number',     [ r => 15, 'totals: 200 80 x' ], 15, qr/count 'x' for D1mr is not a number/ ],
    # Beyond 64 bits (Perl would read them as floating point, or infinity).
    [ 'count past 64 bits',      [ r => 6, 'interval: 1 0 100 100 ' . ('9' x 400) . ' 2' ], 6,
      qr/interval 1: count for Dr '9{37}\.\.\.' is too large \(more than 18446744073709551615\)/ ],
    [ 'count 2^64',              [ r => 6, 'interval: 1 0 100 100 18446744073709551616 2' ], 6,
      qr/count for Dr '18446744073709551616' is too large/ ],
    [ 'end past 64 bits',        [ r => 12, 'interval: 2 100 000099999999999999999999 100 40 4' ], 12,
      qr/'interval:' end '000099999999999999999999' is too large/ ],
    [ 'hot count past 64 bits',  [ r => 7, 'hot: Ir 1' . ('0' x 30) . ' 5 a.c' ], 7,
      qr/'hot:' count '10{30}' is too large/ ],
    [ 'miss line past 64 bits',  [ r => 9, 'miss: D1mr 2 1' . ('0' x 25) . ' a.c' ], 9,
      qr/'miss:' line number '10{25}' is too large/ ],
    [ 'interval-size past 64 bits', [ r => 4, 'interval-size: 1' . ('0' x 20) ], 4,
      qr/'interval-size:' '10{20}' is too large/ ],
    [ 'totals past 64 bits',     [ r => 15, 'totals: 200 80 ' . ('7' x 21) ], 15,
      qr/'totals:' line: count for D1mr '7{21}' is too large/ ],
    [ 'line after totals',       [ i => 16, 'interval: 3 200 300 100 40 4' ], 16, qr/'interval:' line after the 'totals:' line/ ],
    [ 'no totals (truncated)',   [ d => 15 ], 14, qr/unexpected end of file: no 'totals:' line/ ],
    [ 'totals without intervals', [ dr => [ 6, 14 ] ], 6, qr/'totals:' line without any 'interval:' line/ ],
);

sub edit_lines {
    my ($lines, $op, $n, $arg) = @_;
    my @l = @$lines;
    if    ($op eq 'r') { $l[$n - 1] = $arg }
    elsif ($op eq 'i') { splice @l, $n - 1, 0, $arg }
    elsif ($op eq 'd') { splice @l, $n - 1, 1 }
    elsif ($op eq 'dr') { splice @l, $n->[0] - 1, $n->[1] - $n->[0] + 1 }
    return @l;
}

{
    my $r = run(write_file('base.iv', join("\n", @BASE) . "\n"));
    is($r->{status}, 0, 'the base of the malformed cases is valid');
    is($r->{err}, '', 'the base: nothing on stderr');

    for my $case (@BAD) {
        my ($name, $edit, $line, $pat) = @$case;
        my $file = 'bad.iv';
        write_file($file, join("\n", edit_lines(\@BASE, @$edit)) . "\n");
        $r = run($file);
        is($r->{status}, 1, "$name: exit 1");
        like($r->{err}, qr/\Acg_phases: \Q$file\E:$line: [^\n]*$pat[^\n]*\n\z/,
             "$name: one line naming $file:$line");
        is($r->{out}, '', "$name: nothing on stdout");
    }

    # Version 2: per-line records (line:, line-fn:) after an interval's
    # lines; the base is valid, each case breaks it in one place.
    my @BASE2 = (@BASE[0 .. 9],
                 'line: 40 2 2 5 a.c',                # 11
                 'line-fn: f',                        # 12
                 'line: 0 0 0 9 dir/b c.c',           # 13: a blank in the name
                 'line-fn: g h',                      # 14
                 @BASE[10 .. 14]);                    # 15-19
    $BASE2[1] = 'version: 2';
    $r = run(write_file('base2.iv', join("\n", @BASE2) . "\n"));
    is($r->{status}, 0, 'version 2 with line records: accepted') or diag($r->{err});
    for my $case (
        [ 'line without line-fn',   [ d => 12 ], 12, qr/'line:' line after a 'line:' line without its 'line-fn:'/ ],
        [ 'last line without fn',   [ d => 14 ], 15, qr/'line:' line of interval 1 without its 'line-fn:'/ ],
        [ 'line-fn alone',          [ i => 11, 'line-fn: f' ], 11, qr/'line-fn:' line without a 'line:' line/ ],
        [ 'line before intervals',  [ i => 6, 'line: 1 1 1 5 a.c' ], 6, qr/'line:' line before the first 'interval:' line/ ],
        [ 'line too few counts',    [ r => 11, 'line: 40 2' ], 11, qr/'line:' needs 3 counts, a line number and a file/ ],
        [ 'line bad count',         [ r => 11, 'line: 40 x 2 5 a.c' ], 11, qr/count 'x' for Dr is not a number/ ],
        [ 'line bad number',        [ r => 11, 'line: 40 2 2 x5 a.c' ], 11, qr/'line:' line number 'x5' is not a number/ ],
        [ 'lines over the interval', [ r => 13, 'line: 61 0 0 9 b.c' ], 13, qr/'line:' lines count more Ir \(101\) than interval 1 has \(100\)/ ],
    ) {
        my ($name, $edit, $line, $pat) = @$case;
        write_file('bad2.iv', join("\n", edit_lines(\@BASE2, @$edit)) . "\n");
        $r = run('bad2.iv');
        is($r->{status}, 1, "version 2, $name: exit 1");
        like($r->{err}, qr/\Acg_phases: bad2\.iv:$line: [^\n]*$pat[^\n]*\n\z/,
             "version 2, $name: one line naming bad2.iv:$line");
    }

    # Whole-file cases.
    for my $case ([ 'empty file', '', 1, qr/empty file: no 'version:' line/ ],
                  [ 'only comments', "# x\n\n# y\n", 3, qr/empty file: no 'version:' line/ ],
                  [ 'header only', "version: 1\ninterval-size: 10\nevents: Ir\n", 3,
                    qr/no 'interval:' line/ ],
                  [ 'CRLF line ends', join("\r\n", @BASE, ''), 0, undef ]) {
        my ($name, $text, $line, $pat) = @$case;
        $r = run(write_file('whole.iv', $text));
        if (!defined $pat) {
            is($r->{status}, 0, "$name: accepted");
            next;
        }
        is($r->{status}, 1, "$name: exit 1");
        like($r->{err}, qr/\Acg_phases: whole\.iv:$line: [^\n]*$pat[^\n]*\n\z/,
             "$name: one line naming whole.iv:$line");
    }

    # The largest 64-bit count is accepted.
    $r = run(write_file('max.iv', join("\n", edit_lines(\@BASE, r => 12,
        'interval: 2 100 18446744073709551615 100 40 4')) . "\n"));
    is($r->{status}, 0, '2^64 - 1 as an end: accepted');

    # Totals that do not add up: a warning, and the report.
    write_file('sum.iv', join("\n", edit_lines(\@BASE, r => 15, 'totals: 200 81 6')) . "\n");
    $r = run('sum.iv');
    is($r->{status}, 0, 'totals differing from the sums: exit 0');
    is($r->{err}, "cg_phases: warning: sum.iv:15: 'totals:' differs from the sum of the intervals (Dr 81 vs 80)\n",
       'totals differing from the sums: a one-line warning');
    like($r->{out}, qr/^-- Phases/m, 'totals differing from the sums: the report is printed');

    # Missing and unreadable files.
    $r = run('no-such-file');
    is($r->{status}, 1, 'missing file: exit 1');
    like($r->{err}, qr/\Acg_phases: cannot open no-such-file: [^\n]+\n\z/, 'missing file: one line');
    mkdir "$tmp/adir";
    $r = run('adir');
    is($r->{status}, 1, 'a directory: exit 1');
    like($r->{err}, qr/\Acg_phases: adir: is a directory[^\n]*\n\z/, 'a directory: one line');
}

#############################################################################
# Command line
#############################################################################

{
    for my $case ([ 'no arguments' ],
                  [ 'unknown option', '--foo', $main ],
                  [ 'unknown short option', '-x', $main ],
                  [ 'two files', $main, $main ],
                  [ 'bad --spike', '--spike=abc', $main ],
                  [ 'negative --spike', '--spike=-1', $main ],
                  [ 'empty --spike', '--spike=', $main ],
                  [ '--spike without value', $main, '--spike' ],
                  [ 'unknown event', '--event=D2mr', $main ],
                  [ 'empty --svg', '--svg=', $main ]) {
        my ($name, @args) = @$case;
        my $r = run(@args);
        is($r->{status}, 2, "usage: $name: exit 2");
        like($r->{err}, qr/\Acg_phases: [^\n]+ \(see 'cg_phases --help'\)\n\z/,
             "usage: $name: one line");
        is($r->{out}, '', "usage: $name: nothing on stdout");
    }

    # An event Cachegrind has but the file does not: status 1.
    my $r = run('--event=Bcm', $main);
    is($r->{status}, 1, 'event not in the file: exit 1');
    like($r->{err}, qr/\Acg_phases: event 'Bcm' is not in \Q$main\E \(its events: Ir I1mr[^\n]*\)\n\z/,
         'event not in the file: one line');

    # '--' ends the options.
    write_file('-odd.iv', $main_text);
    $r = run('--', '-odd.iv');
    is($r->{status}, 0, "'--' ends the options");

    $r = run('--help');
    is($r->{status}, 0, '--help: exit 0');
    like($r->{out}, qr/\Ausage: cg_phases \[options\] cachegrind\.intervals\.PID\n/, '--help: usage on stdout');
    like($r->{out}, qr/--event=EV.*--spike=K.*--svg=FILE/s, '--help: lists the options');
    is($r->{err}, '', '--help: nothing on stderr');
    is(run('-h')->{status}, 0, '-h: exit 0');

    $r = run('--version');
    is($r->{status}, 0, '--version: exit 0');
    like($r->{out}, qr/\Acg_phases \(cachegrind-ng\) \S+\n\z/, '--version: one line');
}

done_testing();
