#!/usr/bin/perl
# Differential test on real installed programs (bzip2, xz, sqlite3, perl)
# with small generated inputs: the system Cachegrind and ours must agree
# on exit status, client stdout, the output file (byte for byte) and the
# normalised stderr. A program that is not installed is skipped.
#
# Environment: CG_ALLOW_SKIP, CG_JOBS, CG_ONLY, CG_KEEP_TMP as in
# diff-progs.t.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/lib";
use File::Spec;
use File::Temp qw(tempdir);
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults

# Inputs live in one directory shared by the reference and our runs, so
# that both see exactly the same command line.
my $in_dir = tempdir('cgreal-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);

# Deterministic word salad, LCG-driven, newline every 12 words.
sub gen_text {
    my ($bytes, $seed) = @_;
    my @w = qw(alpha beta gamma delta cache line miss hit branch predict
               simulate valgrind tool memory access store load fetch way set
               tag victim evict dirty clean prefetch stride sequential);
    my ($out, $n) = ('', 0);
    while (length($out) < $bytes) {
        $seed = ($seed * 1103515245 + 12345) % 2147483648;
        $out .= $w[($seed >> 8) % @w];
        $out .= (++$n % 12) ? ' ' : "\n";
        $out .= ($seed % 1000) . ' ' if $seed % 7 == 0;
    }
    return substr($out, 0, $bytes);
}

my $text200 = File::Spec->catfile($in_dir, 'words-200k.txt');
my $text100 = File::Spec->catfile($in_dir, 'words-100k.txt');
spew($text200, gen_text(200_000, 4711));
spew($text100, gen_text(100_000, 1234));

my $SQL = join(' ',
    'CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);',
    'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000)',
    "INSERT INTO t SELECT x, 'row' || x, x * 0.5 FROM n;",
    'CREATE INDEX tb ON t(b);',
    'SELECT count(*), sum(a), min(b), max(c) FROM t;',
    'SELECT b, c FROM t WHERE a % 250 = 0 ORDER BY b DESC;',
    'UPDATE t SET c = c * 2 WHERE a % 3 = 0;',
    'SELECT sum(c) FROM t;');

my $PERL_CODE = 'my %h; my $s = 0; for my $i (1 .. 20000) { $s += ($i * $i) % 7; '
              . '$h{$i % 97} .= chr(65 + $i % 26) } '
              . 'my $l = 0; $l += length($h{$_}) for sort keys %h; print "$s $l\n"';

# name => [ program, [args], { run_valgrind args } ]
my @PROGRAMS = (
    [bzip2   => 'bzip2',   ['-c', $text200], {}],
    [xz      => 'xz',      ['-c', '-1', '-T1', $text100], {}],
    [sqlite3 => 'sqlite3', [':memory:', $SQL], {}],
    # Fixed hash seed: Perl otherwise randomises its hash function per
    # process, which changes the work done from run to run.
    [perl    => 'perl',    ['-e', $PERL_CODE],
        { env => { PERL_HASH_SEED => '0', PERL_PERTURB_KEYS => '0' } }],
);
my @OPTSETS = ([], ['--branch-sim=yes']);

my (@cases, @skipped);
for my $p (@PROGRAMS) {
    my ($name, $prog, $args, $run) = @$p;
    my $path = which($prog);
    if (!$path) {
        push @skipped, $name;
        next;
    }
    for my $opts (@OPTSETS) {
        push @cases, { label => case_label($name, $opts), opts => [@$opts],
                       cmd => [$path, @$args], run => $run };
    }
}

SKIP: {
    skip("$_ is not installed", 1) for @skipped;
}

my $identical = 0;
my $n = run_cases(\@cases, sub {
    my ($c, $r) = @_;
    my ($ref, $ours) = ($r->{ref}, $r->{ours});
    is($ref->{status}, 0, "$c->{label}: reference exit status 0")
        or diag("  ref stderr:\n$ref->{stderr}");
    ok(length($ref->{stdout}) > 0, "$c->{label}: reference client output");
    $identical++ if compare_runs($ref, $ours, $c->{label}, expect_files => 1);
});

diag("compared $n real-program x option cases, $identical identical"
     . (@skipped ? ' (not installed: ' . join(', ', @skipped) . ')' : ''));
done_testing();
