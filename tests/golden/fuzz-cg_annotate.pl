#!/usr/bin/perl
# fuzz-cg_annotate.pl -- differential fuzzing of cg_annotate against the
# system's (Valgrind 3.19) one.  Not part of the test suite.
#
#   perl tests/golden/fuzz-cg_annotate.pl [CASES [SEED]]
#
# Each case writes random sources and a random data file (odd counts,
# '.', negative counts and line numbers, line 0, lines past the end,
# odd white space, a data file older than its sources), picks random
# options, and compares the standard output of our cg_annotate (made
# from cg_annotate.in, or $CG_ANNOTATE) with /usr/bin/cg_annotate's.
# 3.19 prints tied functions and annotated files in hash order, so the
# system tool is run under several hash seeds and its annotation blocks
# are sorted by name before comparing.  Failing cases are kept in
# /tmp/cg_annotate-fuzz-failures/SEED-CASE/ (inputs, ARGS, expected,
# got).  Exit status 1 if any case failed.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);

my $cases  = shift // 200;
my $seed   = shift // time;
my $oracle = '/usr/bin/cg_annotate';
my $top    = abs_path(dirname(abs_path(__FILE__)) . '/../..');
my $tmp    = tempdir('cg_annotate-fuzz-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $keep   = '/tmp/cg_annotate-fuzz-failures';
-x $oracle or die "no $oracle\n";
srand($seed);

my $ours = $ENV{CG_ANNOTATE};
if (!$ours) {
    $ours = "$tmp/cg_annotate";
    open(my $in, '<', "$top/cg_annotate.in") or die "cg_annotate.in: $!";
    open(my $out, '>', $ours) or die;
    while (<$in>) { s/\@PERL\@/$^X/; s/\@PACKAGE_VERSION\@/fuzz/; print $out $_ }
    close $out;
    chmod 0755, $ours;
}

sub r    { int(rand($_[0])) }
sub pick { $_[ r(scalar @_) ] }

my ($same, $failed) = (0, 0);
my $dir = "$tmp/case";
for my $case (1 .. $cases) {
    chdir $tmp;
    remove_tree($dir);
    make_path("$dir/inc");
    chdir $dir or die;

    my $boundary = r(3) == 0;     # counts near the percentage boundaries
    my @events = (qw(Ir Dr Dw I1mr D1mr Bc Bcm))[0 .. r(4)];
    my %seen;
    my @files = grep { !$seen{$_}++ }
        map { pick('a.c', 'b.h', 'c.c', 'inc_only.c', 'missing.c', '???') } 1 .. 1 + r(3);

    my %len;
    for my $f (@files) {
        next if $f eq 'missing.c' || $f eq '???';
        my $n = r(40);
        $len{$f} = $n;
        my $text = join '', map { "line $_ of $f\n" } 1 .. $n;
        chop $text if $n && r(5) == 0;                  # no final newline
        write_file($f eq 'inc_only.c' ? "inc/$f" : $f, $text);
    }

    my $data = '';
    $data .= "desc: I1 cache: 32768 B\n" if r(2);
    $data .= "cmd: ./prog arg\n";
    $data .= "events: @events" . (r(2) ? " \n" : "\n");
    my @sum = (0) x @events;
    my $fn = 0;
    for my $f (@files) {
        $data .= "fl=$f\n";
        for (1 .. 1 + r(3)) {
            $fn++;
            $data .= "fn=func$fn\n";
            for (1 .. 1 + r(6)) {
                my $k = r(20);
                my $line = $k == 0 ? 0 : $k == 1 ? -1 - r(5) : 1 + r(($len{$f} // 20) + 6);
                my @c;
                for (@events) {
                    my $kk = r(12);
                    push @c, $boundary && r(2)
                        ? pick(1, 99995, 99994, 99996, 9995, 10005, -9995, -9994, -9996, 100, 50,
                               999, 1000, 1001, 99999, 100000, 199990, 19999, 9999)
                        : $kk == 0 ? '.' : $kk == 1 ? 0 : $kk == 2 ? 0 - r(1000)
                        : $kk == 3 ? r(10**(1 + r(8))) : r(5000);
                }
                pop @c while @c && r(6) == 0;               # missing trailing counts
                for my $e (0 .. $#c) { $sum[$e] += $c[$e] unless $c[$e] eq '.' }
                my $sep  = r(8) == 0 ? pick('  ', "\t", " \t ") : ' ';
                my $tail = r(8) == 0 ? pick(' ', "\t", '  ') : '';
                $data .= join($sep, $line, @c) . "$tail\n";
                $data .= pick("# comment\n", "\n", "   \n") if r(30) == 0;
            }
        }
    }
    if ($boundary) { @sum = map { pick(1000, 10000, 100000, 200000, 99995) } @sum }
    if (r(6) == 0) { $sum[ r(scalar @sum) ] = pick('.', 0, 1000000, r(100)) }
    $data .= "summary: @sum\n";
    write_file('cg.out', $data);
    utime 1000000000, 1000000000, 'cg.out' if r(3) == 0;   # older than the sources

    my @args;
    push @args, '--context=' . pick(0, 1, 2, 3, 8, '1.5', '0.5', '05') if r(2);
    push @args, '--threshold=' . pick(0, '0.1', 1, 5, 20, '5%', '0.50', '2.5') if r(3) == 0;
    if (r(3) == 0) {
        my @s = map { pick(@events) } 1 .. 1 + r(3);
        @s = map { r(3) == 0 ? "$_:" . pick(0, 1, 5, 50, '2.5', '10%') : $_ } @s;
        push @args, '--sort=' . join(',', @s);
    }
    push @args, '--show=' . join(',', map { pick(@events) } 1 .. 1 + r(3)) if r(3) == 0;
    push @args, '--show-percs=no' if r(4) == 0;
    push @args, '--auto=no' if r(6) == 0;
    push @args, '-Iinc' if r(2);
    push @args, 'cg.out';
    my @existing = grep { -f $_ } @files;
    push @args, pick(@existing) if @existing && r(4) == 0;

    my $got = sort_blocks(run($ours, @args));
    my $expected;
    for my $hash_seed (1 .. 12) {
        local $ENV{PERL_HASH_SEED} = $hash_seed;
        my $o = sort_blocks(run($oracle, @args));
        $expected //= $o;
        if ($o eq $got) { $expected = $o; last }
    }
    if ($got eq $expected) { $same++; next }
    $failed++;
    my $where = "$keep/$seed-$case";
    make_path($where);
    system('cp', '-a', "$dir/.", "$where/");
    write_file("$where/ARGS", "@args\n");
    write_file("$where/expected", $expected);
    write_file("$where/got", $got);
    print "FAIL $where: @args\n";
}
chdir "/";
print "seed $seed: $same same, $failed different\n";
exit($failed ? 1 : 0);

sub write_file {
    my ($path, $text) = @_;
    open(my $fh, '>', $path) or die "$path: $!";
    print $fh $text;
    close $fh;
}

sub run {
    my (@cmd) = @_;
    open(my $fh, '-|') // die "fork: $!" or do {
        open(STDERR, '>', '/dev/null');
        exec { $cmd[0] } @cmd;
        exit 127;
    };
    local $/;
    my $out = <$fh> // '';
    close $fh;
    return $out;
}

# Annotation blocks sorted by file name.
sub sort_blocks {
    my ($text) = @_;
    my $fancy = '-' x 80;
    my @l = split /^/, $text;
    my @starts = grep { $l[$_] =~ /^-- (?:User|Auto)-annotated source: / } 0 .. $#l;
    return $text if @starts < 2;
    my $end = @l;
    for my $i ($starts[-1] + 2 .. $#l) {
        if ($l[$i] eq "$fancy\n") { $end = $i; last }
    }
    my @blocks;
    for my $k (0 .. $#starts) {
        my $e = $k < $#starts ? $starts[ $k + 1 ] - 1 : $end;
        my ($name) = $l[ $starts[$k] ] =~ /source: (?:\S+ \+ )?(.*)$/;
        push @blocks, [$name, join '', @l[ $starts[$k] - 1 .. $e - 1 ]];
    }
    return join '', @l[0 .. $starts[0] - 2],
        (map { $_->[1] } sort { $a->[0] cmp $b->[0] } @blocks), @l[$end .. $#l];
}
