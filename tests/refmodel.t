#!/usr/bin/perl
# refmodel.t -- the tests' reference cache model, tests/refmodel/cgref.c:
# a plain simulator of its own (no code of the tool's), driven by the
# address trace Valgrind's Lackey records (--trace-mem=yes) of a program.
# It is checked itself, and the tool with it: on the tests/progs
# programs (straddling fetches, x87 and vector sizes, string
# instructions, atomics, unaligned accesses) and on several cache
# geometries, its totals must equal the system Cachegrind's summary, and
# ours must too.  Then it is the oracle where the system Cachegrind has
# none: with each of --LL-policy=plru, srrip, brrip and random, and
# --I1-policy/--D1-policy=plru and random (manual 5.7), ours must give
# its totals, seeds included, with and without the access log.  The runs of a program
# start alike (run_valgrind: same environment, no address
# randomisation), so they see the same addresses.  Also: a cyclic scan
# that defeats LRU and not BRRIP (refmodel/cyclic.c, known by
# construction), and bad values of the policy options end the run with
# the option named.
#
# Environment: as for every CgTest file (CG_JOBS, CG_ONLY, CG_KEEP_TMP).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use File::Spec;
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

# A middle level (--L2, manual 5.8), each setting with all its options:
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
);

my @cases;
for my $name (qw(matrix_walk-O2 pointer_chase-O0 straddle_loop-O2 strings-O2
                 unaligned-O0 simd-O2 x87-O0 atomics-O2 recursion-O2 indirect-O2)) {
    if (!$progs->{$name}) {
        push @cases, { label => "refmodel $name", skip => "fixture $name not built" };
        next;
    }
    push @cases, { label => "refmodel $name", cmd => [ $progs->{$name} ] };
}

my $worker = sub {
    my ($c) = @_;
    my %r = (trace => run_ref(['--trace-mem=yes'], $c->{cmd}, tool => 'lackey'));
    for my $i (0 .. $#GEOMETRIES) {
        $r{ref}[$i]  = run_ref($GEOMETRIES[$i], $c->{cmd});
        $r{ours}[$i] = run_ours($GEOMETRIES[$i], $c->{cmd});
    }
    for my $p (0 .. $#POLICIES) {
        for my $g (@POLICY_GEOMETRIES) {
            $r{policy}[$p][$g] = run_ours([@{ $GEOMETRIES[$g] }, @{ $POLICIES[$p] }], $c->{cmd});
        }
    }
    $r{l2}[$_] = run_ours($L2_RUNS[$_], $c->{cmd}) for 0 .. $#L2_RUNS;
    return \%r;
};

# The main file's summary line, or undef.
sub summary_of {
    my ($run) = @_;
    my ($main) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $run->{files} || [] };
    return undef unless $main;
    return parse_cgout(\$main->{content})->{summary};
}

# The reference model's totals for one geometry, from the trace.
sub model_totals {
    my ($trace, $geometry) = @_;
    my $dir = File::Spec->catdir(build_root(), 'refmodel');
    my $in = File::Spec->catfile($dir, "trace.$$");
    spew($in, $trace);
    my $out = `'$cgref' @$geometry < '$in'`;
    my $status = $?;
    unlink $in;
    return undef if $status != 0;
    chomp $out;
    return $out;
}

my $n = run_cases(\@cases, sub {
    my ($c, $r) = @_;
    check_banner($r->{trace}, $c->{label}, 'ref');
    is($r->{trace}{exit_code}, 0, 'Lackey traced the program')
        or return diag("  stderr: " . substr($r->{trace}{stderr}, -400));
    for my $i (0 .. $#GEOMETRIES) {
        my $g = "@{ $GEOMETRIES[$i] }";
        check_banner($r->{ref}[$i], "$c->{label} $g", 'ref');
        my $want = summary_of($r->{ref}[$i]);
        ok(defined $want, "$g: the system Cachegrind's summary") or next;
        my $model = model_totals($r->{trace}{stderr}, $GEOMETRIES[$i]);
        is($model, $want, "$g: the reference model's totals are the system Cachegrind's");
        is(summary_of($r->{ours}[$i]), $want, "$g: ours are too");
    }
    for my $p (0 .. $#POLICIES) {
        for my $gi (@POLICY_GEOMETRIES) {
            my @opts = (@{ $GEOMETRIES[$gi] }, @{ $POLICIES[$p] });
            my $model = model_totals($r->{trace}{stderr},
                                     [grep { !/^--interval-size/ } @opts]);
            ok(defined $model && $model ne '', "@opts: the reference model ran") or next;
            is(summary_of($r->{policy}[$p][$gi]), $model, "@opts: ours are the model's");
        }
    }
    for my $i (0 .. $#L2_RUNS) {
        my @opts = @{ $L2_RUNS[$i] };
        my $model = model_totals($r->{trace}{stderr}, [grep { !/^--(interval-size|data-profile)/ } @opts]);
        ok(defined $model && $model ne '', "@opts: the reference model ran") or next;
        is(summary_of($r->{l2}[$i]), $model, "@opts: ours are the model's");
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
        my $trace = run_ref(['--trace-mem=yes'], [$cyclic], tool => 'lackey');
        my %scan;
        for my $policy ('lru', 'brrip') {
            my @opts = (@caches, "--LL-policy=$policy");
            my $o = run_ours(\@opts, [$cyclic]);
            my ($main) = grep { $_->{name} =~ /^cg\.out\.\d+$/ } @{ $o->{files} };
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
            is(summary_of($o), model_totals($trace->{stderr}, \@opts),
               "cyclic $policy: ours are the reference model's");
        }
        my $ref = run_ref(\@caches, [$cyclic]);
        check_banner($ref, 'cyclic lru', 'ref');
        is(summary_of($ref), model_totals($trace->{stderr}, \@caches),
           'cyclic lru: the reference model is the system Cachegrind');
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

# Bad values: the option is named, the run ends before the program.
for my $bad (['--LL-policy=lfu', 'the policy is one of'],
             ['--LL-policy=plru', 'plru needs a power-of-two associativity',
              '--LL=196608,12,64'],
             ['--seed=x', 'the seed is a decimal number'],
             ['--D1-policy=srrip', 'an L1 takes lru, plru or random'],
             ['--I1-policy=brrip', 'an L1 takes lru, plru or random'],
             ['--L2-policy=lfu', 'the policy is one of', '--L2=262144,8,64'],
             ['--L2-policy=plru', 'plru needs a power-of-two associativity',
              '--L2=196608,12,64']) {
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
