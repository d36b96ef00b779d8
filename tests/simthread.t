#!/usr/bin/perl
# simthread.t -- the access log and the simulator thread (cg_log.c).
#
# With the cache simulation on, compiled code logs the accesses its
# inline MRU test does not settle, and a second thread simulates them
# (--sim-thread=yes, the default), or the client's own thread does when
# a chunk of the log is full (--sim-thread=no, one allowed CPU).  Every
# way must give the system Cachegrind's output byte for byte.  The
# fixture (tests/progs-log/logfork.c) fills dozens of chunks before a
# fork, in the child and in the parent afterwards, so the thread is
# started, a forked child starts its own, and each process writes its
# own file.  (Client threads: tests/diff-progs.t, threads.c.)  --stats=yes says which way ran, so the
# tests check that the path they mean to test was taken.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Cwd qw(abs_path);
use File::Spec;
use File::Temp ();
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults

my $SRC  = File::Spec->catdir(tests_dir(), 'progs-log');
my $BIN  = File::Spec->catdir(build_root(), 'simthread');
my $CC   = defined $ENV{CC} && $ENV{CC} ne '' ? $ENV{CC} : 'gcc';
my $SELF = abs_path(__FILE__);

my %bin;
for my $opt (qw(O0 O2)) {
    my $c = File::Spec->catfile($SRC, 'logfork.c');
    $bin{$opt} = build_one(File::Spec->catfile($BIN, "logfork-$opt"), [$c, $SELF],
                           $CC, '-g', "-$opt", $c);
}
my $progs = build_progs();

# A simulator thread is started only where the process may run on more
# than one CPU (`taskset -c 0` allows one): the checks that it ran, and
# what only it does (use a second chunk, its stack), need a second CPU.
# The counts do not: every comparison with the reference still runs.
my $one_cpu = host_cpus() < 2
    ? 'needs a second CPU for the simulator thread: this process may run on one'
    : undef;

# The "access log:" line of each process in a --stats=yes run, in pid
# order (a forked child prints its own).
sub log_lines {
    my ($stderr) = @_;
    my @lines;
    push @lines, [ $1, $2 ] while $stderr =~ /^--(\d+)-- (access log: .*)$/mg;
    return map { $_->[1] } sort { $a->[0] <=> $b->[0] } @lines;
}

# Which way the log was simulated, from --stats=yes (never compared with
# the reference: its statistics lines are its own).
sub thread_report {
    my ($cmd, $opts, %args) = @_;
    my $res = run_ours(['--stats=yes', @$opts], $cmd, %args);
    return log_lines($res->{stderr});
}

# The fixture, every way, with and without the branch predictor.
for my $opt (qw(O0 O2)) {
    for my $branch ([], ['--branch-sim=yes']) {
        my $cfg = "logfork-$opt" . (@$branch ? ' --branch-sim=yes' : '');
        my @run = ([$bin{$opt}], expect_files => 2, common => $branch);

        matches_reference("$cfg: simulator thread", $run[0], [], @run[1 .. $#run]);
        my @log = thread_report([$bin{$opt}], $branch);
        SKIP: {
            skip $one_cpu, 1 if $one_cpu;
            is(scalar(grep { /simulator thread: yes;/ } @log), 2,
               "$cfg: parent and forked child each ran a simulator thread")
                or diag(join("\n", @log));
        }
        my @chunks = map { /access log: (\d+) chunks/ ? $1 : 0 } @log;
        cmp_ok($chunks[0] // 0, '>=', 10, "$cfg: the parent's log filled many chunks");

        matches_reference("$cfg: --sim-thread=no", $run[0], ['--sim-thread=no'],
                          @run[1 .. $#run]);
        is(scalar(grep { /simulator thread: no \(--sim-thread=no\);/ }
                  thread_report([$bin{$opt}], [@$branch, '--sim-thread=no'])),
           2, "$cfg: --sim-thread=no simulates in the client's thread");

        matches_reference("$cfg: one allowed CPU", $run[0], [], @run[1 .. $#run], cpu => 0);
        is(scalar(grep { /simulator thread: no \(only one CPU allowed\);/ }
                  thread_report([$bin{$opt}], $branch, cpu => 0)),
           2, "$cfg: no second thread when only one CPU is allowed");
    }
}

# The ring's length (--log-chunks).  With 2 chunks the client waits for
# the simulator at nearly every hand-over and goes round the ring dozens
# of times; the counts must not change.  Chunks are allocated as the log
# first reaches them, and without a simulator thread the log stays in
# its first one.
{
    my @run = ([$bin{O2}], expect_files => 2);
    matches_reference('logfork-O2 --log-chunks=2', $run[0], ['--log-chunks=2'],
                      @run[1 .. $#run]);
    my ($parent) = thread_report([$bin{O2}], ['--log-chunks=2']);
    SKIP: {
        skip $one_cpu, 1 if $one_cpu;
        like($parent // '', qr/; ring of 2 chunks, 2 allocated$/,
             '--log-chunks=2: a ring of two chunks, both used');
    }
    ($parent) = thread_report([$bin{O2}], []);
    my ($handed, $n, $allocated) =
        ($parent // '') =~ /^access log: (\d+) chunks .*; ring of (\d+) chunks, (\d+) allocated$/;
    is($n, 32, 'default: a ring of 32 chunks');
    SKIP: {
        skip $one_cpu, 1 if $one_cpu;
        is($allocated, ($handed // 0) + 1 < 32 ? ($handed // 0) + 1 : 32,
           'default: a chunk is allocated when the log first reaches it')
            or diag($parent);
    }
    ($parent) = thread_report([$bin{O2}], ['--sim-thread=no']);
    like($parent // '', qr/^access log: \d{2,} chunks of 2048 entries .*; ring of 32 chunks, 1 allocated$/,
         '--sim-thread=no: the log stays in its first chunk, simulated every 2048 entries');
    for my $bad (qw(1 257 many)) {
        my $res = run_ours(["--log-chunks=$bad"], ['/bin/true']);
        is(_status($res), 'exit 1', "--log-chunks=$bad: exit status 1");
        like($res->{stderr}, qr/Bad option: --log-chunks=\Q$bad\E/,
             "--log-chunks=$bad: names the option");
    }
    my $debug = run_captured(top_dir(), ours_valgrind(), '--tool=cachegrind', '--help-debug');
    like($debug->{out}, qr/^    --log-chunks=<n> +the access log's ring .*?\[32\]$/ms,
         '--help-debug lists --log-chunks with its default');
}

# A chunk that cannot be allocated (memory used up by the program:
# tests/faults.t) takes chunk 0's memory, and the client then waits at
# each chunk until the simulator has read all of them.
# --log-alloc-limit=<n> makes allocation fail after <n> chunks, so the
# shared ring runs against the reference, across a fork too.
for my $limit (1, 3) {
    my @run = ([$bin{O2}], expect_files => 2);
    matches_reference("logfork-O2 --log-alloc-limit=$limit", $run[0],
                      ["--log-alloc-limit=$limit"], @run[1 .. $#run]);
    SKIP: {
        skip $one_cpu, 1 if $one_cpu;
        my ($parent) = thread_report([$bin{O2}], ["--log-alloc-limit=$limit"]);
        like($parent // '', qr/; ring of 32 chunks, $limit allocated \(the rest share chunk 0's memory: no memory was left for them\)$/,
             "--log-alloc-limit=$limit: $limit chunks allocated, the rest shared")
            or diag($parent);
    }
}
{
    my $res = run_ours(['--log-alloc-limit=0'], ['/bin/true']);
    is(_status($res), 'exit 1', '--log-alloc-limit=0: exit status 1');
    like($res->{stderr}, qr/Bad option: --log-alloc-limit=0/, '--log-alloc-limit=0: names the option');
}

# The simulator's stack has no guard page (cg_log.c): --stats=yes
# reports how much of it the thread used, in the parent and in the
# forked child (which refills and reuses it); a run that reached its
# last 1 KB would have stopped with a panic instead.
{
    my $res = run_ours(['--stats=yes', '--branch-sim=yes'], [$bin{O2}]);
    is(_status($res), 'exit 0', 'stack report: runs');
    SKIP: {
        # one line, then three checks for each of the two processes
        skip $one_cpu, 7 if $one_cpu;
        my @used;
        push @used, [ $1, $2, $3 ]
            while $res->{stderr} =~ /^--(\d+)-- simulator stack: (\d+) of (\d+) bytes used$/mg;
        is(scalar(@used), 2, 'stack report: one line from the parent, one from the child')
            or diag($res->{stderr});
        for my $u (@used) {
            my ($pid, $bytes, $size) = @$u;
            is($size, 65536, "stack report ($pid): a 64 KB stack");
            cmp_ok($bytes, '>', 0, "stack report ($pid): the thread's frames were seen");
            cmp_ok($bytes, '<=', $size - 1024, "stack report ($pid): at least 1 KB to spare");
        }
    }
}

# Fixture programs of the differential suite in the client's thread
# (diff-progs.t runs them all with the default, the simulator thread).
for my $name (qw(pointer_chase-O2 matrix_walk-O0 strings-O2 simd-O2 signals-O0
                 atomics-O2 unaligned-O2 recursion-O2)) {
    next unless $progs->{$name};
    matches_reference("$name: --sim-thread=no", [$progs->{$name}], ['--sim-thread=no'],
                      expect_files => 1);
}

# Where the log is off: the options that act on counts at exact
# moments use the helpers that simulate at once.
for my $case (['--toggle-collect=main'], ['--interval-size=100000'], ['--cache-sim=no']) {
    my $res = run_ours(['--stats=yes', @$case], [$progs->{'matrix_walk-O2'}]);
    is(_status($res), 'exit 0', "@$case: runs");
    like(join("\n", log_lines($res->{stderr})), qr/^access log: off$/, "@$case: the log is off");
}

# Lines of 256 bytes: a 256-byte access would be a panic, as in 3.19,
# and it must happen in the client's thread, so the log is off; the
# counts are still the reference's.
{
    my @geom = ('--I1=65536,2,256', '--D1=65536,2,256', '--LL=1048576,4,256');
    my $res = run_ours(['--stats=yes', @geom], [$progs->{'matrix_walk-O2'}]);
    like(join("\n", log_lines($res->{stderr})), qr/^access log: off$/,
         '256-byte lines: the log is off');
    matches_reference('256-byte lines: same as the reference', [$progs->{'matrix_walk-O2'}],
                      [], common => \@geom, expect_files => 1);
}

# L1s whose MRU mirrors do not fit the tool's static data, where group
# checkers address them with 32 bits: the log is off (these crashed in
# an assertion before).  Same counts as the reference.
for my $geom (['--D1=8388608,8,64'], ['--I1=8388608,8,64']) {
    my $res = run_ours(['--stats=yes', @$geom], [$progs->{'matrix_walk-O2'}]);
    is(_status($res), 'exit 0', "@$geom: runs");
    like(join("\n", log_lines($res->{stderr})), qr/^access log: off$/,
         "@$geom: the log is off");
    matches_reference("@$geom: same as the reference", [$progs->{'matrix_walk-O2'}],
                      [], common => $geom, expect_files => 1);
}

# An LL whose narrow tags could not hold every 56-bit address (8192
# sets of 64 bytes) has its full-width array reserved with the log (the
# simulator thread must never allocate; the switch takes that array).
# Same counts either way.
matches_reference('small LL with the log', [$progs->{'pointer_chase-O2'}], [],
                  common => ['--LL=8388608,16,64'], expect_files => 1);

# The simulator's L1 look-ups (cg_cache.h): with AVX2 vectors for sets
# of 8, 12 and 16 ways where the host has AVX2, else (and with
# --sim-vector=no) the scalar search.  Either must give the reference's
# counts for each of those shapes, and for 4 ways, which the vector
# code leaves to the scalar one.  matrix_walk misses D1 on almost every
# access (every way searched, every way moved down); pointer_chase's
# shuffle of its 128 KB array hits at every depth of the sets (the
# chase itself misses).
# Where AVX2 is only hidden (CG_TEST_NO_CPU_FEATURES=avx2) the tool still
# uses it, so which look-ups --sim-vector=yes takes is not checked then.
my ($no_avx2, $avx2_hidden) = host_lacks_cpu_feature('avx2');
my $host_avx2 = !$no_avx2;
note("$no_avx2: the AVX2 look-ups are not tested here") if $no_avx2;
for my $geom (['--I1=32768,8,64', '--D1=49152,12,64'],
              ['--I1=65536,16,64', '--D1=32768,16,64'],
              ['--I1=16384,4,64', '--D1=32768,8,64'],
              ['--D1=16384,4,64']) {
    for my $vector (qw(yes no)) {
        for my $name (qw(matrix_walk-O2 pointer_chase-O2)) {
            matches_reference("@$geom --sim-vector=$vector: $name", [$progs->{$name}],
                              ["--sim-vector=$vector"], common => $geom,
                              expect_files => 1);
        }
        SKIP: {
            skip $no_avx2, 1 if $vector eq 'yes' && $avx2_hidden;
            my $res = run_ours(['--stats=yes', "--sim-vector=$vector", @$geom],
                               [$progs->{'matrix_walk-O2'}]);
            my ($lookups) = $res->{stderr} =~ /^--\d+-- simulator L1 look-ups: (.*)$/m;
            my $expected = $vector eq 'no' ? 'scalar (--sim-vector=no)'
                         : !$host_avx2     ? 'scalar (the host has no AVX2)'
                         : join(', ', map { lookup_of($_, $geom) } qw(I1 D1));
            is($lookups // '(no such line)', $expected,
               "@$geom --sim-vector=$vector: --stats=yes names the look-ups used");
        }
    }
}

# LL sets loaded ahead (cg_sim.c, cg_cache_prefetch_set): after a chunk
# whose entries missed an L1 more than once in four, with an LL of more
# than 1 MiB of tags.  Only a speed matter: the counts must be the
# reference's with it (a 16 MB LL) and without (8 MB: 1 MiB of tags);
# pointer_chase misses D1 at almost every logged access, so all its
# chunks after the first take it, and none of them with the small LL.
for my $ll (['--LL=16777216,16,64', 'all but the first'],
            ['--LL=8388608,16,64', 'none']) {
    my ($geom, $which) = @$ll;
    matches_reference("$geom: pointer_chase, LL sets loaded ahead in $which",
                      [$progs->{'pointer_chase-O2'}], [], common => [$geom],
                      expect_files => 1);
    my $res = run_ours(['--stats=yes', $geom], [$progs->{'pointer_chase-O2'}]);
    my ($ahead, $chunks) = $res->{stderr}
        =~ /^--\d+-- LL sets loaded ahead: in (\d+) of (\d+) chunks simulated entry by entry$/m;
    ok(defined $chunks && $chunks >= 3, "$geom: --stats=yes counts the chunks ("
       . ($chunks // 'no line') . ')');
    is($ahead // -1, $which eq 'none' ? 0 : ($chunks // 0) - 1,
       "$geom: LL sets loaded ahead in $which chunks");
}
{
    # The presets' L1s take the general path, whose set searches use
    # AVX2 where the host has it
    my $res = run_ours(['--stats=yes', '--cpu=zen3'], [$progs->{'matrix_walk-O2'}]);
    my ($lookups) = $res->{stderr} =~ /^--\d+-- simulator L1 look-ups: (.*)$/m;
    SKIP: {
        skip $no_avx2, 1 if $avx2_hidden;
        is($lookups // '(no such line)',
           $host_avx2 ? "the general path's (AVX2 set searches)"
                      : 'scalar (the host has no AVX2)',
           '--cpu=zen3: --stats=yes names the general path\'s look-ups');
    }
    # Under the split (generic: next-line D1 prefetcher, nine) no chunk
    # is simulated entry by entry, so the look-ahead line is left out
    $res = run_ours(['--stats=yes', '--cpu=generic'], [$progs->{'matrix_walk-O2'}]);
    ok($res->{stderr} =~ /^--\d+-- access log: \d+ chunks/m
       && $res->{stderr} !~ /LL sets loaded ahead/,
       '--cpu=generic: no "LL sets loaded ahead" line where no chunk was simulated entry by entry');
}

# "I1 AVX2 (8 ways)" or "D1 scalar (4 ways)": how a level given in
# --I1=/--D1= is looked up with AVX2 (the default I1 here is 8-way).
sub lookup_of {
    my ($level, $geom) = @_;
    my ($assoc) = map { /^--$level=\d+,(\d+),\d+$/ ? $1 : () } @$geom;
    $assoc //= default_assoc($level);
    my $how = ($assoc == 8 || $assoc == 12 || $assoc == 16) ? 'AVX2' : 'scalar';
    return "$level $how ($assoc ways)";
}

# A level's associativity when not given: the one our own run reports
# in its output file's "desc:" line.
my %default_assoc;
sub default_assoc {
    my ($level) = @_;
    if (!%default_assoc) {
        my $dir = File::Temp::tempdir('cgassoc-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
        my $out = File::Spec->catfile($dir, 'cg.out');
        run_ours(["--cachegrind-out-file=$out"], ['/bin/true']);
        open(my $fh, '<', $out) or die "no output file from /bin/true: $!\n";
        while (my $line = <$fh>) {
            $default_assoc{$1} = $2
                if $line =~ /^desc: (I1|D1) cache:.*?(\d+)-way associative/;
        }
    }
    return $default_assoc{$level} // 0;
}

# The option itself.
{
    my $res = run_ours(['--sim-thread=maybe'], ['/bin/true']);
    is(_status($res), 'exit 1', '--sim-thread=maybe: exit status 1');
    like($res->{stderr}, qr/Bad option: --sim-thread=maybe/, '--sim-thread=maybe: names the option');
    my $help = run_captured(top_dir(), ours_valgrind(), '--tool=cachegrind', '--help');
    like($help->{out}, qr/^    --sim-thread=yes\|no +simulate .*?\[yes\]$/ms,
         '--help lists --sim-thread with its default');
    $res = run_ours(['--sim-vector=maybe'], ['/bin/true']);
    is(_status($res), 'exit 1', '--sim-vector=maybe: exit status 1');
    like($res->{stderr}, qr/Bad option: --sim-vector=maybe/, '--sim-vector=maybe: names the option');
    my $debug = run_captured(top_dir(), ours_valgrind(), '--tool=cachegrind', '--help-debug');
    like($debug->{out}, qr/^    --sim-vector=yes\|no +the simulator .*?\[yes\]$/ms,
         '--help-debug lists --sim-vector with its default');
}

# The split (--sim-split, design.md 2.14): where the general path of the
# cache models keeps the log (a next-line D1 prefetcher under nine),
# chunks are simulated in two passes, the L1s' look-ups then the levels
# below, and the client thread may make the first before handing a
# chunk over: for every chunk (always), where measured faster (yes), or
# never (no: the simulator thread makes both).  The reference cannot
# model these caches (tests/refmodel.t checks the presets against the
# reference model): here each configuration's output must be the same
# byte for byte every way and without the thread, and with always the
# client's stage must have run.  Both L1 stages are reached: AVX2
# vector look-ups (8- and 12-way) and the general one (4 ways, an I1
# under plru).
{
    my @configs = (['--cpu=generic'],
                   ['--cpu=generic', '--I1-policy=plru'],
                   ['--cpu=neoverse-n1'],
                   ['--D1-prefetch=next-line'],
                   ['--D1-prefetch=next-line', '--L2=262144,8,64',
                    '--L2-prefetch=stream', '--LL-prefetch=stream']);
    for my $name (qw(matrix_walk-O2 pointer_chase-O0)) {
        my $prog = $progs->{$name} or next;
        for my $c (@configs) {
            my $label = "$name @$c";
            my %out;
            for my $way (['split', ['--sim-split=always']], ['chosen', []],
                         ['not split', ['--sim-split=no']],
                         ['no thread', ['--sim-thread=no']]) {
                my $res = run_ours(['--stats=yes', @$c, @{ $way->[1] }], [$prog]);
                my ($main) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $res->{files} || [] };
                $out{ $way->[0] } = $main ? $main->{content} : undef;
                my ($staged) = $res->{stderr} =~ /access log split \(--sim-split=\w+\): (\d+) chunks/;
                if ($way->[0] eq 'split') {
                    SKIP: {
                        skip $one_cpu, 1 if $one_cpu;
                        cmp_ok($staged // 0, '>=', 5, "$label: the L1 stage ran in the client thread")
                            or diag(join "\n", log_lines($res->{stderr}));
                    }
                } elsif ($way->[0] eq 'not split') {
                    ok(!defined $staged, "$label --sim-split=no: no split");
                }
            }
            ok(defined $out{split} && $out{split} =~ /^summary: [1-9]/m, "$label: a main file");
            is($out{split}, $out{chosen}, "$label: the same file with --sim-split=yes (chunks split or whole as measured)");
            is($out{split}, $out{'not split'}, "$label: the same file with --sim-split=no");
            is($out{split}, $out{'no thread'}, "$label: the same file with --sim-thread=no");
        }
    }
    # Configurations it does not apply to keep one thread for the levels
    my $prog = $progs->{'matrix_walk-O2'};
    for my $c ([], ['--L2=262144,8,64'], ['--cpu=zen3']) {
        my $res = run_ours(['--stats=yes', @$c], [$prog]);
        unlike($res->{stderr}, qr/access log split/, "matrix_walk-O2 @$c: no split");
    }
    my $res = run_ours(['--sim-split=maybe'], ['/bin/true']);
    is(_status($res), 'exit 1', '--sim-split=maybe: exit status 1');
    like($res->{stderr}, qr/Bad option: --sim-split=maybe/, '--sim-split=maybe: names the option');
    my $debug = run_captured(top_dir(), ours_valgrind(), '--tool=cachegrind', '--help-debug');
    like($debug->{out}, qr/^    --sim-split=yes\|no\|always +where the general path .*?\[yes\]$/ms,
         '--help-debug lists --sim-split with its default');
}

sub _status {
    my ($res) = @_;
    my $st = $res->{status};
    return 'not run' unless defined $st && $st >= 0;
    return 'exit ' . ($st >> 8) unless $st & 127;
    return 'signal ' . ($st & 127);
}

done_testing();
