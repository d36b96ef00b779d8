#!/usr/bin/perl
# html.t -- cg_annotate --html: the self-contained report, in a real
# browser.
#
#   - ours profiles the bundled demo (samples/sample.c, -g -O0) and
#     cg_annotate --cycles --html writes one page (under a temporary name,
#     renamed): no link, script, style sheet, font or image from outside;
#     an unwritable path is one line and exit 2, leaving no file;
#   - Debian's Chromium, driven by playwright-core (npm) through
#     tests/html/check.js, offline: the page loads with no console or page
#     error and asks for nothing but itself; the function table has a row
#     per function of the profile, sorted by Ir, and each header click
#     sorts by its column; the filter box keeps the matching rows; the
#     source view's counts equal the profile's for every counted line of
#     sample.c; lines are heat-coloured; with --data=FILE (ours,
#     --data-profile=yes on tests/progs-data/list.c) the data table has a
#     row per object, the costliest (by D1mr, D1mw, Dr, Dw) first.
#   - with --intervals=FILE (ours, --interval-size on
#     tests/progs-phases/phases.c): cg_phases's chart inline, and a heat
#     map whose rows are the interval file's 30 costliest lines of the
#     chosen event (by their sums over the file's line: records), a cell
#     per interval holding that line's count there, for Ir and after
#     choosing D1mr; more than 400 intervals (a generated file) are
#     merged, k to a column, the sums kept; a bad interval file is one
#     line naming it, exit 1, no page.
#   Skipped, saying why, where Chromium, node or playwright-core cannot be
#   had.  CG_HTML_SHOT=path.png also saves screenshots (docs/ has them).
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use File::Spec;
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use Cwd qw(abs_path);
use JSON::PP;
use CgTest qw(:all);

require_tools();
simulate_caches();

my $ANN    = File::Spec->catfile(top_dir(), 'cg_annotate');
my $SAMPLE = File::Spec->catfile(top_dir(), 'samples', 'sample.c');
my $tmp    = abs_path(tempdir('cghtml-XXXXXXXX', TMPDIR => 1, CLEANUP => 1));
my $BIN    = File::Spec->catfile(build_root(), 'samples', 'sample-O0');

make_path(File::Spec->catdir(build_root(), 'samples'));
build_one($BIN, [$SAMPLE], 'gcc', '-g', '-O0', '-o', $BIN, $SAMPLE);
ok(-x $BIN, 'built the demo program');

my $res = run_ours([], [$BIN]);
my ($out) = grep { $_->{name} =~ /^cg\.out\.\d+\z/ } @{ $res->{files} };
ok($out, 'ours profiled it') or BAIL_OUT('no profile');
my $profile = "$tmp/sample.out";
spew($profile, $out->{content});

# The profile as the page must show it: each function (file current at
# its fn= line) and each (file, line)'s counts
my (%functions, %lines, @events);
{
    my ($file, $fn) = ('', undef);
    for my $l (split /\n/, $out->{content}) {
        if    ($l =~ /^events:\s+(.*)/) { @events = split ' ', $1 }
        elsif ($l =~ /^fl=(.*)/)        { $file = $1 }
        elsif ($l =~ /^fn=(.*)/)        { $fn = $1; $functions{"$file:$fn"} = 1 }
        elsif ($l =~ /^(\d+) (.*)/) {
            my @c = split ' ', $2;
            $lines{$file}{$1}[$_] += $c[$_] for 0 .. $#c;
        }
    }
}

my $page = "$tmp/report.html";
my $r = run_captured({ dir => $tmp }, $ANN, '--cycles', '--html=' . $page, $profile);
is($r->{status}, 0, 'cg_annotate --cycles --html: exit 0') or diag($r->{err});
ok(-s $page, 'the page was written');
opendir(my $dh, $tmp);
is_deeply([grep { /\.tmp/ } readdir $dh], [], 'no temporary file left');
my $html = slurp($page);
unlike($html, qr{(?:https?:|//[a-z])}i, 'no address of anything outside the page');
unlike($html, qr{<(?:link|img|iframe)\b|<script[^>]*\bsrc=|\@import|url\(}i,
       'no external script, style sheet, font or image');

$r = run_captured({ dir => $tmp }, $ANN, '--html=/nonexistent-dir/x.html', $profile);
ok($r->{status} == 2 && $r->{err} =~ m{^cg_annotate: /nonexistent-dir/x.html: cannot write} && ($r->{err} =~ tr/\n//) == 1,
   'an unwritable page: one line, exit 2') or diag($r->{err});
$r = run_captured({ dir => $tmp }, $ANN, '--html=x.html', '--json', $profile);
isnt($r->{status}, 0, '--html with --json: refused');

# --- In a browser --------------------------------------------------------
SKIP: {
    my $chromium = (grep { -x $_ } '/usr/bin/chromium', '/usr/bin/chromium-browser')[0];
    skip('no Chromium (apt-get install chromium)', 11) unless $chromium;
    skip('no node and npm (apt-get install nodejs npm)', 11) unless which('node') && which('npm');
    my $modules = File::Spec->catdir(build_root(), 'node');
    if (!-d File::Spec->catdir($modules, 'node_modules', 'playwright-core')) {
        make_path($modules);
        my $i = run_captured({ dir => $modules }, 'npm', 'install', '--no-audit', '--no-fund',
                             '--prefix', $modules, 'playwright-core@1');
        skip("playwright-core could not be installed from npm: " . (split /\n/, $i->{err})[-1], 11)
            unless -d File::Spec->catdir($modules, 'node_modules', 'playwright-core');
    }
    local $ENV{NODE_PATH} = File::Spec->catdir($modules, 'node_modules');
    my $shot = $ENV{CG_HTML_SHOT} ? abs_path('.') . "/$ENV{CG_HTML_SHOT}" : '-';
    $shot = $ENV{CG_HTML_SHOT} if $ENV{CG_HTML_SHOT} && $ENV{CG_HTML_SHOT} =~ m{^/};
    my $browser = run_captured({ dir => $tmp }, 'node', File::Spec->catfile(tests_dir(), 'html', 'check.js'),
                         $page, $chromium, $shot, 'sum_by');
    my $seen = eval { decode_json($browser->{out}) };
    ok($seen, 'the browser loaded the page') or do { diag($browser->{err}); skip('no browser result', 10) };
    is_deeply($seen->{errors}, [], 'no console or page error');
    is_deeply($seen->{requests}, [], 'nothing asked of the network');
    my @names = map { $_->[0] } @{ $seen->{rows} };
    is(scalar @names, scalar keys %functions, 'the function table: a row per function of the profile');
    is_deeply([sort @names], [sort keys %functions], 'the same functions');
    my @ir = map { $_->[1] } @{ $seen->{rows} };
    ok(!grep({ $ir[$_] > $ir[ $_ - 1 ] } 1 .. $#ir), 'first drawn by Ir, largest first');
    # A click sorts by the column, largest first; on the column already
    # sorted so, smallest first (the header says which)
    my @unsorted = grep {
        my ($c, $asc) = ($seen->{sortedBy}{$_}{column}, $seen->{sortedBy}{$_}{order} =~ /asc/);
        $seen->{sortedBy}{$_}{order} !~ /sorted/
            || grep { $asc ? $c->[$_] < $c->[ $_ - 1 ] : $c->[$_] > $c->[ $_ - 1 ] } 1 .. $#$c
    } keys %{ $seen->{sortedBy} };
    is(scalar keys %{ $seen->{sortedBy} }, @events + 1, 'every event column and Cycles clicked');
    is_deeply(\@unsorted, [], 'each click sorts by its column (Ir, sorted at first, turns ascending)');
    like($seen->{sortedBy}{Ir}{order}, qr/asc/, 'a click on the sorted column reverses it');
    my @kept = @{ $seen->{filtered} // [] };
    ok(@kept == 2 && !grep({ !/sum_by_/ } @kept), 'typing "sum_by" keeps the two sum_by_ functions')
        or diag("kept: @kept");
    my ($src_file) = grep { /sample\.c\z/ } keys %{ $seen->{sources} };
    my ($prof_file) = grep { /sample\.c\z/ } keys %lines;
    my @bad;
    for my $ln (sort { $a <=> $b } keys %{ $lines{$prof_file} // {} }) {
        my $want = join ' ', map { $_ // 0 } @{ $lines{$prof_file}{$ln} }[0 .. $#events];
        my $got = $seen->{sources}{$src_file}{$ln};
        push @bad, $ln unless $got && join(' ', @$got[0 .. $#events]) eq $want;
    }
    ok($src_file && keys %{ $lines{$prof_file} } > 5 && !@bad,
       'the source view: every counted line of sample.c as in the profile')
        or diag("lines differing: @bad");
    ok($seen->{heatCells} > 5, "heat-coloured lines ($seen->{heatCells})");
}

# --- With the data profile (--data=FILE) -----------------------------------
SKIP: {
    my $chromium = (grep { -x $_ } '/usr/bin/chromium', '/usr/bin/chromium-browser')[0];
    my $modules = File::Spec->catdir(build_root(), 'node', 'node_modules');
    skip('no browser (see above)', 4) unless $chromium && which('node') && -d "$modules/playwright-core";
    my $src = File::Spec->catfile(tests_dir(), 'progs-data', 'list.c');
    my $bin = File::Spec->catfile(build_root(), 'progs-data', 'list-O0');
    make_path(File::Spec->catdir(build_root(), 'progs-data'));
    build_one($bin, [$src], 'gcc', '-g', '-O0', '-o', $bin, $src);
    my $run = run_ours(['--data-profile=yes', "--data-out-file=$tmp/list.data",
                        "--cachegrind-out-file=$tmp/list.out"], [$bin]);
    ok(-s "$tmp/list.data" && -s "$tmp/list.out", 'ours profiled the list fixture with --data-profile=yes');
    my $r2 = run_captured({ dir => $tmp }, $ANN, "--html=$tmp/list.html", "--data=$tmp/list.data",
                          "$tmp/list.out");
    is($r2->{status}, 0, '--html with --data=FILE: exit 0') or diag($r2->{err});
    # The data file's objects by D1mr, D1mw, Dr, Dw (cg_annotate --data's order)
    my (@events, @objects, $o);
    for (split /\n/, slurp("$tmp/list.data")) {
        @events = split ' ', $1 if /^events: (.*)/;
        my ($k, @f) = split /\t/;
        if ($k eq 'object') { $o = { kind => $f[0], name => $f[1] }; push @objects, $o }
        elsif ($k eq 'counts') { $o->{counts} = [split / /, $f[0]] }
    }
    my %i; @i{@events} = 0 .. $#events;
    my @key = map { $i{$_} } qw(D1mr D1mw Dr Dw);
    @objects = sort { my $c = 0; for my $k (@key) { $c ||= $b->{counts}[$k] <=> $a->{counts}[$k] } $c } @objects;
    local $ENV{NODE_PATH} = $modules;
    my $browser = run_captured({ dir => $tmp }, 'node', File::Spec->catfile(tests_dir(), 'html', 'check.js'),
                         "$tmp/list.html", $chromium, '-');
    my $seen = eval { decode_json($browser->{out}) } // {};
    is(scalar @{ $seen->{data} // [] }, scalar @objects, 'the data table: a row per object of the data profile');
    is_deeply($seen->{data}[0], [$objects[0]{kind}, $objects[0]{name}, map { 0 + $_ } @{ $objects[0]{counts} }],
              "its first row is the data profile's costliest object, with its counts")
        or diag(explain($seen->{data}[0]));
}

# --- With a phase profile (--intervals=FILE) ---------------------------------

# The heat map the page must show for event `e`, from the interval file:
# per line (file, function, line) its counts per interval, the lines with
# the most over the run first (ties in file, function, line order), at
# most 30, and the intervals `k` to a column
sub expected_heat {
    my ($path, $event, $k) = @_;
    my (@events, $n_iv, %per, %total, $rec);
    $n_iv = 0;
    for (split /\n/, slurp($path)) {
        if (/^events: (.*)/) { @events = split ' ', $1 }
        elsif (/^interval: /) { $n_iv++ }
        elsif (/^line: (.*)/) { $rec = $1 }
        elsif (/^line-fn: (.*)/) {
            my $fn = $1;
            my @f = split / /, $rec, @events + 2;
            my ($file, $line) = (pop @f, pop @f);
            my $key = "$file:$line ($fn)";
            my ($e) = grep { $events[$_] eq $event } 0 .. $#events;
            $per{$key}[ int(($n_iv - 1) / $k) ] += $f[$e];
            $total{$key} += $f[$e];
            $per{"$key\0sort"} = [$file, $fn, $line];
        }
    }
    my @keys = grep { $total{$_} } grep { !/\0/ } keys %total;
    @keys = sort {
        my ($x, $y) = ($per{"$a\0sort"}, $per{"$b\0sort"});
        $total{$b} <=> $total{$a} || $x->[0] cmp $y->[0] || $x->[1] cmp $y->[1] || $x->[2] <=> $y->[2]
    } @keys;
    splice(@keys, 30) if @keys > 30;
    my $cols = int(($n_iv + $k - 1) / $k);
    return [map { my $key = $_; [$key, map { $per{$key}[$_] // 0 } 0 .. $cols - 1] } @keys];
}

{
    my $src = File::Spec->catfile(tests_dir(), 'progs-phases', 'phases.c');
    my $bin = File::Spec->catfile(build_root(), 'progs-phases', 'phases-O1');
    make_path(File::Spec->catdir(build_root(), 'progs-phases'));
    build_one($bin, [$src], 'gcc', '-g', '-O1', '-o', $bin, $src);
    my $run = run_ours(['--I1=32768,8,64', '--D1=32768,8,64', '--LL=1048576,16,64',
                        '--interval-size=100k', "--intervals-out-file=$tmp/phases.iv",
                        "--cachegrind-out-file=$tmp/phases.out"], [$bin]);
    ok(-s "$tmp/phases.iv" && -s "$tmp/phases.out", 'ours profiled the phases fixture with --interval-size=100k');
    my $n_iv = () = slurp("$tmp/phases.iv") =~ /^interval: /mg;
    my $r3 = run_captured({ dir => $tmp }, $ANN, "--html=$tmp/phases.html", "--intervals=$tmp/phases.iv",
                          "$tmp/phases.out");
    is($r3->{status}, 0, '--html with --intervals=FILE: exit 0') or diag($r3->{err});
    my $page3 = slurp("$tmp/phases.html") // '';
    like($page3, qr/<svg\b[^>]*>.*<\/svg>/s, "cg_phases's chart is in the page");
    unlike($page3, qr{(?:https?:|//[a-z])}i, '... and still no address of anything outside it');

    # Bad uses: one line, no page
    my $r = run_captured({ dir => $tmp }, $ANN, "--intervals=$tmp/phases.iv", "$tmp/phases.out");
    ok($r->{status} != 0 && $r->{err} =~ /--intervals=FILE adds a phase profile to --html's page/,
       '--intervals without --html: refused, saying why') or diag($r->{err});
    spew("$tmp/bad.iv", "version: 2\nevents: Ir\ninterval: 1 0 10 10\nline: 4 x.c\n");
    $r = run_captured({ dir => $tmp }, $ANN, "--html=$tmp/bad.html", "--intervals=$tmp/bad.iv", "$tmp/phases.out");
    ok($r->{status} == 1 && $r->{err} =~ /^cg_annotate: \Q$tmp\E\/bad\.iv:4: 'line:' needs 1 counts, a line number and a file$/
       && ($r->{err} =~ tr/\n//) == 1, 'a bad interval file: one line naming it and the line, exit 1')
        or diag($r->{err});
    ok(!-e "$tmp/bad.html", '... and no page');
    spew("$tmp/bad2.iv", "version: 1\nevents: Ir\ninterval: 1 0 10 x\n");
    $r = run_captured({ dir => $tmp }, $ANN, "--html=$tmp/bad2.html", "--intervals=$tmp/bad2.iv", "$tmp/phases.out");
    ok($r->{status} == 1 && $r->{err} =~ /bad2\.iv:3: .*needs 3 \+ 1 numbers/, 'a bad interval: named by its line')
        or diag($r->{err});

    # More than 400 intervals: k to a column, the counts summed (read
    # from the page's data, no browser needed)
    my @gen = ("version: 2", "events: Ir Dr D1mr", "interval-size: 10");
    for my $i (1 .. 1001) {
        push @gen, "interval: $i " . (10 * ($i - 1)) . " " . (10 * $i) . " 10 5 " . ($i % 3),
                   "line: 6 3 " . ($i % 3) . " 7 /src/a.c", "line-fn: main",
                   "line: 4 2 0 9 /src/b.c", "line-fn: g";
    }
    push @gen, "totals: 10010 5005 1002";
    spew("$tmp/many.iv", join("\n", @gen) . "\n");
    $r = run_captured({ dir => $tmp }, $ANN, "--html=$tmp/many.html", "--intervals=$tmp/many.iv", "$tmp/phases.out");
    is($r->{status}, 0, '1,001 intervals: exit 0') or diag($r->{err});
    my ($json) = (slurp("$tmp/many.html") // '') =~ m{<script type="application/json" id="profile">\n(.*?)\n</script>}s;
    my $heat = eval { decode_json($json =~ s{<\\/}{</}gr)->{heat} } // {};
    is($heat->{merged}, 3, '... 3 intervals to a column');
    is(scalar @{ $heat->{columns} // [] }, 334, '... 334 columns');
    my ($a_row) = grep { $heat->{labels}[ $_->[0] ][0] eq '/src/a.c' } @{ $heat->{rows}[0] // [] };
    is_deeply([@{ $a_row->[2] // [] }[0, 1, 333]], [18, 18, 12], '... each column the sum of its intervals (Ir of a.c:7)');
    is($a_row->[1], 6006, "... the line's total over the run");

    SKIP: {
        my $chromium = (grep { -x $_ } '/usr/bin/chromium', '/usr/bin/chromium-browser')[0];
        my $modules = File::Spec->catdir(build_root(), 'node', 'node_modules');
        skip('no browser (see above)', 6) unless $chromium && which('node') && -d "$modules/playwright-core";
        local $ENV{NODE_PATH} = $modules;
        # CG_HTML_SHOT=x.png: the phase section as x-phases.png
        my $shot = $ENV{CG_HTML_SHOT} ? "$tmp/shot.png" : '-';
        my $browser = run_captured({ dir => $tmp }, 'node', File::Spec->catfile(tests_dir(), 'html', 'check.js'),
                             "$tmp/phases.html", $chromium, $shot);
        if ($ENV{CG_HTML_SHOT} && -s "$tmp/shot-phases.png") {
            (my $to = $ENV{CG_HTML_SHOT}) =~ s/\.png\z/-phases.png/;
            spew($to, slurp("$tmp/shot-phases.png"));
        }
        my $seen = eval { decode_json($browser->{out}) } // {};
        is_deeply($seen->{errors}, [], 'the page with a phase profile: no console or page error')
            or diag($browser->{err});
        is($seen->{heat}{svg}, 1, 'the phase chart is drawn');
        is($seen->{heat}{columns}, $n_iv, "the heat map: a column per interval ($n_iv)");
        is_deeply($seen->{heat}{rows}, expected_heat("$tmp/phases.iv", 'Ir', 1),
                  'by Ir: the 30 costliest lines, each cell its count in that interval')
            or diag(explain($seen->{heat}{rows}[0]));
        ok($seen->{heat}{coloured} > 10, "cells coloured by count ($seen->{heat}{coloured})");
        is_deeply($seen->{heatOther}{rows}, expected_heat("$tmp/phases.iv", 'D1mr', 1),
                  'after choosing D1mr: its costliest lines and counts');
    }
}

done_testing();
