#!/usr/bin/perl
# cg_annotate --data and --data --json: the data profile's report.
#
# A real data file (ours, --data-profile=yes, on tests/progs-data/list.c)
# is read by cg_annotate: the table ranks the list's nodes first by D1mr,
# their fields show that `next` (offset 8) misses and `key` (offset 0)
# does not, and the JSON document holds exactly the file's counts.  Then
# bad input: every malformed file gives one line naming the file and the
# line, and a non-zero exit.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use File::Spec;
use File::Temp qw(tempdir);
use JSON::PP;
use CgTest qw(:all);

my $TOP  = top_dir();
my $ANN  = File::Spec->catfile($TOP, 'cg_annotate');
my $SRC  = File::Spec->catfile(tests_dir(), 'progs-data', 'list.c');
my $BIN  = File::Spec->catfile(build_root(), 'progs-data', 'list-O0');
my $tmp  = tempdir('cgannd-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);

plan skip_all => 'no cc' unless which('cc') || which('gcc');
build_one($BIN, [$SRC], (which('cc') ? 'cc' : 'gcc'), '-g', '-O0', '-o', $BIN, $SRC);
ok(-x $BIN, 'built the list fixture');

my $run = run_ours(['--data-profile=yes', "--data-out-file=$tmp/list.data"], [$BIN]);
is(status_str($run->{status}), 'exit 0', 'ours ran the fixture with --data-profile=yes');
my $data = "$tmp/list.data";
ok(-s $data, 'the data file was written');

sub annotate {
    my (@args) = @_;
    my $r = run_captured({ dir => $tmp }, $ANN, @args);
    return { stdout => $r->{out}, stderr => $r->{err}, status => $r->{status} };
}

# The raw file, for comparisons (format: cg_data.c, manual section 9).
my (%raw_totals, @raw_objects, @events);
{
    open(my $fh, '<', $data) or die "$data: $!";
    my $o;
    while (<$fh>) {
        chomp;
        @events = split ' ', $1 if /^events: (.*)/;
        my ($k, @f) = split /\t/;
        if ($k eq 'object') { $o = { kind => $f[0], name => $f[1], fields => {} }; push @raw_objects, $o }
        elsif ($k eq 'counts') { $o->{counts} = [split / /, $f[0]] }
        elsif ($k eq 'field')  { $o->{fields}{ $f[0] } = [split / /, $f[1]] }
        elsif ($k eq 'totals') { @raw_totals{@events} = split / /, $f[0] }
    }
}
my ($node) = grep { $_->{kind} eq 'heap' && $_->{name} =~ /^new_node / } @raw_objects;
ok($node, 'the file has the nodes\' object') or BAIL_OUT('no node object');

# --- The table ---------------------------------------------------------
my $t = annotate('--data', $data);
is($t->{status}, 0, 'cg_annotate --data: exit 0');
like($t->{stdout}, qr/^Sorted by:\s+D1mr\b/m, 'sorted by D1mr by default');
my @rows = $t->{stdout} =~ /^\s*[\d,]+(?:\s+[\d,]+){5}\s+\[(\d+)\] (\S+) (.*)$/mg;
is($rows[1], 'heap', 'the first object is a heap object');
like($rows[2], qr/^new_node \(\Q$SRC\E:\d+\)$/, 'the first object is the nodes\' site');
like($t->{stdout}, qr/^allocated at new_node \(\Q$SRC\E:\d+\)$/m, 'its allocation site');
like($t->{stdout}, qr/^\s+by main \(\Q$SRC\E:\d+\)$/m, 'its caller');
my ($fields) = $t->{stdout} =~ /fields \(offset within the element\):\n((?:.*\n)*?)\n/;
ok(defined $fields, 'the fields are listed');
my ($next_row) = ($fields // '') =~ /^(.*\+8)$/m;
my ($key_row)  = ($fields // '') =~ /^(.*\+0)$/m;
ok($next_row && $fields =~ /\A\Q$next_row\E/, 'field +8 (next) comes first');
my @next = map { s/,//gr } split ' ', $next_row // '';
my @key  = map { s/,//gr } split ' ', $key_row // '';
is("@next[0..5]", "@{ $node->{fields}{8} }", 'field +8: the file\'s counts');
ok($next[1] > 0, 'field +8 misses in D1');
ok(!$key_row || $key[1] == 0, 'field +0 (key) does not miss in D1');
like($t->{stdout}, qr/\d+ more objects? below the threshold/, 'the threshold hides small objects');
my $all = annotate('--data', '--threshold=0', $data);
my $n_all = () = $all->{stdout} =~ /^\s*[\d,]+(?:\s+[\d,]+){5}\s+\[\d+\] /mg;
is($n_all, scalar(grep { grep { $_ > 0 } @{ $_->{counts} } } @raw_objects),
   '--threshold=0 shows every object with an access')
    or diag("shown $n_all of " . scalar @raw_objects);
my $sorted = annotate('--data', '--sort=Dw', $data);
like($sorted->{stdout}, qr/^Sorted by:\s+Dw$/m, '--sort=Dw');
my ($first_dw) = $sorted->{stdout} =~ /^\s*((?:[\d,]+\s+){5}[\d,]+)\s+\[1\]/m;
my $max_dw = 0;
$_->{counts}[3] > $max_dw and $max_dw = $_->{counts}[3] for @raw_objects;
is((split ' ', $first_dw // '')[3] =~ s/,//gr, $max_dw, 'the first object has the most Dw');
my $bad_sort = annotate('--data', '--sort=Ir', $data);
isnt($bad_sort->{status}, 0, '--sort with an absent event fails');
like($bad_sort->{stderr}, qr/^cg_annotate: --sort: event `Ir' is not in the data profile/,
     'and says which');

# --- JSON ----------------------------------------------------------------
my $j = annotate('--data', '--json', $data);
is($j->{status}, 0, 'cg_annotate --data --json: exit 0');
my $doc = eval { decode_json($j->{stdout}) };
ok($doc, 'the output is one JSON document') or diag($@);
is_deeply($doc->{events}, \@events, 'events');
is_deeply($doc->{totals}, { map { $_ => 0 + $raw_totals{$_} } @events }, 'totals');
is(scalar @{ $doc->{objects} }, scalar @raw_objects, 'every object');
my ($jn) = grep { $_->{kind} eq 'heap' && $_->{name} eq $node->{name} } @{ $doc->{objects} };
is_deeply([map { $jn->{counts}{$_} } @events], [map { 0 + $_ } @{ $node->{counts} }],
          'the nodes\' counts');
is_deeply({ map { $_->{offset} => [map { $_ } @{ $_->{counts} }{@events}] } @{ $jn->{fields} } },
          { map { $_ => [map { 0 + $_ } @{ $node->{fields}{$_} }] } keys %{ $node->{fields} } },
          'the nodes\' fields');
is($jn->{site}[0]{fn}, 'new_node', 'site[0].fn');
is($jn->{site}[0]{file}, $SRC, 'site[0].file');
my $sum = 0;
$sum += $_->{counts}{Dr} for @{ $doc->{objects} };
is($sum, $doc->{totals}{Dr}, 'the objects\' Dr add up to the totals');
ok((grep { ref $_->{lines} eq 'ARRAY' && @{ $_->{lines} } } @{ $doc->{objects} }) == @{ $doc->{objects} },
   'every object has its lines');

# --- Bad input ---------------------------------------------------------------
my $good = do { local $/; open(my $fh, '<', $data) or die; <$fh> };
my @bad = (
    ['a count that is not a number', sub { $_[0] =~ s/^(counts\t)\d+/${1}x/mr }, qr/:\d+: expected 6 counts/],
    ['too few counts', sub { $_[0] =~ s/^(line\t[^\n]*\t)\d+ /$1/mr }, qr/:\d+: expected 6 counts/],
    ['an unknown kind', sub { $_[0] =~ s/^object\theap/object\theaps/mr }, qr/:\d+: unknown object kind/],
    ['an unknown record', sub { $_[0] =~ s/^blocks\t/blox\t/mr }, qr/:\d+: malformed `blox' record/],
    ['a record before any object', sub { $_[0] =~ s/^(element: .*\n)/${1}field\t0\t1 1 1 1 1 1\n/mr },
     qr/:\d+: `field' outside an object/],
    ['no totals (a cut file)', sub { $_[0] =~ s/^totals\t.*\n//mr }, qr/: incomplete: no `totals' line/],
    ['another version', sub { $_[0] =~ s/^version: 1/version: 2/mr }, qr/:\d+: unsupported version/],
    ['a main profile instead', sub { "desc: I1 cache: x\ncmd: x\nevents: Ir\nsummary: 1\n" },
     qr/:1: not a data profile/],
);
for my $b (@bad) {
    my ($what, $edit, $re) = @$b;
    my $path = "$tmp/bad.data";
    open(my $fh, '>', $path) or die;
    print {$fh} $edit->($good);
    close $fh;
    my $r = annotate('--data', $path);
    isnt($r->{status}, 0, "$what: non-zero exit");
    like($r->{stderr}, qr/\Acg_annotate: \Q$path\E$re[^\n]*\n\z/, "$what: one line naming the file")
        or diag($r->{stderr});
    is($r->{stdout}, '', "$what: nothing on stdout");
}
my $missing = annotate('--data', "$tmp/nope");
isnt($missing->{status}, 0, 'a missing file: non-zero exit');
like($missing->{stderr}, qr/^cg_annotate: cannot open \Q$tmp\E\/nope/, 'and says so');
my $json_alone = annotate('--json', $data);
isnt($json_alone->{status}, 0, '--json without --data is an error');
my $two = annotate('--data', $data, $data);
isnt($two->{status}, 0, '--data with two files is an error');

done_testing();
