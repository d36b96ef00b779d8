#!/usr/bin/perl
# refmodel.t -- the tests' reference cache model, tests/refmodel/cgref.c:
# a plain simulator of its own (no code of the tool's), driven by an
# address trace.  It is checked itself: on the tests/progs programs
# (straddling fetches, x87 and vector sizes, string instructions,
# atomics, unaligned accesses) and three geometries, its totals on the
# trace Valgrind's Lackey records (--trace-mem=yes) must equal the system
# Cachegrind's summary (up to three tries: ld.so reads a few tables at
# addresses picked by the kernel's random bytes, so two runs can differ
# by an access in tiny caches).  Then it is the oracle for ours: every
# run of ours records its own trace (--trace-out-file, a debug option:
# every access in the simulation's order, each fetch with its cost
# centre), and the model on it must give ours' totals and every line's
# counts -- under those geometries (LRU), each replacement policy of
# manual 5.7 (seeds included, with and without the access log), a
# middle level (5.8), both inclusion modes (5.9), the prefetchers (5.10,
# stride included), write-backs (5.12), line use (5.13) and the CPU
# presets (5.11).  The model's line use is checked on hand-made traces,
# in total and per cost centre (the loader charged when its line leaves).
# Known answers: a cyclic scan that defeats LRU and not BRRIP, working
# sets that fit D1, L2, LL, L2 with an exclusive LL, or nothing, scans
# the prefetchers hide, the scan's line use (refmodel/cyclic.c), and a
# write loop's write-backs (refmodel/writes.c), known by construction.
# Bad values of the new options end the run with the option named.
#
# Environment: as for every CgTest file (CG_JOBS, CG_ONLY, CG_KEEP_TMP).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use File::Spec;
use File::Temp qw(tempdir);
use Test::More;
use CgTest qw(:all);

require_tools();
my ($have_lackey, $why) = have_ref_tool('lackey');
plan skip_all => "no trace to drive the reference model: $why" unless $have_lackey;

my $CC = defined $ENV{CC} && $ENV{CC} ne '' ? $ENV{CC} : 'gcc';
my $src = File::Spec->catfile(tests_dir(), 'refmodel', 'cgref.c');
my $cgref = eval {
    build_one(File::Spec->catfile(build_root(), 'refmodel', 'cgref'), [$src],
              $CC, '-O2', '-Wall', $src);
};
ok($cgref, 'built the reference model') or BAIL_OUT("cannot build $src: $@");
my $progs = build_progs();

# The model's line use (manual 5.13) on traces small enough to work out
# by hand: I1/D1 1 KiB 2-way, LL 8 KiB 4-way, 64-byte lines unless said.
# A line is charged once, when it is evicted or at the end of the run:
# SpLoss = line - bytes used, AcCost = 1000 / uses (rounded down).
{
    my @g = ('--I1=1024,2,64', '--D1=1024,2,64', '--LL=8192,4,64', '--cacheuse=yes');
    my @tiny = ('--I1=1024,2,64', '--D1=64,1,64', '--LL=256,2,64', '--cacheuse=yes');
    my $ababaca = join('', map { " L 000$_,4\n" } qw(1000 1080 1000 1080 1000 1100 1000));
    my @hand = (
        # One 4-byte fetch and one 4-byte read: two lines, each 60 bytes
        # unused and used once (1000), in the L1s and in LL alike.
        ["I  0400000,4\n L 0001000,4\n", [@g], '120 120 2000 2000'],
        # Sixteen reads cover the data line: nothing lost, 1000/16 = 62;
        # the fetch's line as before.
        ["I  0400000,4\n" . join('', map { sprintf(" L %07x,4\n", 0x1000 + 4 * $_) } 0 .. 15),
         [@g], '60 60 1062 1062'],
        # A direct-mapped D1 of two lines: 0x1000, 0x1200 and 0x1400 share
        # set 0 and evict each other: 3 data lines and the fetch's, each
        # 60 lost and used once, in D1 and (holding all) in LL.
        ["I  0400000,4\n L 0001000,4\n L 0001200,4\n L 0001400,4\n",
         ['--I1=1024,2,64', '--D1=128,1,64', '--LL=8192,4,64', '--cacheuse=yes'],
         '240 240 4000 4000'],
        # A 4-byte read straddling two lines, 2 bytes in each: 62 lost in
        # each, plus the fetch's 60; three lines used once.
        ["I  0400000,4\n L 000103e,4\n", [@g], '184 184 3000 3000'],
        # LL lines of 128 bytes are 64 chunks of 2: 4 bytes are 2 chunks,
        # 124 lost in each of LL's two lines.
        ["I  0400000,4\n L 0001000,4\n",
         ['--I1=1024,2,64', '--D1=1024,2,64', '--LL=8192,4,128', '--cacheuse=yes'],
         '120 248 2000 2000'],
        # 1000 reads of one line and 1001 of another (same D1 set, 2 ways:
        # both stay): AcCost 1000/1000 = 1 and 1000/1001 = 0, plus the
        # fetch's 1000; SpLoss 60 for each of the three lines.
        ["I  0400000,4\n" . (" L 0001000,4\n" x 1000) . (" L 0002000,4\n" x 1001),
         [@g], '180 180 1001 1001'],
        # Records stay with their way under a policy.  D1 of one line (each
        # read misses it: 7 lines of 60 lost, 1000 each); LL of 2 sets x 2
        # ways, where A = 0x1000, B = 0x1080, C = 0x1100 share set 0; reads
        # A B A B A C A.  srrip: A fill 2, B fill 2, hits A 0, B 0, A 0; C
        # ages both to 3 and takes way 0: A leaves used 3 times (60, 333);
        # the last A takes B's way 1 (C 2, B 3): B leaves (60, 500); at
        # the end C and A, once each (60, 1000 each): 240, 2833.  lru: C
        # evicts B, the least recent (60, 500); the last A hits, A used 4
        # times (60, 250), C once (60, 1000): 180, 1750.
        [$ababaca, [@tiny, '--LL-policy=srrip'], '420 240 7000 2833'],
        [$ababaca, [@tiny], '420 180 7000 1750'],
    );
    my $dir = tempdir('cgref-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    for my $i (0 .. $#hand) {
        my ($trace, $opts, $want) = @{ $hand[$i] };
        open(my $fh, '>', "$dir/hand$i") or die "$dir/hand$i: $!";
        print $fh $trace;
        close $fh;
        my ($totals) = run_model("$dir/hand$i", $opts, 0);
        my @t = split ' ', $totals // '';
        is("@t[-4 .. -1]", $want, "model, hand trace $i: SpLoss1 SpLoss2 AcCost1 AcCost2");
    }

    # Per cost centre (--per-cc, traces in --trace-out-file's format: a
    # fetch names its cost centre, the reads after it are its): a line is
    # charged to its loader when it leaves, whichever access evicts it.
    my @per_cc = (
        # D1 of 2 direct-mapped lines; main:10 to main:13 fetch from one
        # I1 line (0x400000) and read:
        #   10 reads 0x1000-3: D1 and LL miss, loader 10 of both lines
        #   11 reads 0x1008-f: D1 hit, a use (its line: 12 bytes, 2 uses)
        #   12 reads 0x1200: D1 set 0 again: evicts 0x1000's line, 10 is
        #      charged 64 - 12 = 52 and 1000/2 = 500; 12 loads the line
        #      in D1 and LL
        #   13 reads 0x1004-7: D1 miss, evicts 0x1200's (12: 60, 1000)
        #      and loads it again in D1; an LL hit (LL's line, loaded by
        #      10, has 3 uses, bytes 0-15)
        # At the end: I1's line and LL's (4 fetches, 16 bytes: 48, 250
        # each, to 10, although 11-13 hit), D1's 0x1000 (13: 60, 1000),
        # LL's 0x1000 (10: 48, 1000/3 = 333) and 0x1200 (12: 60, 1000).
        # 10: SpLoss1 48 + 52, SpLoss2 48 + 48, AcCost1 250 + 500, AcCost2
        # 250 + 333; 11 nothing; 12: 60 60 1000 1000; 13: 60 0 1000 0.
        ["I  0400000,4 0\n L 0001000,4\nI  0400004,4 1\n L 0001008,8\n"
         . "I  0400008,4 2\n L 0001200,4\nI  040000c,4 3\n L 0001004,4\n"
         . "C 0 10\tf.c\tmain\nC 1 11\tf.c\tmain\nC 2 12\tf.c\tmain\n"
         . "C 3 13\tf.c\tmain\n",
         ['--I1=1024,2,64', '--D1=128,1,64', '--LL=8192,4,64', '--cacheuse=yes'],
         '4 1 1 4 3 2 0 0 0 220 156 2750 1583',
         { 10 => '1 1 1 1 1 1 0 0 0 100 96 750 583',
           11 => '1 0 0 1 0 0 0 0 0 0 0 0 0',
           12 => '1 0 0 1 1 1 0 0 0 60 60 1000 1000',
           13 => '1 0 0 1 1 0 0 0 0 60 0 1000 0' }],
        # With an L2 (not tracked; its misses before LL's) and 128-byte LL
        # lines (64 chunks of 2 bytes):
        #   20 fetches 0x400000-3 and reads 0x1001-2: I1 line 2 fetches,
        #      8 bytes (56, 500); LL's 8 bytes = chunks 0-3 (120, 500);
        #      D1 0x1000 2 bytes (62, 1000); LL 0x1000, bytes 1-2: chunks
        #      0 and 1, 4 bytes
        #   21 fetches 0x400004-7 (hits) and reads 0x107f-0x1080: a
        #      straddle in D1 (0x1040 byte 63, 0x1080 byte 0: 63, 1000
        #      each, loader 21) and in LL: 0x1000's chunk 63 (an LL hit:
        #      its line, loaded by 20, has 2 uses, 3 chunks: 122, 500)
        #      and 0x1080's chunk 0 (a miss, 21's: 126, 1000)
        # 20: SpLoss1 56 + 62, SpLoss2 120 + 122, AcCost1 1500, AcCost2
        # 1000; 21: 126 126 2000 1000.  D1mr 1 and 126 lost: a straddle
        # that misses both lines loads two.
        ["I  0400000,4 0\n L 0001001,2\nI  0400004,4 1\n L 000107f,2\n"
         . "C 0 20\tg.c\tf\nC 1 21\tg.c\tf\n",
         ['--I1=1024,2,64', '--D1=1024,2,64', '--L2=4096,4,64', '--LL=8192,4,128',
          '--cacheuse=yes'],
         '2 1 1 1 2 2 2 2 0 0 0 0 244 368 3500 2000',
         { 20 => '1 1 1 1 1 1 1 1 0 0 0 0 118 242 1500 1000',
           21 => '1 0 0 0 1 1 1 1 0 0 0 0 126 126 2000 1000' }],
    );
    for my $i (0 .. $#per_cc) {
        my ($trace, $opts, $want, $want_lines) = @{ $per_cc[$i] };
        open(my $fh, '>', "$dir/cc$i") or die "$dir/cc$i: $!";
        print $fh $trace;
        close $fh;
        my ($totals, $lines) = run_model("$dir/cc$i", $opts, 1);
        is($totals, $want, "model, per-cc hand trace $i: totals");
        my ($file, $fn) = $trace =~ /^C \d+ \d+\t([^\t]*)\t(.*)$/m;
        is(join(', ', map { "$_: " . (($lines // {})->{"$file\0$fn\0$_"} // '(absent)') }
                      sort keys %$want_lines),
           join(', ', map { "$_: $want_lines->{$_}" } sort keys %$want_lines),
           "model, per-cc hand trace $i: each line, charged to its loader");
    }
}

# Geometries (I1, D1, LL): a usual machine's; small caches with 32-byte
# lines under a 128-byte LL line (every kind of straddle, many misses);
# direct-mapped ones.
my @GEOMETRIES = (
    ['--I1=32768,8,64', '--D1=32768,8,64', '--LL=1048576,16,64'],
    ['--I1=1024,2,32',  '--D1=2048,4,32',  '--LL=16384,8,128'],
    ['--I1=4096,1,64',  '--D1=4096,1,64',  '--LL=65536,1,64'],
);

# The policies, each with its generator's seed, on the first two
# geometries (their LLs have 16 and 8 ways: plru's power of two).
# The L1s take plru and random, under which their MRU filter stays
# exact; one setting runs without the log too (--interval-size: the
# model keeps the mirrors, and compiled code calls it at once).
my @POLICIES = (['--LL-policy=plru'], ['--LL-policy=srrip'],
                ['--LL-policy=brrip', '--seed=3'], ['--LL-policy=random', '--seed=11'],
                ['--LL-policy=random', '--seed=12'],
                ['--D1-policy=plru', '--I1-policy=plru'],
                ['--I1-policy=random', '--D1-policy=random', '--LL-policy=brrip', '--seed=7'],
                ['--D1-policy=plru', '--LL-policy=srrip', '--interval-size=100k']);
my @POLICY_GEOMETRIES = (0, 1);

# A middle level (--L2, manual 5.8) and inclusion (5.9), each setting with
# all its options:
# a usual machine's; 32-byte L1 lines over a 64-byte L2 line over a
# 128-byte LL line; policies for L2 and the others; one without the log
# (--interval-size) and one with the data profile, which take other
# paths to the same model.
my @L1_SMALL = ('--I1=1024,2,32', '--D1=2048,4,32');
my @L2_RUNS = (
    [@{ $GEOMETRIES[0] }[0, 1], '--L2=262144,8,64', '--LL=1048576,16,64'],
    [@L1_SMALL, '--L2=8192,4,64', '--LL=16384,8,128'],
    [@{ $GEOMETRIES[0] }[0, 1], '--L2=262144,8,64', '--LL=1048576,16,64',
     '--L2-policy=plru', '--LL-policy=srrip'],
    [@L1_SMALL, '--L2=8192,4,64', '--LL=16384,8,128', '--L2-policy=brrip',
     '--seed=5', '--D1-policy=plru'],
    [@{ $GEOMETRIES[0] }[0, 1], '--L2=262144,8,64', '--LL=1048576,16,64',
     '--L2-policy=random', '--seed=9', '--interval-size=100k'],
    [@L1_SMALL, '--L2=8192,4,64', '--LL=16384,8,128', '--L2-policy=srrip',
     '--data-profile=yes'],
    # --LL-inclusion (manual 5.9): inclusive removes lines of every upper
    # level (line sizes 32 to 128: several L1 lines an LL line); exclusive
    # with and without L2, with the log and with the data profile
    [@L1_SMALL, '--LL=16384,8,32', '--LL-inclusion=inclusive'],
    [@L1_SMALL, '--L2=8192,4,64', '--LL=16384,8,128', '--LL-inclusion=inclusive',
     '--L2-policy=plru'],
    [@L1_SMALL, '--L2=8192,4,32', '--LL=16384,8,32', '--LL-inclusion=inclusive',
     '--D1-policy=random', '--seed=4'],
    [@L1_SMALL, '--LL=16384,8,32', '--LL-inclusion=exclusive'],
    [@L1_SMALL, '--L2=8192,4,64', '--LL=32768,8,64', '--LL-inclusion=exclusive',
     '--LL-policy=srrip'],
    [@{ $GEOMETRIES[0] }[0, 1], '--L2=262144,8,64', '--LL=1048576,16,64',
     '--LL-inclusion=exclusive', '--data-profile=yes'],
    # Prefetchers (manual 5.10): D1's (with the log under LRU; without
    # it in a direct-mapped D1 or under plru), L2's and LL's (log and
    # thread), with policies, the data profile, and no log
    [@L1_SMALL, '--LL=16384,8,32', '--D1-prefetch=next-line'],
    [@{ $GEOMETRIES[2] }, '--D1-prefetch=next-line'],
    [@L1_SMALL, '--L2=8192,4,64', '--LL=16384,8,128', '--L2-prefetch=stream',
     '--LL-prefetch=stream'],
    [@L1_SMALL, '--L2=8192,4,32', '--LL=16384,8,32', '--D1-prefetch=next-line',
     '--L2-prefetch=next-line', '--D1-policy=plru', '--LL-policy=brrip', '--seed=2'],
    [@{ $GEOMETRIES[0] }[0, 1], '--L2=262144,8,64', '--LL=1048576,16,64',
     '--L2-prefetch=next-line', '--data-profile=yes'],
    [@L1_SMALL, '--LL=16384,8,128', '--LL-prefetch=stream', '--interval-size=100k'],
    # 8- and 16-way sets of full tags are searched with AVX2 where the
    # host has it (cg_cache_find_way), else and under --sim-vector=no by
    # scalar loops: a D1 prefetcher over policies, both ways
    [@{ $GEOMETRIES[0] }[0, 1], '--L2=262144,8,64', '--LL=1048576,16,64',
     '--D1-prefetch=next-line', '--L2-policy=plru', '--LL-policy=srrip'],
    [@{ $GEOMETRIES[0] }[0, 1], '--L2=262144,8,64', '--LL=1048576,16,64',
     '--D1-prefetch=next-line', '--L2-policy=plru', '--LL-policy=srrip',
     '--sim-vector=no'],
    # Write-backs (manual 5.12): plain; with L2, policies and a
    # prefetcher; a usual machine's with an LL prefetcher
    [@L1_SMALL, '--LL=16384,8,32', '--simulate-wb=yes'],
    [@L1_SMALL, '--L2=8192,4,64', '--LL=16384,8,128', '--simulate-wb=yes',
     '--L2-policy=srrip', '--D1-prefetch=next-line'],
    [@{ $GEOMETRIES[0] }[0, 1], '--L2=262144,8,64', '--LL=1048576,16,64',
     '--simulate-wb=yes', '--LL-prefetch=stream', '--D1-policy=plru'],
    # Stride prefetchers (manual 5.10; every access carries its
    # instruction, no log): D1's, L2's under plru, both with a plru D1
    [@L1_SMALL, '--LL=16384,8,32', '--D1-prefetch=stride'],
    [@L1_SMALL, '--L2=8192,4,64', '--LL=16384,8,128', '--L2-prefetch=stride',
     '--L2-policy=plru'],
    [@{ $GEOMETRIES[0] }[0, 1], '--L2=262144,8,64', '--LL=1048576,16,64',
     '--D1-prefetch=stride', '--L2-prefetch=stride', '--D1-policy=plru'],
    # Line use (manual 5.13): 32-byte L1 lines under a 128-byte LL line
    # (LL's chunks are 2 bytes); a usual machine's with an L2 and an
    # srrip LL; a random I1
    [@L1_SMALL, '--LL=16384,8,128', '--cacheuse=yes'],
    [@{ $GEOMETRIES[0] }[0, 1], '--L2=262144,8,64', '--LL=1048576,16,64',
     '--cacheuse=yes', '--LL-policy=srrip'],
    [@L1_SMALL, '--L2=8192,4,64', '--LL=16384,8,64', '--cacheuse=yes',
     '--I1-policy=random', '--seed=3'],
);

# Every setting runs on six programs (every access missing D1,
# straddles, string instructions, vector sizes, unaligned accesses,
# atomics); the other four run the geometries (and the system
# Cachegrind's check) only, so that the suite stays well under 15
# minutes on CI's two cores: x87-O0 alone under every setting took 4.5
# of refmodel.t's 6.5 minutes, the last case to finish.
my %EVERY_SETTING = map { $_ => 1 }
    qw(matrix_walk-O2 straddle_loop-O2 strings-O2 simd-O2 unaligned-O0 atomics-O2);
my @cases;
for my $name (qw(matrix_walk-O2 pointer_chase-O0 straddle_loop-O2 strings-O2
                 unaligned-O0 simd-O2 x87-O0 atomics-O2 recursion-O2 indirect-O2)) {
    if (!$progs->{$name}) {
        push @cases, { label => "refmodel $name", skip => "fixture $name not built" };
        next;
    }
    push @cases, { label => "refmodel $name", cmd => [ $progs->{$name} ],
                   every_setting => $EVERY_SETTING{$name} };
}

# The settings each program runs under, with its trace: the geometries
# (also compared with the system Cachegrind), each policy on one of the
# first two geometries in turn, and the L2 and inclusion settings.
my @SETTINGS = ((map { $GEOMETRIES[$_] } 0 .. $#GEOMETRIES),
                (map { [@{ $GEOMETRIES[$POLICY_GEOMETRIES[$_ % 2]] }, @{ $POLICIES[$_] }] }
                 0 .. $#POLICIES),
                @L2_RUNS);

# The reference model over a trace file: its totals line, and its counts
# per (file, function, line) ("file\0fn\0line" => counts) with --per-cc.
sub run_model {
    my ($trace, $opts, $per_cc) = @_;
    my @model_opts = grep { !/^--(interval-size|data-profile|trace-out-file|sim-vector)/ } @$opts;
    open(my $fh, '-|', 'sh', '-c', "exec \"\$0\" \"\$@\" < '$trace'", $cgref,
         ($per_cc ? '--per-cc' : ()), @model_opts) or return;
    my $totals = <$fh>;
    my %lines;
    while (my $l = <$fh>) {
        chomp $l;
        my ($file, $fn, $line, $counts) = split /\t/, $l, 4;
        $lines{"$file\0$fn\0$line"} = $counts;
    }
    close $fh or return;
    chomp $totals if defined $totals;
    return ($totals, \%lines);
}

# Ours under `opts` with its own access trace (--trace-out-file: the
# model sees the very run it checks), and the model on that trace.
# Returns the summaries and the first line whose counts differ.
sub ours_against_model {
    my ($opts, $cmd) = @_;
    my $dir = tempdir('cgref-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my $trace = "$dir/trace";
    my $o = run_ours([@$opts, "--trace-out-file=$trace"], $cmd);
    my ($main) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $o->{files} || [] };
    my %r = (exit => $o->{exit_code}, err => substr($o->{stderr} // '', -400));
    return \%r unless $main && -s $trace;
    my $p = parse_cgout(\$main->{content});
    $r{ours} = $p->{summary};
    $r{content} = $main->{content};
    my ($totals, $lines) = run_model($trace, $opts, 1);
    unlink $trace;
    $r{model} = $totals;
    return \%r unless $lines;
    my $n_events = scalar @{ $p->{event_names} };
    my $zero = join ' ', (0) x $n_events;
    my %keys = map { $_ => 1 } keys %$lines, keys %{ $p->{costs} };
    $r{n_lines} = 0;
    for my $k (sort keys %keys) {
        my $ours = $p->{costs}{$k} // '(absent)';
        my $model = $lines->{$k} // $zero;
        $r{n_lines}++ if exists $lines->{$k};
        next if $ours eq $model;
        $r{line_diff} = sprintf("%s: ours %s, model %s", $k =~ s/\0/:/gr, $ours, $model);
        last;
    }
    return \%r;
}

# The system Cachegrind against the model on Lackey's trace of another
# run: up to three tries, as a run's ld.so reads a few tables at
# addresses that the kernel's random bytes pick (a different access in
# tiny caches now and then); the first pair that agrees passes.
sub system_against_model {
    my ($geometry, $cmd) = @_;
    my %r;
    for my $try (1 .. 3) {
        my $dir = tempdir('cgref-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
        my $t = run_ref(['--trace-mem=yes', "--log-file=$dir/trace"], $cmd, tool => 'lackey');
        my $ref = run_ref($geometry, $cmd);
        my ($main) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $ref->{files} || [] };
        %r = (tries => $try, banner => $ref->{banner_ok} ? '' : ($ref->{banner_error} // 'banner?'),
              lackey_exit => $t->{exit_code});
        $r{system} = $main ? parse_cgout(\$main->{content})->{summary} : undef;
        ($r{model}) = run_model("$dir/trace", $geometry, 0);
        unlink "$dir/trace";
        last if defined $r{system} && defined $r{model} && $r{system} eq $r{model};
    }
    return \%r;
}

my $worker = sub {
    my ($c) = @_;
    my %r;
    $r{system}[$_] = system_against_model($GEOMETRIES[$_], $c->{cmd}) for 0 .. $#GEOMETRIES;
    my $last = $c->{every_setting} ? $#SETTINGS : $#GEOMETRIES;
    $r{ours}[$_] = ours_against_model($SETTINGS[$_], $c->{cmd}) for 0 .. $last;
    return \%r;
};

my $n = run_cases(\@cases, sub {
    my ($c, $r) = @_;
    for my $i (0 .. $#GEOMETRIES) {
        my $g = "@{ $GEOMETRIES[$i] }";
        my $s = $r->{system}[$i];
        is($s->{banner}, '', "$g: the reference is the system Cachegrind");
        ok(defined $s->{system}, "$g: the system Cachegrind's summary") or next;
        is($s->{model}, $s->{system},
           "$g: the reference model's totals (Lackey's trace) are the system Cachegrind's"
           . ($s->{tries} > 1 ? " (try $s->{tries})" : ''));
    }
    for my $i (0 .. $#{ $r->{ours} }) {
        my @opts = @{ $SETTINGS[$i] };
        my $o = $r->{ours}[$i];
        ok(defined $o->{model} && $o->{model} ne '', "@opts: ours ran and the model read its trace")
            or diag("  exit " . ($o->{exit} // '?') . ": $o->{err}"), next;
        is($o->{ours}, $o->{model}, "@opts: ours are the model's");
        is($o->{line_diff} // '', '', "@opts: per line too ($o->{n_lines} lines that ran)");
    }
}, $worker);

# A known answer (tests/refmodel/cyclic.c): 384 lines read cyclically,
# 50 times, one byte a line, through a D1 of 16 lines into an LL of 256
# (32 sets of 8 ways, so 12 lines a set in turn).  The scan's line must
# have 19,200 reads, every one a D1 miss; under LRU every one an LL miss
# too; under BRRIP (seed 1) well under three quarters of them.  The
# reference model, on the program's trace, must agree with ours in both,
# and with the system Cachegrind under LRU.
{
    my $csrc = File::Spec->catfile(tests_dir(), 'refmodel', 'cyclic.c');
    my $cyclic = eval {
        build_one(File::Spec->catfile(build_root(), 'refmodel', 'cyclic'), [$csrc],
                  $CC, '-g', '-O2', $csrc);
    };
    ok($cyclic, 'built refmodel/cyclic.c') or diag($@);
    my ($mark) = grep { (split /\n/, slurp($csrc))[$_ - 1] =~ /MARK: scan/ }
                 1 .. scalar(split /\n/, slurp($csrc));
    my @caches = ('--I1=32768,8,64', '--D1=1024,2,64', '--LL=16384,8,64');
    SKIP: {
        skip 'cyclic.c not built', 1 unless $cyclic;
        my %scan;
        for my $policy ('lru', 'brrip') {
            my @opts = (@caches, "--LL-policy=$policy");
            my $o = ours_against_model(\@opts, [$cyclic]);
            my $main = $o->{content} && { content => $o->{content} };
            ok($main, "cyclic $policy: a main file") or next;
            if ($policy eq 'lru') {
                unlike($main->{content}, qr/^desc: LL policy/m, 'lru: the three desc: lines of 3.19');
            } else {
                like($main->{content}, qr/^desc: LL cache: .*\ndesc: LL policy:        brrip, seed 1\ncmd: /m,
                     'brrip: a fourth desc: line names the policy and the seed');
            }
            my $p = parse_cgout(\$main->{content});
            my ($key) = grep { /cyclic\.c\x00main\x00\Q$mark\E$/ } keys %{ $p->{costs} };
            ok($key, "cyclic $policy: the scan's line ($mark) is in the file") or next;
            my %c;
            @c{ @{ $p->{event_names} } } = split ' ', $p->{costs}{$key};
            $scan{$policy} = \%c;
            is($o->{ours}, $o->{model}, "cyclic $policy: ours are the reference model's");
            is($o->{line_diff} // '', '', "cyclic $policy: per line too");
        }
        my $sys = system_against_model(\@caches, [$cyclic]);
        is($sys->{banner}, '', 'cyclic lru: the reference is the system Cachegrind');
        is($sys->{model}, $sys->{system},
           'cyclic lru: the reference model (on Lackey\'s trace) is the system Cachegrind');
        if ($scan{lru} && $scan{brrip}) {
            is("$scan{lru}{Dr} $scan{lru}{D1mr} $scan{lru}{DLmr}", '19200 19200 19200',
               'LRU: every read of the scan misses D1 and LL');
            is("$scan{brrip}{Dr} $scan{brrip}{D1mr}", '19200 19200',
               'BRRIP: the same reads and D1 misses');
            cmp_ok($scan{brrip}{DLmr}, '<', 0.75 * 19200,
                   "BRRIP keeps part of the scan in LL ($scan{brrip}{DLmr} LL misses)");
        }
    }
}

# Known answers for the hierarchy (tests/refmodel/cyclic.c, n lines read
# cyclically 50 times after one pass that writes them): D1 of 16 lines,
# L2 of 64, LL of 256.  A working set that fits a level misses only above
# it (the writing pass brought it in); 288 lines fit L2 and an exclusive
# LL together (320 lines), not a 256-line LL that holds what L2 holds:
# under nine and inclusive every read misses LL, under exclusive none.
# Each run also equals the reference model on the program's trace.
{
    my $csrc = File::Spec->catfile(tests_dir(), 'refmodel', 'cyclic.c');
    my $cyclic = eval {
        build_one(File::Spec->catfile(build_root(), 'refmodel', 'cyclic'), [$csrc],
                  $CC, '-g', '-O2', $csrc);
    };
    my ($mark) = grep { (split /\n/, slurp($csrc))[$_ - 1] =~ /MARK: scan/ }
                 1 .. scalar(split /\n/, slurp($csrc));
    my @caches = ('--I1=32768,8,64', '--D1=1024,2,64', '--L2=4096,4,64', '--LL=16384,8,64');
    # lines => [D1mr, D2mr, DLmr] of the scan, per mode; R = reads (50 n)
    my @table = ([8,   { nine => '0 0 0' }],
                 [48,  { nine => 'R 0 0' }],
                 [192, { nine => 'R R 0' }],
                 [288, { nine => 'R R R', inclusive => 'R R R', exclusive => 'R R 0' }],
                 [512, { nine => 'R R R', exclusive => 'R R R' }]);
    SKIP: {
        skip 'cyclic.c not built', 1 unless $cyclic;
        for my $row (@table) {
            my ($n, $modes) = @$row;
            for my $mode (sort keys %$modes) {
                my @opts = (@caches, "--LL-inclusion=$mode");
                my $o = ours_against_model(\@opts, [$cyclic, $n, 50]);
                my $main = $o->{content} && { content => $o->{content} };
                ok($main, "cyclic $n $mode: a main file") or next;
                my $p = parse_cgout(\$main->{content});
                my ($key) = grep { /cyclic\.c\x00main\x00\Q$mark\E$/ } keys %{ $p->{costs} };
                ok($key, "cyclic $n $mode: the scan's line is in the file") or next;
                my %c;
                @c{ @{ $p->{event_names} } } = split ' ', $p->{costs}{$key};
                my $want = $modes->{$mode} =~ s/R/50 * $n/ger;
                is("$c{Dr} $c{D1mr} $c{D2mr} $c{DLmr}", 50 * $n . " $want",
                   "cyclic $n lines, $mode: D1mr D2mr DLmr of the scan are $want");
                is($o->{ours}, $o->{model}, "cyclic $n lines, $mode: ours are the reference model's");
                is($o->{line_diff} // '', '', "cyclic $n lines, $mode: per line too");
            }
        }
    }
}

# Known answers for the prefetchers (manual 5.10), the same caches and
# scan: next-line in D1 hides every read of a pass but its first (that
# line's predecessor was the buffer's last), so D1mr is one a pass; in L2
# it does the same for D2mr; a stream prefetcher of L2 or LL misses the
# few lines that start each pass's stream and hides the rest.
{
    my $csrc = File::Spec->catfile(tests_dir(), 'refmodel', 'cyclic.c');
    my $cyclic = File::Spec->catfile(build_root(), 'refmodel', 'cyclic');
    my ($mark) = grep { (split /\n/, slurp($csrc))[$_ - 1] =~ /MARK: scan/ }
                 1 .. scalar(split /\n/, slurp($csrc));
    my @caches = ('--I1=32768,8,64', '--D1=1024,2,64', '--L2=4096,4,64', '--LL=16384,8,64');
    # [lines, prefetch option, the scan's counts that must hold]
    my @table = (
        [192, '--D1-prefetch=next-line', { D1mr => 50, D2mr => 50, D1pf => 9600, D1pfu => 9550 }],
        [512, '--L2-prefetch=next-line', { D1mr => 25600, D2mr => 50, L2pf => 25600, L2pfu => 25550 }],
        [512, '--L2-prefetch=stream', { D1mr => 25600, D2mr => ['<', 2560] }],
        [512, '--LL-prefetch=stream', { D2mr => 25600, DLmr => ['<', 2560] }],
    );
    SKIP: {
        skip 'cyclic.c not built', 1 unless -x $cyclic;
        for my $row (@table) {
            my ($n, $pf, $want) = @$row;
            my $o = ours_against_model([@caches, $pf], [$cyclic, $n, 50]);
            ok($o->{content}, "cyclic $n $pf: a main file") or next;
            my $p = parse_cgout(\$o->{content});
            my ($key) = grep { /cyclic\.c\x00main\x00\Q$mark\E$/ } keys %{ $p->{costs} };
            ok($key, "cyclic $n $pf: the scan's line is in the file") or next;
            my %c;
            @c{ @{ $p->{event_names} } } = split ' ', $p->{costs}{$key};
            for my $ev (sort keys %$want) {
                if (ref $want->{$ev}) {
                    cmp_ok($c{$ev}, $want->{$ev}[0], $want->{$ev}[1],
                           "cyclic $n lines, $pf: the scan's $ev ($c{$ev}) < $want->{$ev}[1]");
                } else {
                    is($c{$ev}, $want->{$ev}, "cyclic $n lines, $pf: the scan's $ev");
                }
            }
            is($o->{ours}, $o->{model}, "cyclic $n lines, $pf: ours are the reference model's");
            is($o->{line_diff} // '', '', "cyclic $n lines, $pf: per line too");
        }
    }
}

# Known answers for the stride prefetchers and line use, the same caches
# and scan (one load instruction, 512 lines a line apart, 50 passes).
# stride: each pass starts with a jump back that resets the entry, so
# its first four reads miss (take-over or new stride, confidence 0, 1,
# then 2, which fetches the next line) and the rest hit: D1mr (or D2mr
# for L2's) 4 a pass.  Line use: every scan read misses D1 (16 lines)
# and LL (256 lines) and is the only use of the line it loads, so the
# scan is charged 63 bytes and 1000 a read at both levels; with 8 lines
# (in D1 since the writing pass) it loads nothing and is charged nothing.
{
    my $csrc = File::Spec->catfile(tests_dir(), 'refmodel', 'cyclic.c');
    my $cyclic = File::Spec->catfile(build_root(), 'refmodel', 'cyclic');
    my ($mark) = grep { (split /\n/, slurp($csrc))[$_ - 1] =~ /MARK: scan/ }
                 1 .. scalar(split /\n/, slurp($csrc));
    my @caches = ('--I1=32768,8,64', '--D1=1024,2,64', '--L2=4096,4,64', '--LL=16384,8,64');
    my @table = (
        [512, ['--D1-prefetch=stride'], { D1mr => 200 }],
        [512, ['--L2-prefetch=stride'], { D1mr => 25600, D2mr => 200 }],
        [512, ['--cacheuse=yes'], { SpLoss1 => 63 * 25600, AcCost1 => 1000 * 25600,
                                    SpLoss2 => 63 * 25600, AcCost2 => 1000 * 25600 }],
        [8, ['--cacheuse=yes'], { D1mr => 0, SpLoss1 => 0, AcCost1 => 0 }],
    );
    SKIP: {
        skip 'cyclic.c not built', 1 unless -x $cyclic;
        for my $row (@table) {
            my ($n, $opts, $want) = @$row;
            my $o = ours_against_model([@caches, @$opts], [$cyclic, $n, 50]);
            ok($o->{content}, "cyclic $n @$opts: a main file") or next;
            my $p = parse_cgout(\$o->{content});
            my ($key) = grep { /cyclic\.c\x00main\x00\Q$mark\E$/ } keys %{ $p->{costs} };
            ok($key, "cyclic $n @$opts: the scan's line is in the file") or next;
            my %c;
            @c{ @{ $p->{event_names} } } = split ' ', $p->{costs}{$key};
            is($c{$_}, $want->{$_}, "cyclic $n lines, @$opts: the scan's $_") for sort keys %$want;
            is($o->{ours}, $o->{model}, "cyclic $n lines, @$opts: ours are the reference model's");
            is($o->{line_diff} // '', '', "cyclic $n lines, @$opts: per line too");
        }
    }
}

# A known answer for write-backs (tests/refmodel/writes.c): 512 lines
# written cyclically through D1 of 16 lines, L2 of 64, LL of 256: every
# write misses every level, and once LL has been filled by the loop each
# one evicts a line that D1 and L2 have written back dirty.  So a pass
# more adds 512 writes and 512 DLdmw exactly, and 20 passes have at
# least 20 x 512 - 256 DLdmw (the first 256 fills evict what the
# program's start left in LL, dirty or not).
{
    my $wsrc = File::Spec->catfile(tests_dir(), 'refmodel', 'writes.c');
    my $writes = eval {
        build_one(File::Spec->catfile(build_root(), 'refmodel', 'writes'), [$wsrc],
                  $CC, '-g', '-O2', $wsrc);
    };
    ok($writes, 'built refmodel/writes.c') or diag($@);
    my ($mark) = grep { (split /\n/, slurp($wsrc))[$_ - 1] =~ /MARK: write/ }
                 1 .. scalar(split /\n/, slurp($wsrc));
    SKIP: {
        skip 'writes.c not built', 1 unless $writes;
        my @opts = ('--I1=32768,8,64', '--D1=1024,2,64', '--L2=4096,4,64',
                    '--LL=16384,8,64', '--simulate-wb=yes');
        my %line;
        for my $passes (20, 21) {
            my $o = ours_against_model(\@opts, [$writes, 512, $passes]);
            ok($o->{content}, "writes x$passes: a main file") or diag($o->{err}), next;
            my $p = parse_cgout(\$o->{content});
            my ($key) = grep { /writes\.c\x00main\x00\Q$mark\E$/ } keys %{ $p->{costs} };
            ok($key, "writes x$passes: the write's line ($mark) is in the file") or next;
            my %c;
            @c{ @{ $p->{event_names} } } = split ' ', $p->{costs}{$key};
            $line{$passes} = \%c;
            my $n = 512 * $passes;
            is(join(' ', map { $c{$_} } qw(Dw D1mw D2mw DLmw)), "$n $n $n $n",
               "writes x$passes: every write misses every level");
            cmp_ok($c{DLdmw}, '>=', $n - 256, "writes x$passes: DLdmw ($c{DLdmw}) >= $n - 256");
            is($o->{ours}, $o->{model}, "writes x$passes: ours are the reference model's");
            is($o->{line_diff} // '', '', "writes x$passes: per line too");
        }
        if ($line{20} && $line{21}) {
            is($line{21}{DLdmw} - $line{20}{DLdmw}, 512,
               'writes: a pass more writes 512 dirty lines back from LL');
        }
    }
}

# CPU presets (manual 5.11): --cpu=list names them all; each preset,
# under its own geometry, policies, inclusion and prefetchers, equals the
# model (its desc: lines give the model its options) on matrix_walk;
# explicit options override a preset; --cpu=host keeps the detected
# levels.
{
    my @presets = qw(generic skylake-sp golden-cove zen3 zen4 neoverse-n1 neoverse-v1);
    my $list = run_ours(['--cpu=list'], ['/bin/true']);
    is($list->{exit_code}, 0, '--cpu=list: exit 0');
    like($list->{stdout} . $list->{stderr}, qr/^\Q$_\E\s/m, "--cpu=list names $_")
        for @presets, 'host';
    # The model's options from a file's desc: lines
    my $options_of = sub {
        my ($content) = @_;
        my @o;
        while ($content =~ /^desc: (I1|D1|L2|LL) cache:\s+(\d+) B, (\d+) B, (\d+)-way/mg) {
            push @o, "--$1=$2,$4,$3";
        }
        push @o, "--$1-policy=$2" while $content =~ /^desc: (I1|D1|L2|LL) policy:\s+(\w+)/mg;
        push @o, "--LL-inclusion=$1" if $content =~ /^desc: LL inclusion:\s+(\w+)/m;
        push @o, "--$1-prefetch=$2" while $content =~ /^desc: (D1|L2|LL) prefetcher:\s+([\w-]+)/mg;
        return @o;
    };
    my %want_desc = (generic => ['32768 B, 64 B, 8-way', '49152 B, 64 B, 12-way',
                                 '2097152 B, 64 B, 16-way', '33554432 B, 64 B, 16-way']);
    SKIP: {
        skip 'matrix_walk-O2 not built', 1 unless $progs->{'matrix_walk-O2'};
        my $prog = [$progs->{'matrix_walk-O2'}];
        for my $preset (@presets) {
            my $first = run_ours(["--cpu=$preset"], $prog);
            my ($main) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $first->{files} || [] };
            ok($main, "--cpu=$preset: a main file") or diag($first->{stderr}), next;
            like($main->{content}, qr/^desc: CPU:\s+\Q$preset\E$/m, "--cpu=$preset: named in the file");
            # Its levels are not the host's: nothing is said of the host's
            # (3.19's "L3 cache found", "specified/simulated LL cache")
            unlike($first->{stderr}, qr/warning: (L\d cache found|L2 cache not installed|specified LL cache|simulated LL cache)|Cannot auto-detect/,
                   "--cpu=$preset: no word on the host's caches");
            if (my $w = $want_desc{$preset}) {
                my @got = $main->{content} =~ /^desc: (?:I1|D1|L2|LL) cache:\s+(.*?)(?: associative)?$/mg;
                is("@got", "@$w", "--cpu=$preset: the geometry the manual gives");
            }
            my @opts = $options_of->($main->{content});
            my $o = ours_against_model(\@opts, $prog);
            is($o->{ours}, parse_cgout(\$main->{content})->{summary},
               "--cpu=$preset: the same counts as its options spelled out (@opts)");
            is($o->{model}, $o->{ours}, "--cpu=$preset: ours are the reference model's");
            is($o->{line_diff} // '', '', "--cpu=$preset: per line too");
        }
        my $incl = run_ours(['--cpu=generic', '--LL-inclusion=inclusive'], $prog);
        my ($im) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $incl->{files} || [] };
        like($im ? $im->{content} : '', qr/^desc: LL inclusion:\s+inclusive$/m,
             '--cpu=generic --LL-inclusion=inclusive: runs, the preset\'s prefetchers dropped')
            or diag($incl->{stderr});
        my $over = run_ours(['--LL=16384,8,64', '--cpu=zen3', '--L2-policy=lru',
                             '--LL-inclusion=nine', '--D1-prefetch=next-line'], $prog);
        my ($m) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $over->{files} || [] };
        my $c = $m ? $m->{content} : '';
        like($c, qr/^desc: LL cache:\s+16384 B, 64 B, 8-way/m, '--cpu=zen3: an earlier --LL overrides it');
        like($c, qr/^desc: L2 cache:\s+524288 B, 64 B, 8-way/m, '... the rest is the preset\'s');
        unlike($c, qr/^desc: (L2 policy|LL inclusion)/m, '... --L2-policy and --LL-inclusion override it');
        like($c, qr/^desc: D1 prefetcher:\s+next-line/m, '... so does --D1-prefetch');
        my $host = run_ours(['--cpu=host'], $prog);
        my $plain = run_ours([], $prog);
        my ($hm) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $host->{files} || [] };
        my ($pm) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $plain->{files} || [] };
        my $levels = sub { join ' ', ($_[0] // '') =~ /^desc: (I1|D1|LL) cache:\s+(.*)$/mg };
        is($levels->($hm && $hm->{content}), $levels->($pm && $pm->{content}),
           '--cpu=host: I1, D1 and LL as detected');
        like($hm ? $hm->{content} : '', qr/^desc: CPU:\s+host$/m, '--cpu=host: named in the file');
    }
}

# Bad values: the option is named, the run ends before the program.
for my $bad (['--LL-policy=lfu', 'the policy is one of'],
             ['--LL-policy=plru', 'plru needs a power-of-two associativity',
              '--LL=196608,12,64'],
             ['--seed=x', 'the seed is a decimal number'],
             ['--D1-policy=srrip', 'an L1 takes lru, plru or random'],
             ['--I1-policy=brrip', 'an L1 takes lru, plru or random'],
             ['--L2-policy=lfu', 'the policy is one of', '--L2=262144,8,64'],
             ['--L2-policy=plru', 'plru needs a power-of-two associativity',
              '--L2=196608,12,64'],
             ['--LL-inclusion=partial', 'the mode is one of nine, inclusive, exclusive'],
             ['--LL-inclusion=exclusive', "LL's line size (128) must be that of the level above it (L2)",
              '--L2=8192,4,64', '--LL=16384,8,128'],
             ['--LL-inclusion=exclusive', "LL's line size (128) must be that of the levels above it (I1 and D1)",
              '--I1=32768,8,64', '--D1=32768,8,64', '--LL=16384,8,128'],
             ['--D1-prefetch=stream', 'the prefetcher is one of none, next-line'],
             ['--L2-prefetch=random', 'the prefetcher is one of none, next-line, stream, stride',
              '--L2=262144,8,64'],
             ['--LL-prefetch=stride', 'the prefetcher is one of none, stream'],
             ['--D1-prefetch=stride', 'not with --data-profile=yes', '--data-profile=yes'],
             ['--cacheuse=yes', 'line use is modelled with --LL-inclusion=nine only',
              '--LL-inclusion=inclusive'],
             ['--cacheuse=yes', "(--cpu's inclusion)", '--cpu=zen4'],
             ['--cacheuse=yes', 'line use is modelled without prefetchers, and --D1-prefetch is on',
              '--D1-prefetch=next-line'],
             ['--cacheuse=yes', 'not with --simulate-wb=yes', '--simulate-wb=yes'],
             ['--cacheuse=yes', 'not with --data-profile=yes', '--data-profile=yes'],
             ['--cacheuse=yes', 'it needs --cache-sim=yes', '--cache-sim=no'],
             ['--LL-prefetch=next-line', 'the prefetcher is one of none, stream'],
             ['--L2-prefetch=stream', 'there is no L2 (--L2)'],
             ['--LL-prefetch=stream', 'prefetchers are modelled with --LL-inclusion=nine only',
              '--LL-inclusion=inclusive'],
             ['--cpu=pentium4', 'no such preset (--cpu=list lists them)'],
             ['--simulate-wb=yes', 'write-backs are modelled with --LL-inclusion=nine only',
              '--LL-inclusion=exclusive'],
             ['--simulate-wb=yes', 'not with --data-profile=yes', '--data-profile=yes']) {
    my ($opt, $text, @more) = @$bad;
    my ($name) = split /=/, $opt;
    my $o = run_ours([@more, $opt], ['/bin/true']);
    isnt($o->{exit_code}, 0, "$opt @more: non-zero exit status");
    like($o->{stderr}, qr/\Q$text\E/, "$opt @more: says why")
        or diag("  stderr: $o->{stderr}");
    like($o->{stderr}, qr/\Q$name\E/, "$opt @more: names the option");
}
diag("$n programs, " . scalar(@GEOMETRIES) . ' geometries each');
done_testing();
