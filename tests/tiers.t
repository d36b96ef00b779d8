#!/usr/bin/perl
# tiers.t -- cold and hot translations (cg_tier.c).
#
# With --hot-threshold above 0 (the default is 0), a block is first
# translated cold (one helper call per event group, which runs in C the
# MRU tests a hot translation's group checker makes) and translated
# again, hot, once it has run --hot-threshold times.  The
# counts must not depend on which translation ran, or when the switch
# happened: every run here is compared byte for byte with the system
# Cachegrind.  Thresholds of 1 and 5 promote nearly every block, in
# batches, while the program runs (and, with threads, while others run);
# 0 translates everything hot at once.  --stats=yes says how many blocks
# were promoted, so the tests check that the path they mean to test was
# taken, and its tool statistics must stay the reference's (a second
# translation of a block is not a new one).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults
my $progs = build_progs();

# "translations: ..." from a --stats=yes run of ours.
sub tier_report {
    my ($cmd, $opts) = @_;
    my $res = run_ours(['--stats=yes', @$opts], $cmd);
    return $res->{stderr} =~ /^--\d+-- (translations: .*)$/m ? $1 : '(none)';
}

for my $name (qw(matrix_walk-O0 pointer_chase-O2 branches-O2 strings-O2 simd-O2
                 recursion-O0 indirect-O2 unaligned-O2 atomics-O2 threads-O2
                 signals-O0 jitcode-O2)) {
    next unless $progs->{$name};
    for my $threshold (0, 1, 5) {
        for my $branch ([], ['--branch-sim=yes']) {
            my $label = "$name --hot-threshold=$threshold"
                        . (@$branch ? ' --branch-sim=yes' : '');
            # Which thread the host kernel lets run first changes the
            # counts of threads-O2 (see progs/threads.c): pinned to one
            # CPU, with a few attempts to find a matching pair, as in
            # diff-progs.t.
            my @sched = $name =~ /^threads/ ? (cpu => 0, attempts => 6) : ();
            matches_reference($label, [$progs->{$name}], ["--hot-threshold=$threshold"],
                              common => $branch, expect_files => 1, @sched);
        }
    }
}

# The promotion path is taken: with a threshold of 1 nearly every block
# that runs twice is translated again.
{
    my $report = tier_report([$progs->{'matrix_walk-O2'}], ['--hot-threshold=1']);
    like($report, qr/^translations: \d+ cold, ([1-9]\d*) of them promoted to hot after 1 executions/,
         '--hot-threshold=1: blocks were promoted') or diag($report);
    my ($cold, $promoted) = $report =~ /(\d+) cold, (\d+) of them/;
    cmp_ok($promoted // 0, '>', ($cold // 0) / 2, '--hot-threshold=1: most cold blocks were promoted');
    like(tier_report([$progs->{'matrix_walk-O2'}], ['--hot-threshold=0']),
         qr/^translations: all hot$/, '--hot-threshold=0: everything hot at once');
    like(tier_report([$progs->{'matrix_walk-O2'}], []),
         qr/^translations: all hot$/, 'the default threshold is 0: all hot');
}

# Hot translations make their checks in group checkers (cg_checkers.c);
# the runs above compared their counts with the reference, this checks
# that checkers were in fact made and have both paths.
{
    my $res = run_ours(['--stats=yes', '--hot-threshold=0'], [$progs->{'matrix_walk-O2'}]);
    my ($n, $hit, $miss) = $res->{stderr}
        =~ /^--\d+-- group checkers: (\d+), (\d+) bytes of hit paths, (\d+) of miss paths$/m;
    cmp_ok($n // 0, '>', 100, '--hot-threshold=0: hot groups make their checks in checkers');
    cmp_ok($hit // 0, '>', 0, '--hot-threshold=0: checkers have hit paths');
    cmp_ok($miss // 0, '>', 0, '--hot-threshold=0: checkers have miss paths');
}

# By default groups of the same shape share a checker that reads their
# constants from a descriptor (--checker-descriptors=yes, which the runs
# above used); with =no each group has its own, and its miss paths do
# the log helpers' work inline for the first --inline-miss-paths bytes
# of checkers, and call the chunk's routines after.  Both kinds, and
# both kinds of miss path, on the fixtures with straddles (unaligned),
# other sizes (x87), vector accesses (simd), string instructions and
# branches: all routines (0) and all inline (1 GB).
for my $mode (['--checker-descriptors=yes'],
              # a full shape table: no shape shared, or the first few only
              ['--checker-shapes=0'], ['--checker-shapes=20'],
              ['--checker-descriptors=no', '--inline-miss-paths=0'],
              ['--checker-descriptors=no', '--inline-miss-paths=' . (1 << 30)],
              # the long forms, for counters and constants out of 32 bits' reach
              ['--checker-descriptors=no', '--inline-miss-paths=' . (1 << 30),
               '--checker-wide-constants=yes'],
              ['--checker-wide-constants=yes']) {
    for my $name (qw(unaligned-O2 x87-O0 simd-O2 strings-O2 branches-O2 indirect-O2)) {
        matches_reference("$name @$mode --branch-sim=yes", [$progs->{$name}], $mode,
                          common => ['--branch-sim=yes'], expect_files => 1);
    }
}
# --checker-wide-constants=yes makes group checkers use the long forms
# (a counter or a count through a 64-bit address, an MRU comparison or
# store with a 64-bit constant) that a process whose memory lies far
# apart would need and no test process does: the counts above, and here
# that the option reaches them (longer hit paths, longer miss paths).
{
    my @own = ('--stats=yes', '--checker-descriptors=no', '--branch-sim=yes',
               '--inline-miss-paths=' . (1 << 30));
    my $bytes = sub {
        my ($res) = @_;
        return $res->{stderr} =~ /^--\d+-- group checkers: \d+, (\d+) bytes of hit paths, (\d+) of miss paths$/m
            ? ($1, $2) : (0, 0);
    };
    my ($hit, $miss) = $bytes->(run_ours([@own], [$progs->{'branches-O2'}]));
    my ($wide_hit, $wide_miss) =
        $bytes->(run_ours([@own, '--checker-wide-constants=yes'], [$progs->{'branches-O2'}]));
    cmp_ok($hit, '>', 0, 'group checkers made');
    cmp_ok($wide_hit, '>', $hit, '--checker-wide-constants=yes: longer hit paths');
    cmp_ok($wide_miss, '>', $miss, '--checker-wide-constants=yes: longer miss paths');
}
# A shared checker finds a fetch's I1 mirror slot from its block's set
# bits: I1s of two sets (a straddle's two lines in the two sets; the
# access log, and so the checkers, needs more than one set) against the
# reference.  straddle_loop is laid out so that, with two ways, a
# straddle whose second line were not made MRU in the mirror would
# change the I1 misses (checked: 1,000 more with that mirror store
# removed).
# The same for a group's own checker with the long forms, whose inline
# miss paths store a fetch's blocks into the mirror with 64-bit
# constants (checked: without the store of a straddle's second block,
# both cases here fail).
for my $i1 ('--I1=256,2,64', '--I1=1024,8,64') {
    for my $name (qw(straddle_loop-O2 straddle_loop-O0 unaligned-O2 strings-O2
                     branches-O2)) {
        matches_reference("$name $i1 --checker-descriptors=yes", [$progs->{$name}],
                          ['--checker-descriptors=yes'],
                          common => [$i1, '--branch-sim=yes'], expect_files => 1);
    }
    my @wide = ('--checker-descriptors=no', '--inline-miss-paths=' . (1 << 30),
                '--checker-wide-constants=yes');
    for my $name (qw(straddle_loop-O2 unaligned-O2)) {
        matches_reference("$name $i1 @wide", [$progs->{$name}], \@wide,
                          common => [$i1, '--branch-sim=yes'], expect_files => 1);
    }
}
# A shared checker's data test reads line - size from a byte of its
# descriptor (so that sizes share a checker); with 512-byte D1 lines
# that does not fit, and the accesses keep checkers of their size.
# Both kinds against the reference: 64-byte lines, and 512-byte D1
# lines (the access log stays on while another level's lines are
# shorter than 256 bytes).
for my $d1 ('--D1=32768,8,64', '--D1=65536,2,512') {
    for my $name (qw(unaligned-O2 strings-O2 matrix_walk-O2)) {
        matches_reference("$name $d1 --checker-descriptors=yes", [$progs->{$name}],
                          ['--checker-descriptors=yes'],
                          common => [$d1], expect_files => 1);
    }
}
{
    my $shared = run_ours(['--stats=yes'], [$progs->{'matrix_walk-O2'}]);
    my ($shapes) = $shared->{stderr} =~ /^--\d+-- checker descriptors: (\d+) shapes shared, \d+ bytes$/m;
    my ($made) = $shared->{stderr} =~ /^--\d+-- group checkers: (\d+),/m;
    cmp_ok($shapes // 0, '>', 0, 'by default groups share checkers by shape');
    is($made, $shapes, 'one checker per shape');
    my $own = run_ours(['--stats=yes', '--checker-descriptors=no'], [$progs->{'matrix_walk-O2'}]);
    my ($own_made) = $own->{stderr} =~ /^--\d+-- group checkers: (\d+),/m;
    unlike($own->{stderr}, qr/checker descriptors:/, '--checker-descriptors=no: no shared checkers');
    cmp_ok($own_made // 0, '>', $made // 0, '--checker-descriptors=no: more checkers, one per group');
    my $few = run_ours(['--stats=yes', '--checker-shapes=20'], [$progs->{'matrix_walk-O2'}]);
    like($few->{stderr}, qr/^--\d+-- checker descriptors: 20 shapes shared, \d+ bytes$/m,
         '--checker-shapes=20: twenty shapes shared, the other groups have their own');
}
# jitcode (compared above) reaches the discard path: both its unmapped
# pages and its code rewritten in place discard translations, about
# twice a round for 600 rounds.
if ($progs->{'jitcode-O2'}) {
    my $run = run_ours(['--stats=yes'], [$progs->{'jitcode-O2'}]);
    my ($discarded) = $run->{stderr} =~ /^--\d+--\s+transtab: discarded\s+([\d,]+)/m;
    ($discarded //= '0') =~ tr/,//d;
    cmp_ok($discarded, '>=', 600, 'jitcode: translations were discarded')
        or diag($run->{stderr});
}
{
    my $help = run_captured(top_dir(), ours_valgrind(), '--tool=cachegrind', '--help-debug');
    like($help->{out}, qr/^    --checker-descriptors=no\|yes +groups of the same shape .*?\[yes\]$/ms,
         '--help-debug lists --checker-descriptors with its default');
    like($help->{out}, qr/^    --checker-shapes=<n> +at most <n> shapes share checkers.*?\[32768\]$/ms,
         '--help-debug lists --checker-shapes with its default');
    like($help->{out}, qr/^    --inline-miss-paths=<n> +with --checker-descriptors=no, .*?\[4194304\]$/ms,
         '--help-debug lists --inline-miss-paths with its default');
}

# Without the access log (--cache-sim=no; 256-byte lines) there are no
# inline tests to defer: everything is hot.
for my $case (['--cache-sim=no'], ['--I1=65536,2,256', '--D1=65536,2,256', '--LL=1048576,4,256']) {
    like(tier_report([$progs->{'matrix_walk-O2'}], $case), qr/^translations: all hot$/,
         "@$case: no cold translations");
}

# A real program, many blocks promoted in batches.
matches_reference('xz --hot-threshold=1', ['/usr/bin/xz', '-1', '-T1', '-c', '/usr/bin/xz'],
                  ['--hot-threshold=1'], expect_files => 1);

# --stats=yes: the tool's statistics are the reference's whatever the
# threshold (retranslations for a promotion are not counted).
for my $threshold (1, 300) {
    my $ref  = run_ref(['--stats=yes'], ['/bin/ls', '/']);
    my $ours = run_ours(['--stats=yes', "--hot-threshold=$threshold"], ['/bin/ls', '/']);
    my @stats = map { [ map { s/^--\d+--//r } grep { /^--\d+-- cachegrind: / }
                        split /\n/, $_->{stderr} ] } ($ref, $ours);
    cmp_ok(scalar @{ $stats[0] }, '>', 10, "--stats=yes --hot-threshold=$threshold: the reference prints its lines");
    is_deeply($stats[1], $stats[0], "--stats=yes --hot-threshold=$threshold: same tool statistics");
}

# The option itself.
{
    my $res = run_ours(['--hot-threshold=-1'], ['/bin/true']);
    is($res->{status} >> 8, 1, '--hot-threshold=-1: exit status 1');
    like($res->{stderr}, qr/--hot-threshold' argument must be between 0 and/,
         '--hot-threshold=-1: names the option');
    my $help = run_captured(top_dir(), ours_valgrind(), '--tool=cachegrind', '--help');
    like($help->{out}, qr/^    --hot-threshold=<n> +translate a block first .*?\[0\]$/ms,
         '--help lists --hot-threshold with its default');
}

done_testing();
