#!/usr/bin/perl
# cg_annotate.t -- tests of cg_annotate (cg_annotate.in).
#
#  * golden cases (tests/golden/cg_annotate/cases.txt): our standard output
#    must equal the committed expected/NAME.out byte for byte, and, where
#    /usr/bin/cg_annotate (Valgrind 3.19) exists, a fresh run of it;
#  * orders that 3.19 leaves to Perl's hash (tied functions, annotated and
#    user files): checked against the orders we promise;
#  * the extensions: --layout=new, merging data files, --diff with
#    --mod-filename/--mod-funcname, --show-percs as a flag;
#  * malformed input, command-line errors, --version and --help;
#  * a round trip through our own Cachegrind (./vg-in-place).
#
# Core modules only.  Everything runs in a temporary copy of the golden
# directory whose modification times are set as regen-cg_annotate.sh
# sets them.  CG_ANNOTATE=path tests that script instead of one made
# from cg_annotate.in.
use strict;
use warnings;
use Test::More;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Find qw(find);
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use POSIX qw(_exit);
use FindBin;
use lib "$FindBin::Bin/lib";
use CgTest qw(run_captured);

my $top    = abs_path(dirname(abs_path(__FILE__)) . '/..');
my $golden = "$top/tests/golden/cg_annotate";
my $oracle = -x '/usr/bin/cg_annotate' ? '/usr/bin/cg_annotate' : undef;
my $tmp    = tempdir('cg_annotate-t-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $ours   = $ENV{CG_ANNOTATE} || make_script();
my $work   = stage_golden();

#############################################################################
# Helpers
#############################################################################

# cg_annotate.in with its configure substitutions made.
sub make_script {
    my $version = 'test';
    if (open(my $ac, '<', "$top/configure.ac")) {
        local $/;
        my $text = <$ac>;
        $version = $1 if $text =~ /AC_INIT\(\s*\[?[^,\]]*\]?\s*,\s*\[?([^,\]\)]+)/;
    }
    open(my $in, '<', "$top/cg_annotate.in") or die "cg_annotate.in: $!";
    my $path = "$tmp/cg_annotate";
    open(my $out, '>', $path) or die "$path: $!";
    while (my $line = <$in>) {
        $line =~ s/\@PERL\@/$^X/g;
        $line =~ s/\@PACKAGE_VERSION\@/$version/g;
        # The default layout of Valgrind 3.19's cg_annotate, the reference
        # here; what configure puts in is checked on the built script.
        $line =~ s/\@CG_ANNOTATE_LAYOUT\@/3.19/g;
        print $out $line;
    }
    close $out or die;
    chmod 0755, $path;
    return $path;
}

# A copy of the golden directory with fixed modification times: every
# file 2020-01-01, *.cgout 2021-01-01, names containing "newer"
# 2022-01-01 (3.19 warns about sources newer than the data file).
sub stage_golden {
    my $dst = "$tmp/golden";
    find({ no_chdir => 1, wanted => sub {
        (my $rel = $File::Find::name) =~ s/^\Q$golden\E//;
        if (-d $_) { make_path("$dst$rel") }
        else       { copy($_, "$dst$rel") or die "copy $rel: $!" }
    } }, $golden);
    find({ no_chdir => 1, wanted => sub {
        my $t = /newer[^\/]*$/ ? 1640995200 : /\.cgout$/ ? 1609459200 : 1577836800;
        utime $t, $t, $_;
    } }, $dst);
    return $dst;
}

# Run a program in a directory; returns { out, err, status }.
sub run_in {
    my ($dir, @cmd) = @_;
    return run_captured($dir, @cmd);
}

sub slurp {
    my ($path) = @_;
    open(my $fh, '<', $path) or return undef;
    binmode $fh;
    local $/;
    my $text = <$fh>;
    return $text // '';
}

sub spew {
    my ($path, $text) = @_;
    open(my $fh, '>', $path) or die "$path: $!";
    print $fh $text;
    close $fh or die;
}

# Byte-for-byte comparison that reports the first differing line.
sub same_text {
    my ($got, $want, $name) = @_;
    if (defined $got && defined $want && $got eq $want) {
        pass($name);
        return 1;
    }
    fail($name);
    my @g = split /^/, $got // '';
    my @w = split /^/, $want // '';
    for my $i (0 .. ($#g > $#w ? $#g : $#w)) {
        next if defined $g[$i] && defined $w[$i] && $g[$i] eq $w[$i];
        diag("first difference at line " . ($i + 1) . ":");
        diag("  got:      " . (defined $g[$i] ? $g[$i] : "<end>\n"));
        diag("  expected: " . (defined $w[$i] ? $w[$i] : "<end>\n"));
        last;
    }
    return 0;
}

sub ours   { run_in($work, $ours, @_) }
sub system319 { run_in($work, $oracle, @_) }

# Drop the lines that name the inputs (they differ between a merged
# file and the files it was merged from).
sub without_input_names {
    my ($text) = @_;
    $text =~ s/^(?:Command|Command \d+|Data file|Invocation):.*\n//mg;
    $text =~ s/^Description \d+:\n//mg;
    $text =~ s/^Hand-written: .*\n//mg;
    return $text;
}

# 3.19 prints the annotation blocks in hash order: sort them by file.
sub sort_annotation_blocks {
    my ($text) = @_;
    my $F = '-' x 80;
    my @l = split /^/, $text;
    my @starts = grep { $l[$_] =~ /^-- (?:User|Auto)-annotated source: / } 0 .. $#l;
    return $text if @starts < 2;
    my $end = @l;
    for my $i ($starts[-1] + 2 .. $#l) {
        if ($l[$i] eq "$F\n") { $end = $i; last }
    }
    my @blocks;
    for my $k (0 .. $#starts) {
        my $b = $starts[$k] - 1;
        my $e = $k < $#starts ? $starts[$k + 1] - 1 : $end;
        my ($name) = $l[ $starts[$k] ] =~ /source: (?:\S+ \+ )?(.*)$/;
        push @blocks, [$name, join '', @l[$b .. $e - 1]];
    }
    return join '', @l[0 .. $starts[0] - 2],
        (map { $_->[1] } sort { $a->[0] cmp $b->[0] } @blocks), @l[$end .. $#l];
}

# The rows of the file:function table (3.19 layout), label last.
sub function_rows {
    my ($text) = @_;
    my ($table) = $text =~ /file:function\n-{80}\n(.*?)\n\n/s;
    return () unless defined $table;
    return map { /  (\S+)$/ ? $1 : $_ } split /\n/, $table;
}

sub section {
    my ($text, $title) = @_;
    my ($s) = $text =~ /^-- \Q$title\E\n-{80}\n(.*?)(?=^-{80}\n|\z)/ms;
    return $s;
}

#############################################################################
# Golden cases
#############################################################################

open(my $cases, '<', "$golden/cases.txt") or die "cases.txt: $!";
my $ncases = 0;
while (my $line = <$cases>) {
    chomp $line;
    next if $line =~ /^(?:#|\s*$)/;
    my ($name, $args) = split /\t/, $line, 2;
    my @args = split ' ', $args;
    my $want = slurp("$golden/expected/$name.out");
    my $got  = ours(@args);
    same_text($got->{out}, $want, "golden $name: same as expected/$name.out");
    is($got->{status}, 0, "golden $name: exit status 0");
    if ($oracle) {
        same_text($got->{out}, system319(@args)->{out}, "golden $name: same as system 3.19 now");
    }
    $ncases++;
}
cmp_ok($ncases, '>=', 25, "at least 25 golden cases ($ncases)");

#############################################################################
# Orders that 3.19 leaves to Perl's hash
#############################################################################

{
    # Tied functions: ascending FILE:FUNC (an undefined count ties with 1).
    my @args = ('--auto=no', '--threshold=0', 'tie-functions.cgout');
    my $got = ours(@args)->{out};
    is_deeply([function_rows($got)],
              [qw(tie-a.c:top tie-a.c:alpha tie-a.c:beta tie-b.c:zeta tie-c.c:gamma
                  tie-b.c:after tie-a.c:one_ir tie-a.c:undef_ir)],
              'ties in the function table: ascending FILE:FUNC (our order; 3.19 uses hash order)');
    if ($oracle) {
        my $sys = system319(@args)->{out};
        is_deeply([sort split /^/, $got], [sort split /^/, $sys],
                  'ties in the function table: same lines as 3.19, in some order');
    }

    # Annotated files: sorted by name.
    @args = ('tie-files.cgout');
    $got = ours(@args)->{out};
    my @titles = $got =~ /^-- Auto-annotated source: (.*)$/mg;
    is_deeply(\@titles, [qw(tiefile-a.c tiefile-b.c tiefile-c.c)],
              'annotated files in sorted order (our order; 3.19 uses hash order)');
    if ($oracle) {
        same_text($got, sort_annotation_blocks(system319(@args)->{out}),
                  'annotated files: same blocks as 3.19 once its blocks are sorted');
    }

    # User files: the header lists them in command-line order, once each;
    # their blocks come in sorted order.
    @args = ('--auto=no', 'tie-files.cgout', 'tiefile-c.c', 'tiefile-a.c', 'tiefile-c.c');
    $got = ours(@args)->{out};
    like($got, qr/^User annotated:   tiefile-c\.c\n {18}tiefile-a\.c\nAuto-annotation:/m,
         'user files listed in command-line order (3.19 uses hash order)');
    @titles = $got =~ /^-- User-annotated source: (.*)$/mg;
    is_deeply(\@titles, [qw(tiefile-a.c tiefile-c.c)], 'user-annotated blocks in sorted order');
    if ($oracle) {
        my $sys = system319(@args)->{out};
        my $norm = sub {
            my $t = sort_annotation_blocks($_[0]);
            $t =~ s{^User annotated:   (.*)\n((?: {18}.*\n)*)}{
                my @u = sort($1, map { s/^ {18}//r } split /\n/, $2);
                "User annotated:   " . join("\n" . (' ' x 18), @u) . "\n";
            }me;
            return $t;
        };
        same_text($norm->($got), $norm->($sys), 'user files: same output as 3.19 up to order');
    }
}

#############################################################################
# Extensions
#############################################################################

{
    # --show-percs and --no-show-percs as flags.
    my $yes  = ours('--show-percs=yes', 'thresh.cgout')->{out};
    my $no   = ours('--show-percs=no', 'thresh.cgout')->{out};
    isnt($yes, $no, '--show-percs=yes and =no differ');
    same_text(ours('--show-percs', 'thresh.cgout')->{out}, $yes, '--show-percs alone means =yes');
    same_text(ours('--no-show-percs', 'thresh.cgout')->{out}, $no, '--no-show-percs means =no');
    same_text(ours('--show-percs=no', '--show-percs', 'thresh.cgout')->{out}, $yes,
              'the last of --show-percs=no --show-percs wins');

    # --annotate / --no-annotate are --auto=yes / --auto=no.
    same_text(ours('--no-annotate', 'thresh.cgout')->{out},
              ours('--auto=no', 'thresh.cgout')->{out}, '--no-annotate means --auto=no');
}

{
    # --layout=new: the example of the specification, section 3.3.
    my $r = ours('--layout=new', 'ext-new-example.cgout');
    is($r->{status}, 0, '--layout=new: exit status 0');
    my $out = $r->{out};
    my $ff = section($out, 'File:function summary');
    is($ff, <<'END', '--layout=new: File:function section as in the specification');
  Ir___________________ Dr________________  file:function

< 1,237 (99.8%,  99.8%) 5 (100.0%, 100.0%)  small.c:
  1,230 (99.2%)         5 (100.0%)            f
      7  (0.6%)         0                     g

<     3  (0.2%, 100.0%) 0   (0.0%, 100.0%)  small2.c:f

END
    is(section($out, 'Function:file summary'), <<'END', '--layout=new: Function:file section');
  Ir___________________ Dr________________  function:file

> 1,233 (99.4%,  99.4%) 5 (100.0%, 100.0%)  f:
  1,230 (99.2%)         5 (100.0%)            small.c
      3  (0.2%)         0                     small2.c

>     7  (0.6%, 100.0%) 0   (0.0%, 100.0%)  g:small.c

END
    is(section($out, 'Summary'), <<'END', '--layout=new: Summary section');
Ir____________ Dr________ 

1,240 (100.0%) 5 (100.0%)  PROGRAM TOTALS

END
    is(section($out, 'Annotated source file: small.c'), <<'END', '--layout=new: annotated source');
Ir___________ Dr________ 

    .         .           int f(int x)
1,200 (96.8%) 0           {
    .         .               return x * 1200;
   30  (2.4%) 5 (100.0%)  }
    7  (0.6%) 0           int g(void) { return 7; }

END
    like(section($out, 'Annotation summary'),
         qr/^1,240 \(100\.0%\) 5 \(100\.0%\)    annotated: files known & above threshold & readable, line numbers known\n/m,
         '--layout=new: annotation summary');
    like($out, qr/^-- Metadata\n-{80}\nInvocation: {7}\S+ --layout=new ext-new-example.cgout\n/m,
         '--layout=new: Metadata section');
    unlike($out, qr/^Data file:/m, '--layout=new: no Data file: line');

    # A real profile: every section, and the annotation summary adds up
    # (else cg_annotate exits with an error).
    $r = ours('--layout=new', '--context=2', 'sortsearch-O0-bs.cgout');
    is($r->{status}, 0, '--layout=new on a real profile: exit status 0');
    my @titles = $r->{out} =~ /^-- (.*)\n-{80}$/mg;
    is_deeply(\@titles, ['Metadata', 'Summary', 'File:function summary', 'Function:file summary',
                         'Annotated source file: ././sortsearch.c', 'Annotation summary'],
              '--layout=new on a real profile: sections');

    # Past-the-end lines, line 0, a newer source and an unreadable file.
    $r = ours('--layout=new', 'recent-src.cgout');
    like($r->{out}, qr/^\@ Original source files are all newer than data file 'recent-src\.cgout':\n\@ - newer\.c\n/m,
         '--layout=new: newer-source warning');
    like($r->{out}, qr/^ 20  \(2\.4%\)   5  \(3\.2%\)  <bogus line 11>\n\n\@{79}\n/m,
         '--layout=new: past-the-end lines');
    $r = ours('--layout=new', 'line0.cgout');
    like($r->{out}, qr/^  417  \(5\.6%\)    15  \(0\.6%\)  <unknown \(line 0\)>\n\n/m,
         '--layout=new: line 0 first');
    $r = ours('--layout=new', '--threshold=0', 'missing.cgout');
    like($r->{out}, qr/^Unannotated because one or more of these original files are unreadable:\n- zz_missing\.c\n/m,
         '--layout=new: unreadable file');
    like($r->{out}, qr/^  300  \(3\.0%\)  unannotated: files unknown$/m,
         '--layout=new: ??? counted as files unknown');
}

{
    # Several data files merged: the same as annotating the file the
    # system cg_merge makes of them (except the lines naming the inputs).
    my @in = ('sortsearch-O0-n1000.cgout', 'sortsearch-O0-n3000.cgout');
    my $merged = ours(@in);
    is($merged->{status}, 0, 'merge: exit status 0');
    like($merged->{out}, qr/^Data file:        \Q$in[0]; $in[1]\E\n/m, 'merge: both data files named');
    SKIP: {
        skip 'no /usr/bin/cg_merge', 3 unless -x '/usr/bin/cg_merge';
        my $r = run_in($work, '/usr/bin/cg_merge', '-o', 'merged-by-cg_merge.cgout', @in);
        is($r->{status}, 0, 'merge: cg_merge made a merged file');
        same_text(without_input_names($merged->{out}),
                  without_input_names(ours('merged-by-cg_merge.cgout')->{out}),
                  'merge: same as our annotation of the cg_merge output');
        if ($oracle) {
            same_text(without_input_names($merged->{out}),
                      without_input_names(system319('merged-by-cg_merge.cgout')->{out}),
                      'merge: same as 3.19 on the cg_merge output');
        } else {
            pass('merge: no system cg_annotate to compare with');
        }
        same_text(without_input_names(ours('--layout=new', @in)->{out}),
                  without_input_names(ours('--layout=new', 'merged-by-cg_merge.cgout')->{out}),
                  'merge with --layout=new: same as on the cg_merge output');
    }
    # A data file after a user file, and a source file among data files.
    my $r = ours($in[0], 'sortsearch.c', $in[1]);
    like($r->{out}, qr/^User annotated:   sortsearch\.c\n/m, 'merge: positionals told apart by their first line');
    like($r->{out}, qr/\Q$in[0]; $in[1]\E/, 'merge: with a user file in between');
    $r = ours('tie-files.cgout', 'thresh.cgout');
    isnt($r->{status}, 0, 'merge: data files with different events are an error');
    like($r->{err}, qr/^cg_annotate: thresh\.cgout:3: events in data files don't match/m,
         'merge: the events error names the file and line');
}

{
    # --diff: the second file minus the first, at line level, with the
    # functions renamed by --mod-funcname so that the two versions meet.
    my @diff = ('--diff', '--mod-funcname=s/([a-z]+)[0-9]/\1N/', 'ext-diff-a.cgout', 'ext-diff-b.cgout');
    my $r = ours(@diff);
    is($r->{status}, 0, '--diff: exit status 0');
    same_text(without_input_names($r->{out}),
              without_input_names(ours('ext-diff-expected.cgout')->{out}),
              '--diff with --mod-funcname: same as the hand-made difference file');
    same_text(without_input_names(ours('--layout=new', @diff)->{out}),
              without_input_names(ours('--layout=new', 'ext-diff-expected.cgout')->{out}),
              '--diff with --layout=new: same as the hand-made difference file');
    same_text(ours('ext-diff-a.cgout', '--diff', 'ext-diff-b.cgout', '--mod-funcname',
                   's/([a-z]+)[0-9]/\1N/')->{out},
              $r->{out}, '--diff: options after the files, value as the next argument');
    $r = ours('--diff', 'ext-diff-a.cgout');
    isnt($r->{status}, 0, '--diff with one data file: error');
    like($r->{err}, qr/^cg_annotate: --diff needs exactly two data files/, '--diff with one data file: message');
    $r = ours('--diff', 'ext-diff-a.cgout', 'ext-diff-a.cgout', '--threshold=0', '--auto=no');
    my @rows = $r->{out} =~ /^(.*)  diffcalc\.c:\w+$/mg;
    ok(@rows == 2 && !grep({ /[1-9]/ } @rows), '--diff of a file with itself: all counts 0');

    # --mod-filename: two originals renamed to one file.
    $r = ours('--mod-filename=s/v[12]\///', 'ext-mod.cgout');
    is_deeply([function_rows($r->{out})], ['calc.c:compute', 'calc.c:helper'],
              '--mod-filename: renamed files merge');
    like($r->{out}, qr/^1,760 \(97\.78%\)  calc\.c:compute$/m, '--mod-filename: counts merged');
    like($r->{out}, qr/^-- Auto-annotated source: v1\/calc\.c$/m,
         '--mod-filename: 3.19 layout annotates the first original that opens');
    $r = ours('--layout=new', '--mod-filename=s/V[12]\///i', 'ext-mod.cgout');
    like($r->{out}, qr/^Unannotated because two or more of these original files are not identical:\n- v1\/calc\.c\n- v2\/calc\.c\n/m,
         '--mod-filename with --layout=new: differing originals not annotated (and the i flag)');
    $r = ours('--mod-funcname=s/e/E/g', '--auto=no', 'ext-mod.cgout');
    is_deeply([function_rows($r->{out})], ['v1/calc.c:computE', 'v2/calc.c:computE', 'v2/calc.c:hElpEr'],
              '--mod-funcname: the g flag');

    for my $bad ('s/(/x/', 'foo', 's/a/b/q', 's/a/b') {
        $r = ours("--mod-filename=$bad", 'ext-mod.cgout');
        ok($r->{status} != 0 && $r->{err} =~ /^cg_annotate: invalid --mod-filename value `\Q$bad\E': .*\n\z/,
           "--mod-filename=$bad: one-line error, non-zero exit");
    }
    $r = ours('--mod-funcname=s/[/x/', 'ext-mod.cgout');
    ok($r->{status} != 0 && $r->{err} =~ /^cg_annotate: invalid --mod-funcname value .*\n\z/,
       '--mod-funcname with a bad regex: one-line error, non-zero exit');
}

{
    # A data file that cannot be read twice (a pipe) is read in one pass.
    use POSIX qw(mkfifo);
    my $fifo = "$tmp/pipe.cgout";
    SKIP: {
        skip 'no mkfifo', 1 unless mkfifo($fifo, 0600);
        my $writer = fork // die "fork: $!";
        if ($writer == 0) {
            alarm 60;
            open(my $w, '>', $fifo) or _exit(1);
            print $w slurp("$golden/sortsearch-O2-bs.cgout");
            close $w;
            _exit(0);
        }
        my $piped = ours($fifo)->{out};
        waitpid($writer, 0);
        $piped =~ s/^Data file: .*\n//m;
        (my $plain = ours('sortsearch-O2-bs.cgout')->{out}) =~ s/^Data file: .*\n//m;
        same_text($piped, $plain, 'data file from a pipe (one pass): same output as from a file');
    }
}

#############################################################################
# Malformed input
#############################################################################

{
    my $dir = "$tmp/bad";
    make_path($dir);
    my $head = "desc: test\ncmd: ./x\nevents: Ir Dr\n";
    my %bad = (
        'bad-count'     => [$head . "fl=a.c\nfn=f\n1 5 x\nsummary: 5 0\n", 6, qr/bad count `x'/],
        'count-no-fn'   => [$head . "fl=a.c\n1 5 6\nsummary: 5 6\n", 5, qr/count line before any fn= line/],
        'too-many'      => [$head . "fl=a.c\nfn=f\n1 5 6\n2 1 2 3\nsummary: 6 8\n", 7, qr/too many event counts/],
        'too-many-sum'  => [$head . "fl=a.c\nfn=f\n1 5 6\nsummary: 5 6 7\n", 7, qr/too many event counts/],
        'summary-short' => [$head . "fl=a.c\nfn=f\n1 5 6\nsummary: 5\n", 7, qr/summary event and total event mismatch/],
        'no-summary'    => [$head . "fl=a.c\nfn=f\n1 5 6\n", 6, qr/missing final summary line/],
        'no-cmd'        => ["desc: x\nevents: Ir\n", 2, qr/missing `cmd:' line/],
        'no-events'     => ["cmd: ./x\nfl=a.c\n", 2, qr/missing `events:' line/],
        'no-event-names'=> ["cmd: ./x\nevents: \nsummary: \n", 2, qr/no event names/],
        'bad-summary'   => [$head . "fl=a.c\nfn=f\n1 5 6\nsummary: 5 y\n", 7, qr/bad count `y' in summary line/],
        'empty'         => ['', 0, qr/missing `cmd:' line/],
    );
    # Many lines before the bad one: the plain-digits fast path must still
    # report the right line.
    $bad{'too-many-late'} = [$head . "fl=a.c\nfn=f\n" . join('', map { "$_ 1 2\n" } 1 .. 500)
                             . "501 1 2 3\n" . "summary: 501 1002\n", 506, qr/too many event counts/];
    for my $name (sort keys %bad) {
        my ($text, $line, $re) = @{ $bad{$name} };
        spew("$dir/$name.cgout", $text);
        my $r = run_in($dir, $ours, "$name.cgout");
        isnt($r->{status}, 0, "malformed $name: non-zero exit");
        like($r->{err}, qr/^cg_annotate: \Q$name.cgout\E:$line: $re[^\n]*\n\z/,
             "malformed $name: one line naming file and line $line");
        is($r->{out}, '', "malformed $name: nothing on stdout");
    }

    # Lines of unknown type: a warning naming file and line; reading goes on.
    spew("$dir/unknown.cgout", $head . "fl=a.c\nfn=f\n1 5 6\nfi=inl.h\n2 1 1\nsummary: 6 7\n");
    my $r = run_in($dir, $ours, 'unknown.cgout');
    is($r->{status}, 0, 'unknown line type: exit status 0');
    like($r->{err}, qr/^cg_annotate: unknown\.cgout:7: warning: malformed line, ignoring/m,
         'unknown line type: warning names file and line');
    like($r->{out}, qr/^6 \(100\.0%\) 7 \(100\.0%\)  a\.c:f$/m, 'unknown line type: the rest is read');

    # Missing and unreadable files.
    $r = run_in($dir, $ours, 'no-such-file.cgout');
    isnt($r->{status}, 0, 'missing data file: non-zero exit');
    like($r->{err}, qr/^cg_annotate: no-such-file\.cgout: cannot open for reading: .*\n\z/,
         'missing data file: one line naming the file');
    make_path("$dir/adir");
    $r = run_in($dir, $ours, 'adir');
    isnt($r->{status}, 0, 'directory as data file: non-zero exit');
    like($r->{err}, qr/^cg_annotate: adir: cannot read a directory\n\z/, 'directory as data file: message');
    SKIP: {
        spew("$dir/locked.cgout", $head . "summary: 0 0\n");
        chmod 0, "$dir/locked.cgout";
        skip 'running as root: a mode-0 file is still readable', 2 if open(my $probe, '<', "$dir/locked.cgout");
        $r = run_in($dir, $ours, 'locked.cgout');
        isnt($r->{status}, 0, 'unreadable data file: non-zero exit');
        like($r->{err}, qr/^cg_annotate: locked\.cgout: cannot open for reading: .*\n\z/,
             'unreadable data file: one line naming the file');
    }
}

#############################################################################
# A summary line that disagrees with the count lines
#############################################################################

# 3.19 uses the summary line as it is, silently: the same stdout, and one
# warning line naming the file and the summary line.
{
    my $dir = "$tmp/summary";
    make_path($dir);
    my $head = "desc: test\ncmd: ./x\n";
    my %case = (
        # name => [ text, expected stderr ]
        'one-event' => [ $head . "events: Ir\nfl=a.c\nfn=f\n1 1\n2 1\nsummary: 5\n",
            "cg_annotate: one-event.cgout:8: warning: summary: line (5) disagrees"
            . " with the sum of the cost lines (2) for event Ir\n" ],
        'two-of-three' => [ $head . "events: Ir Dr Dw\nfl=a.c\nfn=f\n1 1 2 3\n"
            . "fn=g\n4 1 2 .\n# a comment\nsummary: 2 9 .\n",
            "cg_annotate: two-of-three.cgout:10: warning: summary: line (9 .)"
            . " disagrees with the sum of the cost lines (4 3) for events Dr Dw\n" ],
        # The last summary line counts, as in 3.19.
        'last-summary' => [ $head . "events: Ir\nfl=a.c\nfn=f\n1 7\nsummary: 7\n"
            . "fn=g\n2 1\nsummary: 7\n",
            "cg_annotate: last-summary.cgout:10: warning: summary: line (7) disagrees"
            . " with the sum of the cost lines (8) for event Ir\n" ],
        'agrees' => [ $head . "events: Ir Dr\nfl=a.c\nfn=f\n1 1 .\n2 1\n"
            . "fl=b.c\n3 +3 0\nsummary: 0005 .\n", '' ],
    );
    for my $name (sort keys %case) {
        my ($text, $err) = @{ $case{$name} };
        spew("$dir/$name.cgout", $text);
        my $r = run_in($dir, $ours, "$name.cgout");
        is($r->{status}, 0, "summary $name: exit status 0");
        is($r->{err}, $err, "summary $name: " . ($err ? 'one warning line' : 'no warning'));
        if ($oracle) {
            my $ref = run_in($dir, $oracle, "$name.cgout");
            same_text($r->{out}, $ref->{out}, "summary $name: stdout identical to 3.19");
            is($ref->{status}, 0, "summary $name: 3.19 exits 0 too");
        }
    }
    my $r = run_in($dir, $ours, 'one-event.cgout');
    like($r->{out}, qr/^5 \(100\.0%\)  PROGRAM TOTALS$/m, 'summary one-event: totals from the summary line');
    like($r->{out}, qr/^2 \(40\.00%\)  a\.c:f$/m, 'summary one-event: percentages of the summary line');

    # Each data file is checked on its own, --diff too (the first file's
    # counts are subtracted, its warning is in its own terms).
    $r = run_in($dir, $ours, 'one-event.cgout', 'last-summary.cgout');
    is($r->{err}, "cg_annotate: one-event.cgout:8: warning: summary: line (5) disagrees"
       . " with the sum of the cost lines (2) for event Ir\n"
       . "cg_annotate: last-summary.cgout:10: warning: summary: line (7) disagrees"
       . " with the sum of the cost lines (8) for event Ir\n",
       'summary: two data files, one warning each');
    spew("$dir/diff-a.cgout", $head . "events: Ir\nfl=a.c\nfn=f\n1 4\nsummary: 3\n");
    $r = run_in($dir, $ours, '--diff', 'diff-a.cgout', 'one-event.cgout');
    is($r->{err}, "cg_annotate: diff-a.cgout:7: warning: summary: line (3) disagrees"
       . " with the sum of the cost lines (4) for event Ir\n"
       . "cg_annotate: one-event.cgout:8: warning: summary: line (5) disagrees"
       . " with the sum of the cost lines (2) for event Ir\n",
       'summary: --diff checks both files in their own terms');
    is($r->{status}, 0, 'summary: --diff exits 0');

    # --layout=new checks the annotation summary against the summary
    # line: there the mismatch is an error, after the warning.
    $r = run_in($dir, $ours, '--layout=new', 'one-event.cgout');
    is($r->{status}, 1, 'summary --layout=new: exit status 1');
    is($r->{err}, "cg_annotate: one-event.cgout:8: warning: summary: line (5) disagrees"
       . " with the sum of the cost lines (2) for event Ir\n"
       . "cg_annotate: one-event.cgout:8: `summary:' line doesn't match computed"
       . " annotated counts (summary: [5], annotated: [2])\n",
       'summary --layout=new: the warning, then one error line naming file and line');
}

#############################################################################
# Many events
#############################################################################

# Past 64 events the count lines are summed by a plain loop (the code
# generated for a fixed number of events compiles in quadratic time:
# 20 s for 20,000 events).  Same output as 3.19; and quick.
{
    my $dir = "$tmp/events";
    make_path($dir);
    my $seed = 12345;
    my $rand = sub { $seed = ($seed * 1103515245 + 12345) % 2147483648; ($seed >> 8) % $_[0] };
    for my $n (64, 65, 200) {
        my @tot = (0) x $n;
        my $body = '';
        for my $f (1 .. 4) {
            $body .= "fn=f$f\n";
            for my $l (1 .. 40) {
                my $k = $rand->(3) ? $n : $rand->($n);     # some lines short
                my @c = map { $rand->(1000) } 1 .. $k;
                $tot[$_] += $c[$_] for 0 .. $#c;
                $body .= join(' ', $l, @c) . "\n";
            }
        }
        spew("$dir/e$n.cgout", "desc: d\ncmd: ./x\nevents: " . join(' ', map { "E$_" } 1 .. $n)
             . "\nfl=a.c\n$body" . "summary: @tot\n");
        my $r = run_in($dir, $ours, '--auto=no', "e$n.cgout");
        is($r->{status}, 0, "$n events: exit status 0");
        is($r->{err}, '', "$n events: nothing on stderr");
        if ($oracle) {
            same_text($r->{out}, run_in($dir, $oracle, '--auto=no', "e$n.cgout")->{out},
                      "$n events: same output as 3.19");
        }
    }
    my $n = 20000;
    spew("$dir/e$n.cgout", "desc: d\ncmd: ./x\nevents: " . join(' ', map { "E$_" } 1 .. $n)
         . "\nfl=a.c\nfn=f\n" . join('', map { "$_ " . join(' ', (1) x $n) . "\n" } 1 .. 3)
         . 'summary: ' . join(' ', (3) x $n) . "\n");
    my $t0 = time;
    my $r = run_in($dir, $ours, '--auto=no', "e$n.cgout");
    my $secs = time - $t0;
    is($r->{status}, 0, "$n events: exit status 0");
    cmp_ok($secs, '<', 10, "$n events: done in $secs s (was 20 s)");
}

#############################################################################
# Command line
#############################################################################

{
    my $r = ours('--version');
    is($r->{status}, 0, '--version: exit status 0');
    like($r->{out}, qr/^cg_annotate \(cachegrind-ng\) \S+\n\z/, '--version: name and version on stdout');
    for my $h ('-h', '--help') {
        $r = ours($h);
        is($r->{status}, 255, "$h: exit status 255, as 3.19");
        like($r->{err}, qr/^usage: cg_annotate \[options\] cachegrind-out-file/, "$h: usage on stderr");
        is($r->{out}, '', "$h: nothing on stdout");
    }
    # One line each (3.19 printed its usage text), with 3.19's status.
    my $see = " (see 'cg_annotate --help')\n";
    for my $bad ([['--threshold=21'], "option --threshold: `21' is not a number between 0 and 20"],
                 [['--threshold=x'], "option --threshold: `x' is not a number between 0 and 20"],
                 [['--sort=Ir:101'], "option --sort: threshold `101' of Ir:101 is not between 0 and 100"],
                 [['--context=-1'], "option --context: `-1' is not a number"],
                 [['--show-percs=maybe'], "option --show-percs: `maybe' is not yes or no"],
                 [['--auto=YES'], "option --auto: `YES' is not yes or no"],
                 [['--bogus'], "unknown option `--bogus'"],
                 [['--show'], 'option --show needs a value'],
                 [[], 'no data file given']) {
        my ($args, $msg) = @$bad;
        $r = ours(@$args ? ('thresh.cgout', @$args) : ());
        is($r->{status}, 255, "usage error (@$args): exit status 255, as 3.19");
        is($r->{err}, "cg_annotate: $msg$see", "usage error (@$args): one line");
    }
    $r = ours('-I', 'inc', 'incdir.cgout');
    is($r->{err}, "cg_annotate: Sorry, no space is allowed after a -I flag$see",
       '-I followed by a space: 3.19 message, one line');
    $r = ours('thresh.cgout', 'not-here.c');
    is($r->{status}, 2, 'missing user file: exit status 2');
    is($r->{err}, "cg_annotate: File not-here.c not found in any of: \n", 'missing user file: message');
    $r = ours('--auto=no', 'incdir.cgout', 'inc_only.c', '-Iinc');
    is($r->{err}, "cg_annotate: File inc_only.c not found in any of: \n",
       'a user file is looked up in the -I directories given before it only');
    $r = ours('--show=Ir,Nope', 'thresh.cgout');
    isnt($r->{status}, 0, 'unknown --show event: error');
    is($r->{err}, "cg_annotate: --show event `Nope' did not appear in input\n", 'unknown --show event: message');
    $r = ours('--sort=Dr:5,Nope:3', 'thresh.cgout');
    is($r->{err}, "cg_annotate: --sort event `Nope' did not appear in input\n", 'unknown --sort event: message');
    $r = ours('--layout=fancy', 'thresh.cgout');
    isnt($r->{status}, 0, 'bad --layout: error');
}

#############################################################################
# Round trip through our own Cachegrind
#############################################################################

SKIP: {
    my $vg = "$top/vg-in-place";
    skip "no $vg (build the tool first)", 3 unless -x $vg;
    skip 'no C compiler', 3 unless grep { -x "$_/cc" } split /:/, $ENV{PATH} // '';
    my $dir = "$tmp/roundtrip";
    make_path($dir);
    copy("$golden/sortsearch.c", "$dir/sortsearch.c") or die;
    my $r = run_in($dir, 'cc', '-g', '-O0', "-fdebug-prefix-map=$dir=.", '-o', 'sortsearch', 'sortsearch.c');
    skip "cannot compile: $r->{err}", 3 if $r->{status};
    $r = run_in($dir, $vg, '--tool=cachegrind', '--cachegrind-out-file=ours.cgout', './sortsearch', '500');
    skip "our Cachegrind failed: $r->{err}", 3 if $r->{status} || !-s "$dir/ours.cgout";
    $r = run_in($dir, $ours, 'ours.cgout');
    is($r->{status}, 0, 'round trip: our cg_annotate reads our Cachegrind output');
    like($r->{out}, qr/^-- Auto-annotated source: \.\/\.\/sortsearch\.c$/m, 'round trip: source annotated');
    if ($oracle) {
        same_text($r->{out}, run_in($dir, $oracle, 'ours.cgout')->{out},
                  'round trip: same output as 3.19 on our Cachegrind output');
    } else {
        pass('round trip: no system cg_annotate to compare with');
    }
}

# The built script's default layout is that of the Valgrind built
# against: its own cg_annotate's (new from 3.21 on).
SKIP: {
    skip 'the tree is not configured (no tests/lib/CgBuild.pm)', 1
        unless -f "$top/tests/lib/CgBuild.pm" && -x "$top/cg_annotate";
    require CgBuild;
    my $want = CgBuild::vg_at_least(3, 21) ? 'new' : '3.19';
    my $r = run_captured($tmp, "$top/cg_annotate", "--help");
    my $help = $r->{out} . $r->{err};
    like($help, qr/--layout=3\.19\|new .*\n.*\n.*\[\Q$want\E\]/,
         "built cg_annotate: default --layout=$want (Valgrind $CgBuild::VG_VERSION)");
}

# --layout=new against the Python cg_annotate of Valgrind 3.24.0: every
# case of golden/cg_annotate/new-cases.txt (profiles of real programs,
# thresholds down to 0, --sort/--show, merged inputs, --diff, --mod-*,
# count lines under no fn=) is that script's output byte for byte, its
# Invocation: line aside.  Two matters of its output: the threshold is
# a Python float (Threshold: 1.0%), and every fl= line makes an
# <unspecified> function of its file, whose zero row a threshold of 0
# shows.  (Valgrind 3.27's cg_annotate is said to keep such rows under
# --diff too; 3.24 does not, with a threshold above 0, and ours follows
# the release it can be run against.)
{
    open(my $fh, '<', "$golden/new-cases.txt") or die "new-cases.txt: $!";
    my $n = 0;
    while (my $case = <$fh>) {
        next if $case =~ /^#/ || $case !~ /\S/;
        chomp $case;
        my ($name, $args) = split /\t/, $case, 2;
        my $want = slurp("$golden/expected-new/$name.out");
        my $r = ours('--layout=new', split(' ', $args));
        (my $got = $r->{out}) =~ s/^Invocation:.*\n//m;
        is($r->{status}, 0, "--layout=new $name: exit 0");
        same_text($got, $want, "--layout=new $name: as Valgrind 3.24's Python cg_annotate");
        $n++;
    }
    cmp_ok($n, '>=', 25, "$n --layout=new cases against Valgrind 3.24");
}

done_testing();
