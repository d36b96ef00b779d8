#!/usr/bin/perl
# roundtrip.t -- files flow both ways between our programs and Valgrind
# 3.19's: the system cg_annotate reads what our tool writes, and our
# cg_annotate reads what the system Cachegrind writes, with the same
# report either way.  Files of the models 3.19 does not have (a middle
# level, its events and policy lines: manual 5.8) are read by 3.19's
# cg_annotate, cg_merge and cg_diff, and by ours, with the file's totals.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use File::Temp qw(tempdir);
use Test::More;
use CgTest qw(:all);

my $top = top_dir();
-x ours_valgrind() && -x "$top/cg_annotate"
    or BAIL_OUT('build the tree first (sh scripts/build.sh)');
-x '/usr/bin/cg_annotate' or plan skip_all => 'no system cg_annotate';

my $progs = build_progs();
simulate_caches();   # the files carry the cache events, with any release
my $dir = tempdir('cgrt-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);

sub annotate {
    my $r = run_captured($dir, @_);
    return ($r->{status}, $r->{out} . $r->{err});
}

for my $case (['matrix_walk-O2', []], ['branches-O2', ['--branch-sim=yes']],
              ['indirect-O0', ['--cache-sim=no']]) {
    my ($prog, $opts) = @$case;
    my $pair = run_pair($opts, [$progs->{$prog}]);
    my $label = case_label($prog, $opts);
    my ($ref_file, $our_file) = ("$dir/ref.out", "$dir/ours.out");
    spew($ref_file, $pair->{ref}{files}[0]{content});
    spew($our_file, $pair->{ours}{files}[0]{content});

    my ($st1, $sys_on_ours) = annotate('/usr/bin/cg_annotate', 'ours.out');
    my ($st2, $sys_on_ref)  = annotate('/usr/bin/cg_annotate', 'ref.out');
    # 3.19's layout, whatever the release built against makes the default.
    my ($st3, $our_on_ref)  = annotate("$top/cg_annotate", '--layout=3.19', 'ref.out');
    is($st1, 0, "$label: the system cg_annotate reads our tool's file");
    is($st3, 0, "$label: our cg_annotate reads the system Cachegrind's file");
    # Only the "Data file:" line names the file.  3.19 prints tied rows
    # and annotated files in Perl's random hash order (ours sorts them),
    # so the reports are compared as sorted lists of lines.
    my $lines = sub { join("\n", sort split /\n/, $_[0]) };
    my $without_data_file = sub { $_[0] =~ s/^Data file:.*$//mr };
    is($lines->($without_data_file->($sys_on_ours)),
       $lines->($without_data_file->($sys_on_ref)),
       "$label: same 3.19 report from either tool's file");
    is($lines->($our_on_ref), $lines->($sys_on_ref),
       "$label: our cg_annotate prints the lines 3.19 prints");
}

# A middle level with its events, and policy desc: lines: every reader
# of either release takes the file and finds its summary.
{
    my @opts = ('--I1=32768,8,64', '--D1=32768,8,64', '--L2=262144,8,64',
                '--LL=1048576,16,64', '--L2-policy=srrip', '--LL-policy=brrip');
    my $o = run_ours(\@opts, [$progs->{'matrix_walk-O2'}]);
    my ($main) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $o->{files} };
    ok($main, '--L2: a main file') or diag($o->{stderr});
    SKIP: {
        skip 'no main file', 9 unless $main;
        my $p = parse_cgout(\$main->{content});
        is("@{ $p->{event_names} }", 'Ir I1mr I2mr ILmr Dr D1mr D2mr DLmr Dw D1mw D2mw DLmw',
           '--L2: the L2 events between the L1 and LL ones');
        my @sum = split ' ', $p->{summary};
        spew("$dir/l2.out", $main->{content});
        for my $reader ('/usr/bin/cg_annotate', "$top/cg_annotate") {
            my ($st, $text) = annotate($reader, 'l2.out');
            is($st, 0, "--L2: $reader reads the file");
            my ($totals) = $text =~ /^(.*PROGRAM TOTALS)/m;
            my @shown = map { s/,//gr } ($totals // '') =~ /([\d,]+)(?: \([\d.]+%\))?/g;
            is("@shown", "@sum", "--L2: $reader shows the file's totals");
        }
        for my $merge ('/usr/bin/cg_merge', "$top/cg_merge") {
            my ($st) = annotate($merge, '-o', 'merged.out', 'l2.out', 'l2.out');
            my $m = -f "$dir/merged.out" ? parse_cgout(\slurp("$dir/merged.out")) : {};
            is(join(' ', split ' ', $m->{summary} // ''), join(' ', map { 2 * $_ } @sum),
               "--L2: $merge adds two copies (exit $st)");
            unlink "$dir/merged.out";
        }
        for my $diff ('/usr/bin/cg_diff', "$top/cg_diff") {
            my ($st, $text) = annotate($diff, 'l2.out', 'l2.out');
            like($text, qr/^summary:( 0){12}$/m, "--L2: $diff of the file with itself is zero (exit $st)");
        }
    }
}

done_testing();
