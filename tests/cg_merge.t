#!/usr/bin/perl
# cg_merge.t -- tests for our cg_merge (cg_merge.c in the repo top).
#
#   * golden: every case in tests/golden/cg_merge/cases must give exactly
#     the committed stdout, exit status and -o file (produced by the
#     system cg_merge 3.19 through tests/golden/regen-cg_merge.sh), and,
#     when /usr/bin/cg_merge exists, exactly what a fresh run of it gives;
#     stderr too where 3.19 succeeds or prints its help.  Where it fails,
#     ours prints one line instead of 3.19's several (%GOLDEN_ERRORS);
#   * malformed input: one case per error condition of the 3.19 reader,
#     plus missing, unreadable and truncated files and mismatched events:
#     stderr is exactly one line naming the file and line, the exit
#     status and stdout are those of 3.19, and no -o file is left behind;
#   * the output file: failures to create or write it, atomic replacement;
#   * scale: 1,000 generated inputs merged, checked against a plain Perl
#     sum; the time and peak memory are reported with diag, not asserted;
#   * round trip: the system cg_annotate accepts our merged output.
#
# Every run happens in an empty temporary directory with copies of its
# inputs and argv[0] set to "cg_merge", so messages carry no machine
# specific paths.  Only core Perl modules are used.

use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Spec;
use File::Temp qw(tempdir);
use Test::More;
use FindBin;
use lib "$FindBin::Bin/lib";
use CgTest qw(run_captured slurp spew);
use Time::HiRes qw(time);

my $TESTS   = dirname(abs_path(__FILE__));
my $TOP     = dirname($TESTS);
my $GOLDEN  = File::Spec->catdir($TESTS, 'golden', 'cg_merge');
my $INPUTS  = File::Spec->catdir($GOLDEN, 'inputs');
my $EXPECT  = File::Spec->catdir($GOLDEN, 'expected');
my $ORACLE  = '/usr/bin/cg_merge';
my $ANNOTATE = '/usr/bin/cg_annotate';
my $TMP     = tempdir('cg_merge-t-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $OUT     = 'merged.cgout';      # the -o name every case uses

my $have_oracle = -x $ORACLE;
my $ours = find_or_build_ours();

# ---------------------------------------------------------------------------
# Helpers

# Our binary: $TOP/cg_merge, or (when missing or older than its source)
# a fresh build of cg_merge.c in a temporary directory.
sub find_or_build_ours {
    my $bin = File::Spec->catfile($TOP, 'cg_merge');
    my $src = File::Spec->catfile($TOP, 'cg_merge.c');
    return $bin if -x $bin && !(-e $src && -M $src < -M $bin);
    my $cc = defined $ENV{CC} && $ENV{CC} ne '' ? $ENV{CC} : 'cc';
    my $out = File::Spec->catfile($TMP, 'cg_merge');
    my @cmd = ($cc, qw(-std=c99 -O2 -Wall -Wextra -o), $out, $src);
    diag("building @cmd");
    system(@cmd) == 0 or BAIL_OUT("cannot build cg_merge from $src");
    return $out;
}

my $dir_serial = 0;

# A new empty directory with copies of the named golden inputs.
sub fresh_dir {
    my (@args) = @_;
    my $dir = File::Spec->catdir($TMP, 'run' . ++$dir_serial);
    mkdir $dir or die "mkdir $dir: $!\n";
    for my $arg (@args) {
        my $src = File::Spec->catfile($INPUTS, $arg);
        next unless $arg =~ /\A[\w.-]+\z/ && -f $src;
        copy($src, File::Spec->catfile($dir, $arg)) or die "copy $src: $!\n";
    }
    return $dir;
}

# Run $exe (with argv[0] "cg_merge") in $dir; capture everything.
sub run_tool {
    my ($exe, $dir, @args) = @_;
    my $t0 = time;
    my $r = run_captured({ dir => $dir, argv0 => 'cg_merge' }, $exe, @args);
    return { %$r, elapsed => time - $t0,
             outfile => -e "$dir/$OUT" ? slurp("$dir/$OUT") : undef,
             files   => [ list_dir($dir) ] };
}

sub list_dir {
    my ($dir) = @_;
    opendir(my $dh, $dir) or die "opendir $dir: $!\n";
    my @names = sort grep { $_ ne '.' && $_ ne '..' } readdir $dh;
    closedir $dh;
    return @names;
}

# Compare two run results field by field (stderr unless $no_stderr).
sub same_results {
    my ($got, $want, $label, $no_stderr) = @_;
    is($got->{status}, $want->{status}, "$label: exit status");
    ok($got->{out} eq $want->{out}, "$label: stdout identical")
        or diag(first_difference($got->{out}, $want->{out}));
    ok($got->{err} eq $want->{err}, "$label: stderr identical")
        or diag("got:\n$got->{err}want:\n$want->{err}")
        unless $no_stderr;
    is(defined $got->{outfile}, defined $want->{outfile},
       "$label: -o file existence");
    if (defined $got->{outfile} && defined $want->{outfile}) {
        ok($got->{outfile} eq $want->{outfile}, "$label: -o file identical")
            or diag(first_difference($got->{outfile}, $want->{outfile}));
    }
    return;
}

sub first_difference {
    my ($a, $b) = @_;
    my @x = split /\n/, $a, -1;
    my @y = split /\n/, $b, -1;
    for my $i (0 .. ($#x > $#y ? $#x : $#y)) {
        my ($l, $r) = map { defined $_ ? $_ : '<none>' } $x[$i], $y[$i];
        next if $l eq $r;
        return sprintf("first difference at line %d:\n got: %s\nwant: %s",
                       $i + 1, $l, $r);
    }
    return 'no line differs (lengths differ)';
}

# ---------------------------------------------------------------------------
# Golden cases

sub read_cases {
    my @cases;
    open(my $fh, '<', File::Spec->catfile($GOLDEN, 'cases'))
        or die "cannot read cases: $!\n";
    while (my $line = <$fh>) {
        next if $line =~ /^\s*(#|$)/;
        my ($name, @args) = split ' ', $line;
        push @cases, [ $name, @args ];
    }
    close $fh;
    return @cases;
}

sub expected_result {
    my ($name) = @_;
    my $base = File::Spec->catfile($EXPECT, $name);
    my $status = slurp("$base.status");
    $status =~ s/\s+\z//;
    return {
        status  => $status,
        out     => slurp("$base.stdout"),
        err     => slurp("$base.stderr"),
        outfile => -e "$base.outfile" ? slurp("$base.outfile") : undef,
    };
}

# Our one-line message for each golden case where 3.19 fails (its own
# messages take two to five lines).
my %GOLDEN_ERRORS = (
    'err-events-mismatch' => "cg_merge: sort-branch.cgout:5: 'events: ' line"
        . " differs from that of sum.cgout",
    'err-events-mismatch-o' => "cg_merge: edge-names.cgout:4: 'events: ' line"
        . " differs from that of sum.cgout",
    'err-events-trailing' => "cg_merge: edge-crlf.cgout:3: 'events: ' line"
        . " differs from that of edge-unterminated.cgout",
    'err-missing-input' =>
        'cg_merge: missing.cgout: cannot open: No such file or directory',
    'err-missing-input-o' =>
        'cg_merge: missing.cgout: cannot open: No such file or directory',
    'usage-none' => 'cg_merge: no input files'
        . ' (usage: cg_merge [-o outfile] [files-to-merge])',
    'usage-o-last' => 'cg_merge: option -o: no output file name after it'
        . ' (usage: cg_merge [-o outfile] [files-to-merge])',
    'second-o-is-input' =>
        'cg_merge: -o: cannot open: No such file or directory',
);

sub test_golden {
    my @cases = read_cases();
    ok(@cases >= 20, scalar(@cases) . ' golden cases');
    for my $case (@cases) {
        my ($name, @args) = @$case;
        my $one_line = $GOLDEN_ERRORS{$name};
        my $got = run_tool($ours, fresh_dir(@args), @args);
        my $want = expected_result($name);
        same_results($got, $want, "golden $name", defined $one_line);
        if (defined $one_line) {
            isnt($want->{status}, 0, "golden $name: 3.19 fails");
            is($got->{err}, "$one_line\n", "golden $name: one-line error");
        }
        next unless $have_oracle;
        my $ref = run_tool($ORACLE, fresh_dir(@args), @args);
        same_results($got, $ref, "golden $name vs $ORACLE", defined $one_line);
    }
    is_deeply([ grep { my $n = $_; !grep { $_->[0] eq $n } @cases }
                sort keys %GOLDEN_ERRORS ], [],
              'every one-line error names a golden case');
    return;
}

# ---------------------------------------------------------------------------
# Malformed input

my $HEAD = "desc: d\ncmd: c\nevents: A B\n";
my $GOOD = "${HEAD}fl=f.c\nfn=f\n1 1 2\nsummary: 1 2\n";

# [ label, content, line (0: none), our message ]
my $NOT_BODY = "unexpected line: not fl=, fn=, a count line or the "
             . "'summary: ' line";
my $NOT_DESC = "the first line is not a 'desc: ' line";
my $NOT_NUMBERS = 'holds something other than unsigned decimal numbers';
my @MALFORMED = (
    [ 'empty file', '', 0,
      "empty file (a profile starts with a 'desc: ' line)" ],
    [ 'no desc line', "cmd: c\nevents: A B\nsummary: 0 0\n", 1, $NOT_DESC ],
    [ 'desc with a tab', "desc:\td\ncmd: c\nevents: A B\nsummary: 0 0\n",
      1, $NOT_DESC ],
    [ 'blank first line', "\n$HEAD", 1, $NOT_DESC ],
    [ 'eof after desc', "desc: d\n", 1,
      "the file ends before its 'cmd: ' line" ],
    [ 'no cmd line', "desc: d\ncmd:c\nevents: A B\n", 2,
      "expected a 'cmd: ' line after the 'desc: ' lines" ],
    [ 'eof before events', "desc: d\ncmd: c\n", 2,
      "the file ends before its 'events: ' line" ],
    [ 'no events line', "desc: d\ncmd: c\nevent: A B\n", 3,
      "expected an 'events: ' line after the 'cmd: ' line" ],
    [ 'events without space', "desc: d\ncmd: c\nevents:A B\n", 3,
      "expected an 'events: ' line after the 'cmd: ' line" ],
    [ 'no event names', "desc: d\ncmd: c\nevents: 1 2\n"
      . "fl=f.c\nfn=f\n1 1 2\nsummary: 1 2\n", 3,
      "'events: ' line names no events" ],
    [ 'tab separated events count as one', "desc: d\ncmd: c\nevents: A\tB\n"
      . "fl=f.c\nfn=f\n1 1 2\nsummary: 1 2\n", 6,
      'count line has 2 counts for 1 event' ],
    [ 'blank body line', "${HEAD}fl=f.c\n\nfn=f\n", 5, $NOT_BODY ],
    [ 'comment line', "${HEAD}# a comment\n", 4, $NOT_BODY ],
    [ 'negative line number', "${HEAD}fl=f.c\nfn=f\n-1 1 2\n", 6, $NOT_BODY ],
    [ 'fi= line', "${HEAD}fl=f.c\nfn=f\nfi=g.h\n1 1 2\n", 6, $NOT_BODY ],
    [ 'fe= line', "${HEAD}fl=f.c\nfn=f\nfe=g.h\n1 1 2\n", 6, $NOT_BODY ],
    [ 'indented count line', "${HEAD}fl=f.c\nfn=f\n 1 1 2\n", 6, $NOT_BODY ],
    [ 'summary without space', "${HEAD}fl=f.c\nfn=f\n1 1 2\nsummary:1 2\n",
      7, $NOT_BODY ],
    [ 'late desc line', "${HEAD}desc: again\n", 4, $NOT_BODY ],
    [ 'eof before summary', "${HEAD}fl=f.c\nfn=f\n1 1 2\n", 6,
      "the file ends before its 'summary: ' line (truncated?)" ],
    [ 'letters in counts', "${HEAD}fl=f.c\nfn=f\n1 1 x\n", 6,
      "count line $NOT_NUMBERS" ],
    [ 'dot in counts', "${HEAD}fl=f.c\nfn=f\n1 1 .\n", 6,
      "count line $NOT_NUMBERS" ],
    [ 'minus in counts', "${HEAD}fl=f.c\nfn=f\n1 1 -2\n", 6,
      "count line $NOT_NUMBERS" ],
    [ 'digits then letters', "${HEAD}fl=f.c\nfn=f\n1 1 2x\n", 6,
      "count line $NOT_NUMBERS" ],
    [ 'line number only', "${HEAD}fl=f.c\nfn=f\n12\n", 6,
      'count line has 0 counts for 2 events' ],
    [ 'missing trailing count', "${HEAD}fl=f.c\nfn=f\n12 1\n", 6,
      'count line has 1 count for 2 events' ],
    [ 'one count too many', "${HEAD}fl=f.c\nfn=f\n12 1 2 3\n", 6,
      'count line has 3 counts for 2 events' ],
    [ 'line after summary', "${GOOD}fl=g.c\n", 8,
      "a line after the 'summary: ' line, which must be the last" ],
    [ 'blank line after summary', "$GOOD\n", 8,
      "a line after the 'summary: ' line, which must be the last" ],
    [ 'summary without counts', "${HEAD}fl=f.c\nfn=f\n1 1 2\nsummary: \n", 7,
      'summary line has 0 counts for 2 events' ],
    [ 'summary with too few counts', "${HEAD}fl=f.c\nfn=f\n1 1 2\nsummary: 1\n",
      7, 'summary line has 1 count for 2 events' ],
    [ 'summary with too many counts',
      "${HEAD}fl=f.c\nfn=f\n1 1 2\nsummary: 1 2 3\n", 7,
      'summary line has 3 counts for 2 events' ],
    [ 'summary differs from totals',
      "${HEAD}fl=f.c\nfn=f\n1 1 2\n2 1 1\nsummary: 2 2\n", 8,
      'summary line disagrees with the sum of the count lines'
      . ' (event 2: 2 stated, 3 summed)' ],
    [ 'garbage in summary', "${HEAD}fl=f.c\nfn=f\n1 1 2\nsummary: 1 z\n", 7,
      "summary line $NOT_NUMBERS" ],
    [ 'NUL byte ends a line', "${HEAD}fl=f.c\nfn=f\n1 1 2\0garbage\n"
      . "summary: 1 2\n", 0, undef ],
);

# The 3.19 tool crashes on these; we don't compare with it.
my %ORACLE_CRASHES = ('eof after desc' => 1);

# The one line "cg_merge: FILE:LINE: MESSAGE" (FILE: MESSAGE for line 0).
sub one_line_error {
    my ($file, $line, $msg) = @_;
    return $line ? "cg_merge: $file:$line: $msg\n" : "cg_merge: $file: $msg\n";
}

sub check_failure {
    my ($r, $file, $line, $msg, $label) = @_;
    isnt($r->{status}, 0, "$label: non-zero exit");
    is($r->{signal}, 0, "$label: no crash");
    is($r->{err}, one_line_error($file, $line, $msg),
       "$label: one line naming $file" . ($line ? " line $line" : ''));
    is($r->{outfile}, undef, "$label: no -o file");
    my @stray = grep { /cg_merge-/ } @{ $r->{files} };
    is("@stray", '', "$label: no temporary file left");
    return;
}

# Run one bad file alone, and after a good one; compare the exit status,
# stdout and -o file with 3.19's (its stderr has several lines).  A case
# without a message is valid input: everything must be identical.
sub test_malformed_case {
    my ($label, $content, $line, $msg) = @_;
    for my $after_good (0, 1) {
        my @args = ('-o', $OUT, ($after_good ? 'good.cgout' : ()), 'bad.cgout');
        my @results;
        for my $exe ($ours, $have_oracle ? $ORACLE : ()) {
            next if $exe eq $ORACLE && $ORACLE_CRASHES{$label};
            my $dir = fresh_dir();
            spew("$dir/good.cgout", $GOOD);
            spew("$dir/bad.cgout", $content);
            push @results, run_tool($exe, $dir, @args);
        }
        my $l = $after_good ? "$label (second input)" : $label;
        if (defined $msg) {
            check_failure($results[0], 'bad.cgout', $line, $msg, $l);
        } else {
            is($results[0]{status}, 0, "$l: accepted");
        }
        same_results($results[0], $results[1], "$l vs $ORACLE", defined $msg)
            if @results == 2;
    }
    return;
}

# A real profile cut in the middle of a count line.
sub truncated_profile {
    my $text = slurp(File::Spec->catfile($INPUTS, 'sum.cgout'));
    my $middle = int(length($text) / 2);
    pos($text) = $middle;
    $text =~ /\n(\d+ \d+ \d+)/g or die "no count line in sum.cgout\n";
    my $cut = pos($text);
    my $cut_text = substr($text, 0, $cut);
    my $lines = ($cut_text =~ tr/\n//) + 1;
    return [ 'truncated mid-line', $cut_text, $lines,
             'count line has 2 counts for 9 events' ];
}

# A real profile cut after a complete line: no summary.
sub truncated_at_line {
    my $text = slurp(File::Spec->catfile($INPUTS, 'sum.cgout'));
    my $cut = index($text, "\n", int(length($text) / 2)) + 1;
    my $cut_text = substr($text, 0, $cut);
    my $lines = ($cut_text =~ tr/\n//);
    return [ 'truncated at a line end', $cut_text, $lines,
             "the file ends before its 'summary: ' line (truncated?)" ];
}

sub test_malformed {
    test_malformed_case(@$_)
        for @MALFORMED, truncated_profile(), truncated_at_line();
    return;
}

sub test_missing_and_unreadable {
    my $dir = fresh_dir();
    spew("$dir/good.cgout", $GOOD);
    my $r = run_tool($ours, $dir, '-o', $OUT, 'good.cgout', 'nothere.cgout');
    check_failure($r, 'nothere.cgout', 0,
                  'cannot open: No such file or directory', 'missing file');

    mkdir "$dir/adir" or die "mkdir: $!\n";
    $r = run_tool($ours, $dir, '-o', $OUT, 'good.cgout', 'adir');
    check_failure($r, 'adir', 0, 'read error: Is a directory',
                  'directory as input');
    SKIP: {
        skip 'running as root: chmod 000 does not stop reading', 5
            if $> == 0;
        spew("$dir/locked.cgout", $GOOD);
        chmod 0000, "$dir/locked.cgout";
        $r = run_tool($ours, $dir, '-o', $OUT, 'good.cgout', 'locked.cgout');
        check_failure($r, 'locked.cgout', 0, 'cannot open: Permission denied',
                      'unreadable file');
    }
    return;
}

sub test_events_mismatch {
    my $dir = fresh_dir();
    spew("$dir/good.cgout", $GOOD);
    (my $other = $GOOD) =~ s/^events: A B$/events: A B /m;
    spew("$dir/other.cgout", $other);
    my $r = run_tool($ours, $dir, '-o', $OUT, 'good.cgout', 'other.cgout');
    check_failure($r, 'other.cgout', 3, "'events: ' line differs from that "
                  . 'of good.cgout', 'events differ by a trailing space');
    return;
}

# ---------------------------------------------------------------------------
# The output file

sub test_output_errors {
    my $dir = fresh_dir('sum.cgout');
    my $r = run_tool($ours, $dir, '-o', 'no/such/dir/out', 'sum.cgout');
    isnt($r->{status}, 0, 'uncreatable output: non-zero exit');
    is($r->{err}, 'cg_merge: no/such/dir/out: cannot create output file:'
       . " No such file or directory\n", 'uncreatable output: one line');

    SKIP: {
        skip '/dev/full not available', 2 unless -c '/dev/full';
        $r = run_tool($ours, $dir, '-o', '/dev/full', 'sum.cgout');
        isnt($r->{status}, 0, 'unwritable output: non-zero exit');
        is($r->{err}, 'cg_merge: /dev/full: error writing output file:'
           . " No space left on device\n", 'unwritable output: one line');
    }
    test_write_failure_keeps_old_file();
    return;
}

# A write that fails half way (file size limit) leaves the old file alone.
sub test_write_failure_keeps_old_file {
    my $dir = fresh_dir('true.cgout');
    spew("$dir/$OUT", "old contents\n");
    my $r;
    {
        local $SIG{XFSZ} = 'IGNORE';
        $r = run_tool('/bin/sh', $dir, '-c', 'ulimit -f 4 && exec "$@"',
                      'sh', $ours, '-o', $OUT, 'true.cgout', 'true.cgout');
    }
    isnt($r->{status}, 0, 'write failure: non-zero exit');
    # (argv[0] is the path here: sh runs the program.)
    like($r->{err},
         qr{\A\S*cg_merge: \Q$OUT\E: error writing output file: File too large\n\z},
         'write failure: one line');
    is($r->{outfile}, "old contents\n", 'write failure: old file untouched');
    is(join(' ', grep { /cg_merge-/ } @{ $r->{files} }), '',
       'write failure: temporary file removed');
    return;
}

sub test_output_replacement {
    my $dir = fresh_dir('sum.cgout');
    spew("$dir/target.cgout", "old\n");
    chmod 0640, "$dir/target.cgout";
    symlink('target.cgout', "$dir/$OUT") or die "symlink: $!\n";
    my $r = run_tool($ours, $dir, '-o', $OUT, 'sum.cgout');
    is($r->{status}, 0, 'replace through symlink: exit 0');
    ok(-l "$dir/$OUT", 'replace through symlink: link kept');
    my $want = run_tool($ours, $dir, 'sum.cgout')->{out};
    ok(slurp("$dir/target.cgout") eq $want, 'replace through symlink: target written');
    is((stat "$dir/target.cgout")[2] & 07777, 0640, 'replace: mode kept');
    is(join(' ', grep { /cg_merge-/ } list_dir($dir)), '',
       'replace: no temporary file left');

    $r = run_tool($ours, $dir, '-o', 'sum.cgout', 'sum.cgout', 'sum.cgout');
    is($r->{status}, 0, 'output over an input: exit 0');
    like(slurp("$dir/sum.cgout"), qr/^summary: /m, 'output over an input: written');
    return;
}

sub test_version {
    my $r = run_tool($ours, fresh_dir(), '--version');
    is($r->{status}, 0, '--version: exit 0');
    is($r->{out}, "cg_merge (cachegrind-ng) 0.1.0\n", '--version: text');
    is($r->{err}, '', '--version: nothing on stderr');
    return;
}

# ---------------------------------------------------------------------------
# Scale

my $N_FILES  = 1000;
my $N_BLOCKS = 50;

# A small deterministic generator (no dependence on Perl's rand).
sub lcg {
    my ($state) = @_;
    return sub {
        $$state = ($$state * 1103515245 + 12345) % 2147483648;
        return $$state >> 8;
    };
}

# Write the inputs; return the expected merge as a hash.
sub make_scale_inputs {
    my ($dir) = @_;
    my $seed = 42;
    my $rand = lcg(\$seed);
    my %sum;
    for my $i (1 .. $N_FILES) {
        my @tot = (0, 0, 0);
        my $text = "desc: I1 cache: generated $i\ncmd: ./gen $i\n"
                 . "events: Ir Dr Dw \n";
        for my $b (1 .. $N_BLOCKS) {
            my $file = sprintf('src/file%02d.c', $rand->() % 40);
            my $fn = sprintf('func_%03d', $rand->() % 300);
            $text .= "fl=$file\nfn=$fn\n";
            for (1 .. 1 + $rand->() % 3) {
                my $line = $rand->() % 500;
                my @c = map { $rand->() % 100000 } 1 .. 3;
                $text .= join(' ', $line, @c) . "\n";
                my $acc = $sum{$file}{$fn}{$line} ||= [ 0, 0, 0 ];
                $acc->[$_] += $c[$_], $tot[$_] += $c[$_] for 0 .. 2;
            }
        }
        $text .= "summary: @tot\n";
        spew(sprintf('%s/in%04d.cgout', $dir, $i), $text);
    }
    return \%sum;
}

sub expected_scale_output {
    my ($sum) = @_;
    my @total = (0, 0, 0);
    my $out = "desc: I1 cache: generated 1\ncmd: ./gen 1\nevents: Ir Dr Dw \n";
    for my $file (sort keys %$sum) {
        for my $fn (sort keys %{ $sum->{$file} }) {
            $out .= "fl=$file\nfn=$fn\n";
            for my $line (sort { $a <=> $b } keys %{ $sum->{$file}{$fn} }) {
                my $c = $sum->{$file}{$fn}{$line};
                $out .= "$line   " . join('', map { "$_ " } @$c) . "\n";
                $total[$_] += $c->[$_] for 0 .. 2;
            }
        }
    }
    return $out . "summary: @total\n";
}

sub peak_rss_kb {
    my ($stderr) = @_;
    return $stderr =~ /Maximum resident set size \(kbytes\): (\d+)/ ? $1 : undef;
}

sub test_scale {
    my $dir = fresh_dir();
    my $sum = make_scale_inputs($dir);
    my @inputs = map { sprintf('in%04d.cgout', $_) } 1 .. $N_FILES;
    my $r = run_tool($ours, $dir, '-o', $OUT, @inputs);
    is($r->{status}, 0, "scale: $N_FILES inputs merged");
    ok(defined $r->{outfile}
       && $r->{outfile} eq expected_scale_output($sum),
       'scale: output equals the Perl sum');
    diag(sprintf('scale: merged %d files x %d blocks in %.3f s',
                 $N_FILES, $N_BLOCKS, $r->{elapsed}));
    report_scale_memory($dir, @inputs);
    if ($have_oracle) {
        unlink "$dir/$OUT";
        my $ref = run_tool($ORACLE, $dir, '-o', $OUT, @inputs);
        ok(defined $ref->{outfile} && $ref->{outfile} eq $r->{outfile},
           "scale: identical to $ORACLE");
        diag(sprintf('scale: %s took %.3f s', $ORACLE, $ref->{elapsed}));
    }
    return;
}

sub report_scale_memory {
    my ($dir, @inputs) = @_;
    my $time = '/usr/bin/time';
    unless (-x $time) {
        diag("scale: $time not found, peak memory not measured");
        return;
    }
    my $r = run_tool($time, $dir, '-v', $ours, '-o', $OUT, @inputs);
    my $kb = peak_rss_kb($r->{err});
    diag(defined $kb ? "scale: peak RSS $kb kB" : 'scale: peak RSS unknown');
    return;
}

# ---------------------------------------------------------------------------
# Round trip through the system cg_annotate

sub test_round_trip {
    for my $inputs ([qw(sum.cgout sum-big.cgout)],
                    [qw(sort-branch.cgout sort-branch2.cgout)],
                    [qw(edge-names.cgout edge-wrap-a.cgout edge-wrap-b.cgout)]) {
        my $dir = fresh_dir(@$inputs);
        my $r = run_tool($ours, $dir, '-o', $OUT, @$inputs);
        is($r->{status}, 0, "round trip @$inputs: merged");
        # (Line numbers of 2^63 and more print negative, which no reader
        # accepts back, so the hand-written wrap-around case is left out.)
        if ($inputs->[0] !~ /^edge-/) {
            my $again = run_tool($ours, $dir, $OUT);
            ok($again->{out} eq $r->{outfile},
               "round trip @$inputs: merging the result alone changes nothing");
        }
        SKIP: {
            skip "$ANNOTATE not found", 1 unless -x $ANNOTATE;
            my $ann = run_tool($ANNOTATE, $dir, $OUT);
            is($ann->{status}, 0, "round trip @$inputs: cg_annotate accepts it")
                or diag($ann->{err});
        }
    }
    return;
}

# ---------------------------------------------------------------------------

diag("testing $ours" . ($have_oracle ? " against $ORACLE" : ''));
test_golden();
test_malformed();
test_missing_and_unreadable();
test_events_mismatch();
test_output_errors();
test_output_replacement();
test_version();
test_scale();
test_round_trip();
done_testing();
