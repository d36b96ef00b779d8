#!/usr/bin/perl
# cg_diff.t -- tests of cg_diff (built from cg_diff.in).
#
#   * golden cases (tests/golden/cg_diff/cases): our output must equal the
#     system Valgrind 3.19 cg_diff's (the committed .exp files, made by
#     tests/golden/regen-cg_diff.sh) once 3.19's hash-ordered blocks are
#     sorted and its empty (undefined) counts written as 0; our own output
#     must already be in that sorted order.  Where the system cg_annotate
#     is installed, it must accept our output, and its report on our output
#     must equal its report on the 3.19 output;
#   * --mod-filename / --mod-funcname: our interpretation of s/// and tr///
#     must rename exactly as Perl itself does;
#   * invalid --mod expressions, malformed inputs and bad command lines
#     must fail with a one-line message and a non-zero exit status.
#
# The script under test is $CG_DIFF if set, else cg_diff.in instantiated
# into a temporary directory.  Only core Perl modules are used.
use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(basename);
use File::Copy qw(copy);
use File::Path qw(make_path);
use File::Spec;
use File::Temp qw(tempdir);
use FindBin;
use Test::More;
use lib "$FindBin::Bin/lib";
use CgTest qw(run_captured slurp spew);

my $TOP       = abs_path(File::Spec->catdir($FindBin::Bin, '..'));
my $GOLDEN    = File::Spec->catdir($TOP, 'tests', 'golden', 'cg_diff');
my $TMP       = tempdir('cg_diff-t-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
my $ANNOTATE  = '/usr/bin/cg_annotate';
my $CG_DIFF   = $ENV{CG_DIFF} ? abs_path($ENV{CG_DIFF}) : instantiate_script();

# ---------------------------------------------------------------------------
# Helpers

# cg_diff.in with @PERL@ and @PACKAGE_VERSION@ filled in, as configure does.
sub instantiate_script {
    my $text = slurp(File::Spec->catfile($TOP, 'cg_diff.in'));
    $text =~ s/\@PERL\@/$^X/g;
    $text =~ s/\@PACKAGE_VERSION\@/0.0-test/g;
    my $path = File::Spec->catfile($TMP, 'cg_diff');
    spew($path, $text);
    chmod 0755, $path or die "chmod $path: $!";
    return $path;
}

sub cg_diff_in {
    my ($dir, @args) = @_;
    return run_captured($dir, $CG_DIFF, @args);
}

# Split a cg_diff output into (header lines, blocks, summary line); each
# block is [fl line, fn line, count line].
sub split_output {
    my ($text) = @_;
    my @lines = split /\n/, $text, -1;
    pop @lines if @lines && $lines[-1] eq '';
    my @head = splice(@lines, 0, 3);
    my $summary = pop @lines;
    my @blocks;
    while (@lines) {
        my @b = splice(@lines, 0, 3);
        push @blocks, \@b;
    }
    return (\@head, \@blocks, $summary);
}

# 3.19's output in our form: blocks sorted by (file, function) in byte
# order, empty (undefined) counts written as 0.
sub canonical {
    my ($text) = @_;
    my ($head, $blocks, $summary) = split_output($text);
    for my $b (@$blocks) {
        $b->[2] = join ' ', map { $_ eq '' ? '0' : $_ } split / /, $b->[2], -1;
    }
    my @sorted = sort { $a->[0] cmp $b->[0] or $a->[1] cmp $b->[1] } @$blocks;
    return join '', map { "$_\n" } @$head, (map { @$_ } @sorted), $summary;
}

# True if the blocks are in strictly increasing (file, function) order and
# well formed.
sub blocks_sorted {
    my ($text) = @_;
    my ($head, $blocks, $summary) = split_output($text);
    return 0 unless @$head == 3 && defined $summary
        && $summary =~ /\Asummary:/;
    my $prev;
    for my $b (@$blocks) {
        return 0 unless @$b == 3 && $b->[0] =~ /\Afl=/ && $b->[1] =~ /\Afn=/
            && $b->[2] =~ /\A0(?: \S+)*\z/;
        my $key = [substr($b->[0], 3), substr($b->[1], 3)];
        if ($prev) {
            my $c = $prev->[0] cmp $key->[0] || $prev->[1] cmp $key->[1];
            return 0 unless $c < 0;
        }
        $prev = $key;
    }
    return 1;
}

sub read_args {
    my ($path) = @_;
    my @args = split /\n/, slurp($path);
    return @args;
}

# Run the system cg_annotate on $text (saved as diff.out in a directory of
# its own holding the golden source file); returns the run result.
my $ann_count = 0;
sub annotate {
    my ($text) = @_;
    my $dir = File::Spec->catdir($TMP, 'ann' . ++$ann_count);
    make_path($dir);
    # The real profiles name the source ././work.c; give it an old mtime
    # so that cg_annotate's "more recent" warning never appears.
    my $src = File::Spec->catfile($dir, 'work.c');
    copy(File::Spec->catfile($GOLDEN, 'src', 'work.c'), $src) or die;
    utime(1_000_000_000, 1_000_000_000, $src);
    spew(File::Spec->catfile($dir, 'diff.out'), $text);
    return run_captured($dir, $ANNOTATE, 'diff.out');
}

# ---------------------------------------------------------------------------
# Golden cases

my $have_annotate = -x $ANNOTATE;
my @cases = map { basename($_, '.args') }
            sort glob(File::Spec->catfile($GOLDEN, 'cases', '*.args'));
ok(@cases >= 20, 'golden cases found (' . scalar(@cases) . ')');

for my $case (@cases) {
    my $base = File::Spec->catfile($GOLDEN, 'cases', $case);
    my @args = read_args("$base.args");
    my ($expected, $ref_text);
    if (-f "$base.own") {
        $expected = slurp("$base.own");
    }
    else {
        $ref_text = slurp("$base.exp");
        $expected = canonical($ref_text);
    }

    my $r = cg_diff_in($GOLDEN, @args);
    is($r->{status}, 0, "$case: exit status 0");
    ok(blocks_sorted($r->{out}), "$case: our blocks are in sorted order");
    is($r->{out}, $expected,
       "$case: output equals " . (defined $ref_text ? "3.19's, sorted" : 'the hand-written expectation'));

    next unless $have_annotate;
    if (-f "$base.no-annotate") {
        note("$case: no cg_annotate check: " . slurp("$base.no-annotate"));
        next;
    }
    my $ours = annotate($r->{out});
    is($ours->{status}, 0, "$case: system cg_annotate accepts our output")
        or diag($ours->{err});
    next unless defined $ref_text;
    # Compare with cg_annotate on 3.19's own output; where 3.19 left counts
    # empty (it would show '.' where we show 0), on its sorted form.
    my ($h, $blocks) = split_output($ref_text);
    my $has_empty = grep { $_->[2] =~ /  | \z/ } @$blocks;
    my $theirs = annotate($has_empty ? $expected : $ref_text);
    is($ours->{out}, $theirs->{out},
       "$case: cg_annotate reports the same on our output as on 3.19's");
}

diag("$ANNOTATE not installed: cg_annotate checks skipped")
    unless $have_annotate;

# ---------------------------------------------------------------------------
# --mod-filename / --mod-funcname against Perl's own s/// and tr///

# Function names, each with its own power-of-two count so that merged
# entries can be told apart.
my @NAMES = ('main', 'Main', 'MAIN', 'a.b', 'axb', 'foo_bar_baz', 'x(x)y',
             'aaa', 'a_b_c', '', 'f1', 'fa2', 'file/path/x.c', 'z',
             'mixed Case name', 'ab|cd', 'a{b}c', '__libc_start_main',
             "caf\xe9", 'a-b', 'ZZ top');

my $mod_input = do {
    my $t = "cmd: ./names\nevents: Ir\nfl=names.c\n";
    my $total = 0;
    for my $i (0 .. $#NAMES) {
        $t .= "fn=$NAMES[$i]\n" . ($i + 1) . ' ' . (2**$i) . "\n";
        $total += 2**$i;
    }
    $t . "summary: $total\n";
};
spew(File::Spec->catfile($TMP, 'names.out'), $mod_input);
spew(File::Spec->catfile($TMP, 'zero.out'),
     "cmd: ./zero\nevents: Ir\nsummary: 0\n");

# Expressions, each checked against Perl evaluating "$name =~ EXPR".
my @MOD_EXPRS = (
    's/a/X/', 's/a/X/g', 's/A/x/gi', 's/(\w)(\w)/$2$1/g',
    's/(\w+)_(\w+)/\2-\1/', 's/(\w+)_(\w+)/${2}0${1}/',
    's/^(.)/\u$1/', 's/(\w+)/\U$1/', 's/(?<first>\w)/<$+{first}>/',
    's/b/[$&]/g', 's/_/$`/', 's/_/$\'/', 's/(a)(b)?/$+/g', 's/x|y/Z/g',
    's|/|::|g', 's|a\|b|OR|g', 's.a\.b.ANY.', 's{(\w)}{<$1>}g',
    's{a{1,2}}{A}', 's(\(x\))(Y)', 's<a>/b/', 's {a} {b}', 's[a]{b}g',
    q{s'(a)'$1\\\\'}, 's!a!\!!', 's,a,\,,g', 's#a#+#g', 's/\Qa.b\E/Q/',
    's/a\.b/DOT/', 's/\x61/\x{42}/g', 's/a/\t/', 's/^/pre-/', 's/$/-post/',
    's/(?i)MAIN/m/', 's/ m a i n /M/x', 's/^.*$/all/s', 's/^m/M/mg',
    's/z*/-/g', 's/(a)|(b)/[$1|$2]/g', 's/a/\L\uXYZ/', 's/a/\Ux\Ly\Ez/',
    's/(\w+)/\Q$1.\E!/', 's/(\w)/\l\U$1x/g', 's/\w+/\u\L$&/g',
    's/a/\$\@/', 's/c/\101\o{102}\x43\cD/', 's/\d/#/g', 's/a/b/;',
    '  s/a/b/  ', 's;a;b;', 's;a;b;g;', 's/a/b/g ;', "s{(a)}'\$1'",
    'tr/a-z/A-Z/', 'tr/a-y/b-z/', 'y/abc/xyz/', 'tr/a-c//d', 'tr/a-z//cd',
    'tr/a-z/_/c', 'tr/a-z/_/cs', 'tr/a-zA-Z/ /cs', 'tr/aeiou/*/',
    'tr/a-f/AB/d', 'tr/abc//', 'tr/\-_/_-/', 'tr/\x61-\x63/\x41-\x43/',
    'tr{a-z}{A-Z}', 'tr[a-c] [x-z]', 'tr/a-z/A-C/s', 'tr/_//s',
    'tr/a-z/A-C/ds', 'tr/-a/+b/', 'tr/a-/b+/', 'tr/\\\\//d',
);

sub perl_rename {
    my ($expr, $name) = @_;
    my $x = $name;
    no warnings;
    ## no critic (ProhibitStringyEval) -- the expressions are constants above
    eval "\$x =~ $expr; 1" or die "perl rejects $expr: $@";
    return $x;
}

# name => count, from a cg_diff output with one event.
sub counts_by_function {
    my ($text) = @_;
    my (undef, $blocks) = split_output($text);
    my %c;
    for my $b (@$blocks) {
        my (undef, $n) = split / /, $b->[2];
        $c{ substr($b->[1], 3) } = $n;
    }
    return \%c;
}

for my $expr (@MOD_EXPRS) {
    my %want;
    for my $i (0 .. $#NAMES) {
        $want{ perl_rename($expr, $NAMES[$i]) } += 2**$i;
    }
    my $r = cg_diff_in($TMP, "--mod-funcname=$expr", 'zero.out', 'names.out');
    is($r->{status}, 0, "--mod-funcname='$expr': exit 0") or diag($r->{err});
    is_deeply(counts_by_function($r->{out}), \%want,
              "--mod-funcname='$expr' renames as Perl does");
}

# The option value may also be the next argument; it renames files too.
{
    my $r = cg_diff_in($TMP, '--mod-filename', 's/names/N/', '--mod-funcname',
                       's/^main$/entry/', 'zero.out', 'names.out');
    is($r->{status}, 0, 'space-separated option values accepted');
    like($r->{out}, qr/^fl=N\.c\nfn=entry\n0 1\n/m,
         'space-separated values: file and function renamed');
    unlike($r->{out}, qr/^fl=names/m, 'no file left unrenamed');
}

# ---------------------------------------------------------------------------
# Invalid --mod expressions: one line naming the option, exit non-zero.

my @BAD_EXPRS = (
    's/(/x/', 's/a/b/e', 's/a/b/ee', 's/a/b/q', 's/a/b/ junk', 's/a/b',
    's/a', 'tr/a/b/r', 'tr/z-a/x/', 's/$foo/x/', 's/a/$foo/', 's/a/@x/',
    'print 1', 'm/a/', 's/(?{ 1 })/x/', 's/(??{ "a" })/x/',
    's/a/\N{LATIN SMALL LETTER A}/', 's/a/b/r', 's/a/b/; system("true")',
    's/a/b/gx y', 'sxaxbx', 's/a/x$/', 's/\Ua/b/',
);
for my $expr (@BAD_EXPRS) {
    for my $opt ('--mod-filename', '--mod-funcname') {
        my $r = cg_diff_in($TMP, "$opt=$expr", 'zero.out', 'names.out');
        isnt($r->{status}, 0, "$opt='$expr' is rejected");
        like($r->{err}, qr/\Acg_diff: \Q$opt\E: invalid expression '\Q$expr\E': [^\n]+\n\z/,
             "$opt='$expr': one-line message naming the option");
        is($r->{out}, '', "$opt='$expr': nothing on stdout");
    }
}

# A renaming that would put a newline in a name is refused.
{
    my $r = cg_diff_in($TMP, '--mod-funcname=s/a/\n/', 'zero.out', 'names.out');
    isnt($r->{status}, 0, 'renaming to a name with a newline fails');
    like($r->{err}, qr/\Acg_diff: names\.out:4: --mod-funcname [^\n]*newline[^\n]*\n\z/,
         'newline renaming: message names the file and line');
}

# An empty expression means no renaming (and overrides an earlier one).
{
    my $r = cg_diff_in($TMP, '--mod-funcname=s/main/X/', '--mod-funcname=',
                       'zero.out', 'names.out');
    is($r->{status}, 0, 'empty --mod-funcname accepted');
    like($r->{out}, qr/^fn=main$/m, 'empty --mod-funcname: no renaming');
}

# ---------------------------------------------------------------------------
# Malformed inputs: "cg_diff: FILE:LINE: message", exit non-zero.

my $GOOD = "cmd: ./good\nevents: Ir Dr\nfl=g.c\nfn=f\n1 1 1\nsummary: 1 1\n";
spew(File::Spec->catfile($TMP, 'good.out'), $GOOD);

my @BAD_INPUTS = (
    # name, content, line, message pattern
    ['too-many-counts', "cmd: x\nevents: Ir Dr\nfl=a.c\nfn=f\n1 1 1\n2 1 2 3\nsummary: 1 1\n",
     6, qr/too many event counts/],
    ['too-many-totals', "cmd: x\nevents: Ir Dr\nfl=a.c\nfn=f\n1 1 1\nsummary: 1 1 1\n",
     6, qr/too many event counts/],
    ['summary-mismatch', "cmd: x\nevents: Ir Dr\nfl=a.c\nfn=f\n1 1 1\nsummary: 1\n",
     6, qr/summary line has fewer totals \(1\) than events \(2\)/],
    ['summary-empty', "cmd: x\nevents: Ir Dr\nsummary:\n",
     3, qr/summary line has fewer totals \(0\) than events \(2\)/],
    ['no-summary', "cmd: x\nevents: Ir Dr\nfl=a.c\nfn=f\n1 1 1\n# end\n",
     6, qr/missing final summary line/],
    ['count-before-fn', "cmd: x\nevents: Ir Dr\nfl=a.c\n1 1 1\nsummary: 1 1\n",
     4, qr/count line before any fn= line/],
    ['count-first', "desc: d\ncmd: x\nevents: Ir Dr\n7 1 1\nsummary: 1 1\n",
     4, qr/count line before any fn= line/],
    ['fn-before-fl', "cmd: x\nevents: Ir Dr\n\nfn=f\n1 1 1\nsummary: 1 1\n",
     4, qr/fn= line before any fl= line/],
    ['no-cmd', "desc: d\nevents: Ir Dr\nsummary: 1 1\n",
     2, qr/expected a 'cmd:' line/],
    ['no-events', "cmd: x\nfl=a.c\nsummary: 1 1\n",
     2, qr/expected an 'events:' line/],
    ['eof-after-cmd', "desc: d\ncmd: x\n",
     2, qr/end of file, expected an 'events:' line/],
    ['empty', '', 0, qr/end of file, expected a 'cmd:' line/],
);

for my $t (@BAD_INPUTS) {
    my ($name, $content, $line, $pat) = @$t;
    my $file = "$name.out";
    spew(File::Spec->catfile($TMP, $file), $content);
    for my $order ([$file, 'good.out'], ['good.out', $file]) {
        my $r = cg_diff_in($TMP, @$order);
        my $pos = $order->[0] eq $file ? 'first' : 'second';
        isnt($r->{status}, 0, "$name ($pos file): exit status non-zero");
        like($r->{err}, qr/\Acg_diff: \Q$file\E:$line: [^\n]*\n\z/,
             "$name ($pos file): one line naming $file:$line");
        like($r->{err}, $pat, "$name ($pos file): message");
        is($r->{out}, '', "$name ($pos file): nothing on stdout");
    }
}

# Events that differ between the two files.
{
    spew(File::Spec->catfile($TMP, 'other-events.out'),
         "desc: d\ncmd: y\nevents: Ir Dw\nsummary: 1 1\n");
    my $r = cg_diff_in($TMP, 'good.out', 'other-events.out');
    isnt($r->{status}, 0, 'events mismatch: exit status non-zero');
    like($r->{err}, qr/\Acg_diff: other-events\.out:3: events \(Ir Dw\) do not match those of good\.out \(Ir Dr\)\n\z/,
         'events mismatch: one line naming the second file and its events line');
    is($r->{out}, '', 'events mismatch: nothing on stdout');

    spew(File::Spec->catfile($TMP, 'fewer-events.out'),
         "cmd: y\nevents: Ir\nsummary: 1\n");
    $r = cg_diff_in($TMP, 'good.out', 'fewer-events.out');
    isnt($r->{status}, 0, 'different number of events: exit status non-zero');
    like($r->{err}, qr/\Acg_diff: fewer-events\.out:2: events /,
         'different number of events: names the file and line');
}

# Unreadable inputs.
{
    my $r = cg_diff_in($TMP, 'no-such-file.out', 'good.out');
    isnt($r->{status}, 0, 'missing file: exit status non-zero');
    like($r->{err}, qr/\Acg_diff: no-such-file\.out: cannot open for reading: [^\n]+\n\z/,
         'missing file: one line naming it');
    $r = cg_diff_in($TMP, 'good.out', '.');
    isnt($r->{status}, 0, 'directory: exit status non-zero');
    like($r->{err}, qr/\Acg_diff: \.: cannot open for reading: [^\n]+\n\z/,
         'directory: one line naming it');
}

# Malformed lines and non-numeric counts are warnings with file and line.
{
    my $r = cg_diff_in($GOLDEN, 'inputs/format.a.out', 'inputs/format.b.out');
    is($r->{status}, 0, 'malformed lines: still exit 0');
    my @want = map { "cg_diff: warning: inputs/format.a.out:$_: malformed line ignored\n" }
               16, 18, 19, 20, 21;
    # (Its Dw counts add up to 52, not the summary's 48.)
    push @want, "cg_diff: warning: inputs/format.a.out:24: summary: line (48)"
              . " disagrees with the sum of the cost lines (52) for event Dw\n";
    is($r->{err}, join('', @want), 'malformed lines: one warning each, with file and line');

    $r = cg_diff_in($GOLDEN, 'inputs/bignum.a.out', 'inputs/bignum.b.out');
    like($r->{err}, qr/^cg_diff: warning: inputs\/bignum\.a\.out:10: count 'x' is not a number$/m,
         'non-numeric count: warning with file and line');
}

# A very long non-numeric count is checked in linear time (it took
# seconds: the check's pattern backtracked).
{
    my $dir = File::Spec->catdir($TMP, 'longcount');
    mkdir $dir or die "mkdir $dir: $!";
    my $count = '1' . ('9' x 40000) . 'x';
    spew(File::Spec->catfile($dir, 'long.out'),
         "desc: d\ncmd: ./x\nevents: Ir\nfl=a.c\nfn=f\n1 $count\nsummary: 0\n");
    my $t0 = time;
    my $r = cg_diff_in($dir, 'long.out', 'long.out');
    my $secs = time - $t0;
    is($r->{status}, 0, 'long non-numeric count: exit 0');
    like($r->{err}, qr/\Acg_diff: warning: long\.out:6: count '19+x' is not a number\n/,
         'long non-numeric count: warning');
    cmp_ok($secs, '<', 3, "long non-numeric count: checked in $secs s");
}

# A summary line that disagrees with the count lines: one warning line
# naming the file, the summary line and the events; the output is 3.19's
# (which says nothing).
{
    my $dir = File::Spec->catdir($TMP, 'summary');
    mkdir $dir or die "mkdir $dir: $!";
    my $head = "desc: d\ncmd: ./x\nevents: Ir Dr\n";
    spew(File::Spec->catfile($dir, 'good.out'),
         $head . "fl=a.c\nfn=f\n1 5 6\nsummary: 5 6\n");
    spew(File::Spec->catfile($dir, 'off.out'),
         $head . "fl=a.c\nfn=f\n1 5 6\nfn=g\n2 1 .\nsummary: 9 7\n");
    my $r = cg_diff_in($dir, 'good.out', 'off.out');
    is($r->{status}, 0, 'summary disagrees: exit 0');
    is($r->{err}, "cg_diff: warning: off.out:9: summary: line (9 7) disagrees with"
       . " the sum of the cost lines (6 6) for events Ir Dr\n",
       'summary disagrees: one warning line naming file, line and events');
    if (-x '/usr/bin/cg_diff') {
        my $ref = run_captured($dir, '/usr/bin/cg_diff', 'good.out', 'off.out');
        is($r->{out}, canonical($ref->{out}),
           'summary disagrees: stdout identical to 3.19 (blocks in our order)');
        is($ref->{status}, 0, 'summary disagrees: 3.19 exits 0 too');
    }
    $r = cg_diff_in($dir, 'off.out', 'good.out');
    is($r->{err}, "cg_diff: warning: off.out:9: summary: line (9 7) disagrees with"
       . " the sum of the cost lines (6 6) for events Ir Dr\n",
       'summary disagrees in the first file: the same warning');
    $r = cg_diff_in($dir, 'good.out', 'good.out');
    is($r->{err}, '', 'summary agrees: no warning');
}

# ---------------------------------------------------------------------------
# Command line

{
    my $r = cg_diff_in($TMP, '--version');
    is($r->{status}, 0, '--version: exit 0');
    like($r->{out}, qr/\Acg_diff \(cachegrind-ng\) \S+\n\z/, '--version: text');

    $r = cg_diff_in($TMP, '-v');
    like($r->{out}, qr/\Acg_diff \(cachegrind-ng\) /, '-v: same as --version');

    for my $h ('-h', '--help') {
        $r = cg_diff_in($TMP, $h);
        isnt($r->{status}, 0, "$h: exit status non-zero (as in 3.19)");
        like($r->{out}, qr/\Ausage: cg_diff \[options\] FILE1 FILE2\n/, "$h: usage text");
        like($r->{out}, qr/--mod-filename=EXPR/, "$h: lists --mod-filename");
    }

    # One line each (3.19 printed its usage text).
    for my $bad ([['--bogus', 'good.out', 'good.out'], "unknown option '--bogus'"],
                 [['-x', 'good.out', 'good.out'], "unknown option '-x'"],
                 [['good.out'], 'expected two data files, got 1'],
                 [[], 'expected two data files, got 0'],
                 [['good.out', 'good.out', 'good.out'], 'expected two data files, got 3'],
                 [['-', 'good.out'], "unknown option '-'"],
                 [['good.out', 'good.out', '--mod-funcname'],
                  "option '--mod-funcname' needs a value"]) {
        my ($args, $msg) = @$bad;
        my $desc = "arguments (@$args)";
        $r = cg_diff_in($TMP, @$args);
        is($r->{status}, 2, "$desc: exit status 2");
        is($r->{err}, "cg_diff: $msg (see 'cg_diff --help')\n", "$desc: one line on stderr");
        is($r->{out}, '', "$desc: nothing on stdout");
    }

    # "--" ends the options, so a data file may start with '-'.
    copy(File::Spec->catfile($TMP, 'good.out'), File::Spec->catfile($TMP, '-dash.out'))
        or die;
    $r = cg_diff_in($TMP, '--', '-dash.out', 'good.out');
    is($r->{status}, 0, '-- ends the options');
    like($r->{out}, qr/\Adesc: Files compared:   -dash\.out; good\.out\n/, '--: file names kept');
}

# ---------------------------------------------------------------------------
# A larger input: many functions and lines, streamed.

{
    my $path = File::Spec->catfile($TMP, 'large.out');
    open(my $fh, '>', $path) or die;
    print {$fh} "cmd: ./large\nevents: Ir Dr Dw\n";
    my @sum = (0, 0, 0);
    for my $f (0 .. 1999) {
        print {$fh} 'fl=file' . ($f % 37) . ".c\nfn=func$f\n";
        for my $l (1 .. 50) {
            my @c = ($f + $l, $l, $f % 7);
            $sum[$_] += $c[$_] for 0 .. 2;
            print {$fh} "$l @c\n";
        }
    }
    print {$fh} "summary: @sum\n";
    close $fh or die;
    spew(File::Spec->catfile($TMP, 'zero3.out'),
         "cmd: z\nevents: Ir Dr Dw\nsummary: 0 0 0\n");
    my $r = cg_diff_in($TMP, 'zero3.out', 'large.out');
    is($r->{status}, 0, 'large input: exit 0');
    my (undef, $blocks, $summary) = split_output($r->{out});
    is(scalar @$blocks, 2000, 'large input: one block per function');
    is($summary, "summary: @sum", 'large input: summary');
    my ($b) = grep { $_->[1] eq 'fn=func1234' } @$blocks;
    is($b->[2], '0 ' . join(' ', 1234 * 50 + 1275, 1275, (1234 % 7) * 50),
       'large input: per-function totals');
    ok(blocks_sorted($r->{out}), 'large input: sorted');
}

done_testing();
