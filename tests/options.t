#!/usr/bin/perl
# options.t -- every invalid option value and cache geometry gives the
# same error text and exit status as the system Cachegrind, and the
# text the manual documents.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use CgTest qw(:all);

-x ours_valgrind() or BAIL_OUT('no ./vg-in-place: build the tree first (sh scripts/build.sh)');
-x ref_valgrind()  or BAIL_OUT('no /usr/bin/valgrind: the reference Cachegrind is missing');

# [option, exit status, line the error output must contain]
my @bad = (
    ['--I1=1000,2,64',        1, "valgrind: Cache set count is not a power of two."],
    ['--D1=32768,8,63',       1, "valgrind: Cache set count is not a power of two."],
    ['--LL=32768,3,64',       1, "valgrind: Cache set count is not a power of two."],
    ['--I1=0,8,64',           1, "valgrind: Cache set count is not a power of two."],
    ['--I1=-32768,8,64',      1, "valgrind: Cache set count is not a power of two."],
    ['--I1=,8,64',            1, "valgrind: Cache set count is not a power of two."],
    ['--D1=32768,8,8',        1, "valgrind: Cache line size is too small."],
    ['--LL=64,1,64',          1, "valgrind: Cache size <= line size."],
    ['--LL=4294967296,1,64',  1, "valgrind: One of the cache parameters was too large and overflowed."],
    ['--I1=32768,8',          1, "valgrind: Bad argument '32768,8'"],
    ['--I1=32768,8,64x',      1, "valgrind: Bad argument '32768,8,64x'"],
    ['--I1=32768,8,64,1',     1, "valgrind: Bad argument '32768,8,64,1'"],
    ['--L2=100,2,64',         1, "valgrind: Cache set count is not a power of two."],
    ['--cache-sim=maybe',     1, "valgrind: Invalid boolean value 'maybe' (should be 'yes' or 'no')"],
    ['--branch-sim=',         1, "valgrind: Invalid boolean value '' (should be 'yes' or 'no')"],
    ['--branch-sim=YES',      1, "valgrind: Invalid boolean value 'YES' (should be 'yes' or 'no')"],
    ['--cache-simulation=no', 1, "valgrind: Unknown option: --cache-simulation=no"],
    # Line size below the widest register (16, or 32 with AVX): exits
    # after start-up with its own message.
    ['--I1=32768,8,16',       1, "Cachegrind: cannot continue: the minimum line size (16)"],
    # Bad output names are reported at exit, after the program ran.
    ['--cachegrind-out-file=',           1, 'No filename given'],
    ['--cachegrind-out-file=~/x',        1, "Filename begins with '~'"],
    ['--cachegrind-out-file=%q{CG_NOT_SET_ANYWHERE}', 1,
                                         "Environment variable 'CG_NOT_SET_ANYWHERE' is not set"],
    ['--cachegrind-out-file=%q',         1, "Expected '{' after '%q'"],
    ['--cachegrind-out-file=%q{AB',      1, "Missing '}' in %q specifier"],
    ['--cachegrind-out-file=%z',         1, "Expected 'p' or 'q' or '%' after '%'"],
);

# Accepted values the checks must not reject.
my @good = (
    '--I1=32768,8,4096',             # one set, large line
    '--I1=32768,8,64 --D1=24576,6,64 --LL=3145728,12,64',  # non-power-of-two sizes
    '--cache-sim=no --branch-sim=no',
);

plan tests => 2 + 2 * @bad + @good;

# The checks of cache geometries apply to a cache simulation, which
# Valgrind 3.21 and later run only on request.
simulate_caches();

# Errors found while parsing options end the run before the banner, so
# the banner check that guards every comparison is made once here.
my $sanity = run_pair([], ['/bin/true']);
ok($sanity->{ref}{banner_ok} && $sanity->{ours}{banner_ok},
   'the reference is the system Cachegrind and ours is not')
    or BAIL_OUT('cannot tell the reference from ours: '
                . ($sanity->{ref}{banner_error} // $sanity->{ours}{banner_error} // '?'));

# Compare two runs that stopped before printing a banner.
sub compare_early_exit {
    my ($ref, $ours, $label) = @_;
    is(scalar @{ $ours->{banners} }, 0, "$label: ours stopped before the banner too");
    is($ours->{exit_code}, $ref->{exit_code}, "$label: exit status");
    is(normalise_stderr($ours->{stderr}), normalise_stderr($ref->{stderr}),
       "$label: error text");
    is(scalar @{ $ours->{files} }, scalar @{ $ref->{files} }, "$label: no output file");
}

for my $case (@bad) {
    my ($opt, $status, $expect) = @$case;
    my $pair = run_pair([$opt], ['/bin/true']);
    my ($ref, $ours) = @$pair{qw(ref ours)};
    subtest "$opt: same as the system Cachegrind" => sub {
        if (@{ $ref->{banners} }) {
            compare_runs($ref, $ours, $opt);
        } else {
            compare_early_exit($ref, $ours, $opt);
        }
    };
    my $ours_err = $ours->{stderr};
    my $ok = ok(defined $ours->{exit_code} && $ours->{exit_code} == $status
                && index($ours_err, $expect) >= 0,
                "$opt: exit $status with '$expect'");
    diag("exit " . ($ours->{exit_code} // 'none') . ", stderr:\n$ours_err") unless $ok;
}

for my $opts (@good) {
    my @o = split ' ', $opts;
    my $pair = run_pair(\@o, ['/bin/true']);
    subtest "$opts: accepted, same as the system Cachegrind" => sub {
        compare_runs($pair->{ref}, $pair->{ours}, $opts, expect_files => 1);
        is($pair->{ours}{exit_code}, 0, "$opts: exit 0");
    };
}

# No option at all: the release's own defaults (from 3.21 on, no cache
# simulation, no cache configuration reported, no desc: lines).
simulate_caches(0);
my $defaults = run_pair([], ['/bin/true']);
subtest 'no options: the defaults of the Cachegrind built against' => sub {
    compare_runs($defaults->{ref}, $defaults->{ours}, 'defaults', expect_files => 1);
};
