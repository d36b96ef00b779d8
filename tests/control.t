#!/usr/bin/perl
# control.t -- what is counted when: --toggle-collect, the client
# requests CACHEGRIND_START/STOP_INSTRUMENTATION and --instr-at-start.
#
# The system Cachegrind (3.19) has none of these, so nothing here can be
# compared byte for byte.  Instead every expectation comes from a full
# reference run of the same program with the same other options: lines
# that run only inside a toggled function must carry exactly the counts
# the reference gives them (misses too: the caches are simulated outside
# the function), lines that run only outside must be absent, and every
# other line may only have less than in the reference.  The fixtures are
# in tests/progs-control/ (not tests/progs/, whose programs diff-progs.t
# compares byte for byte).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Cwd qw(abs_path);
use File::Basename qw(basename);
use File::Spec;
use Config;
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults

my $SRC    = File::Spec->catdir(tests_dir(), 'progs-control');
my $BIN    = File::Spec->catdir(build_root(), 'control');
my $CG_INC = File::Spec->catdir(top_dir(), 'cachegrind');
my $CC     = defined $ENV{CC}  && $ENV{CC}  ne '' ? $ENV{CC}  : 'gcc';
my $CXX    = defined $ENV{CXX} && $ENV{CXX} ne '' ? $ENV{CXX} : 'g++';
my $SELF   = abs_path(__FILE__);

# ---------------------------------------------------------------------------
# Building the fixtures

# build_fixture($source, $opt, @link) -> path of "<base>-<opt>"
sub build_fixture {
    my ($source, $opt, @link) = @_;
    my ($base, $ext) = $source =~ /^(\w+)\.(c|cc)$/ or die "bad fixture name $source\n";
    my $c   = File::Spec->catfile($SRC, $source);
    my $out = File::Spec->catfile($BIN, "$base-$opt");
    my $compiler = $ext eq 'cc' ? $CXX : $CC;
    my @deps = ($c, File::Spec->catfile($SRC, 'ctl.h'),
                File::Spec->catfile($CG_INC, 'cachegrind.h'), $SELF);
    build_one($out, \@deps, $compiler, '-g', "-$opt", '-I', $SRC, '-I', $CG_INC,
              $c, @link);
    return $out;
}

my %bin;
for my $opt (qw(O0 O2)) {
    $bin{"toggle-$opt"}   = build_fixture('toggle.c',   $opt);
    $bin{"recur-$opt"}    = build_fixture('recur.c',    $opt);
    $bin{"jump-$opt"}     = build_fixture('jump.c',     $opt);
    $bin{"threads-$opt"}  = build_fixture('threads.c',  $opt, '-pthread');
    $bin{"requests-$opt"} = build_fixture('requests.c', $opt);
}
my $have_cxx = defined which($CXX);
$bin{'throw-O0'} = build_fixture('throw.cc', 'O0') if $have_cxx;
my $x86_64 = $Config{archname} =~ /^x86_64/;
$bin{'reentry-O2'} = build_fixture('reentry.c', 'O2') if $x86_64;
my $linux = $^O eq 'linux';
$bin{'threadexit-O2'} = build_fixture('threadexit.c', 'O2', '-pthread') if $linux;

# ---------------------------------------------------------------------------
# All the runs, two at a time (CG_JOBS), before any assertion.

my @jobs;
sub job {
    my ($id, $which, $opts, $cmd, %extra) = @_;
    push @jobs, { id => $id, which => $which, opts => $opts, cmd => $cmd, %extra };
    return;
}

for my $opt (qw(O0 O2)) {
    my $t = [ $bin{"toggle-$opt"} ];
    job("toggle-$opt ref",         'ref',  [], $t);
    job("toggle-$opt ref bs",      'ref',  ['--branch-sim=yes'], $t);
    job("toggle-$opt hot",         'ours', ['--toggle-collect=hot'], $t);
    job("toggle-$opt hot bs",      'ours', ['--toggle-collect=hot', '--branch-sim=yes'], $t);
    job("toggle-$opt ho*",         'ours', ['--toggle-collect=ho*'], $t);
    job("toggle-$opt hot+cold",    'ours', ['--toggle-collect=hot', '--toggle-collect=cold'], $t);
    job("toggle-$opt ho*+c?ld bs", 'ours', ['--toggle-collect=ho*', '--toggle-collect=c?ld',
                                            '--branch-sim=yes'], $t);

    job("recur-$opt ref",  'ref',  [], [ $bin{"recur-$opt"} ]);
    job("recur-$opt rec",  'ours', ['--toggle-collect=rec'], [ $bin{"recur-$opt"} ]);

    job("jump-$opt ref",    'ref',  [], [ $bin{"jump-$opt"} ]);
    job("jump-$opt jumper", 'ours', ['--toggle-collect=jumper'], [ $bin{"jump-$opt"} ]);

    job("threads-$opt ref",       'ref',  [], [ $bin{"threads-$opt"} ]);
    job("threads-$opt ref alone", 'ref',  [], [ $bin{"threads-$opt"}, 'alone' ]);
    job("threads-$opt solo",      'ours', ['--toggle-collect=solo'], [ $bin{"threads-$opt"} ]);

    job("requests-$opt ref",      'ref',  [], [ $bin{"requests-$opt"} ]);
    job("requests-$opt ours",     'ours', ['-v'], [ $bin{"requests-$opt"} ]);
    job("requests-$opt at-start=no", 'ours', ['-v', '--instr-at-start=no'],
        [ $bin{"requests-$opt"} ]);
}
if ($have_cxx) {
    job('throw-O0 ref',     'ref',  [], [ $bin{'throw-O0'} ]);
    job('throw-O0 thrower', 'ours', ['--toggle-collect=thrower(int)'], [ $bin{'throw-O0'} ]);
}
if ($x86_64) {
    # A loop back to the entry of the toggled function: 2,000,000 passes.
    my $r = [ $bin{'reentry-O2'}, 2000000 ];
    job('reentry ref',        'ref',  [], $r);
    job('reentry spin stats', 'ours', ['--stats=yes', '--toggle-collect=spin'], $r);
    job('reentry run stats',  'ours', ['--stats=yes', '--toggle-collect=run'], $r);
}
if ($linux) {
    job('threadexit ref',     'ref',  [], [ $bin{'threadexit-O2'} ]);
    job('threadexit quitter', 'ours', ['--toggle-collect=quitter'], [ $bin{'threadexit-O2'} ]);
}
# Nothing given: the same file as 3.19.
job('plain toggle-O0',    'ours', [], [ $bin{'toggle-O0'} ]);
job('plain toggle-O2 bs', 'ours', ['--branch-sim=yes'], [ $bin{'toggle-O2'} ]);
# Never instrumenting: no cost line at all.
job('never', 'ours', ['--instr-at-start=no'], [ $bin{'toggle-O2'} ]);
# Sixteen patterns are accepted; fifteen of them match nothing.
job('16 patterns', 'ours',
    [ '--toggle-collect=hot', map { "--toggle-collect=nosuchfn$_*" } 1 .. 15 ],
    [ $bin{'toggle-O2'} ]);
# Option handling.
job('help',       'ours', ['--help'], ['/bin/true'], nobanner => 1);
job('bad bool',   'ours', ['--instr-at-start=maybe'], ['/bin/true'], nobanner => 1);
job('empty pat',  'ours', ['--toggle-collect='], ['/bin/true'], nobanner => 1);
job('17 patterns', 'ours', [ map { "--toggle-collect=f$_" } 1 .. 17 ], ['/bin/true'],
    nobanner => 1);

my %R;
run_parallel(\@jobs,
             sub { my ($j) = @_; return run_valgrind($j->{which}, $j->{opts}, $j->{cmd}) },
             sub { my ($j, $r) = @_; $R{ $j->{id} } = $r });

# ---------------------------------------------------------------------------
# Every run: the right tool, finished in time; the references succeeded.

subtest 'every run used the intended tool' => sub {
    for my $j (@jobs) {
        my $r = $R{ $j->{id} };
        if (!$r || $r->{error}) {
            fail("$j->{id}: run failed: " . ($r ? $r->{error} : 'no result'));
            next;
        }
        ok(!$r->{timed_out}, "$j->{id}: no timeout");
        next if $j->{nobanner};
        check_banner($r, $j->{id}, $j->{which});
        is($r->{exit_code}, 0, "$j->{id}: exit status 0")
            or diag("  stderr tail:\n" . join("\n", grep { defined } (split /\n/, $r->{stderr})[-8 .. -1]));
    }
};

# ---------------------------------------------------------------------------
# Helpers

sub key_parts { return split /\0/, $_[0], 3 }
sub key_str   { my ($fl, $fn, $l) = key_parts($_[0]); return basename($fl) . " $fn:$l" }

# The one output file of a run, parsed (undef if not exactly one).
sub profile_of {
    my ($r) = @_;
    return undef unless $r && $r->{files} && @{ $r->{files} } == 1;
    return parse_cgout(\$r->{files}[0]{content});
}

sub counts { return [ split ' ', $_[0] ] }

# The distinct function names of a profile.
sub fn_names {
    my ($prof) = @_;
    my %seen;
    return [ sort grep { !$seen{$_}++ } map { (key_parts($_))[1] } @{ $prof ? $prof->{order} : [] } ];
}

# Whole-name match with the wildcards * and ?, as --toggle-collect does.
sub glob_match {
    my ($pat, $name) = @_;
    my $re = join '', map { $_ eq '*' ? '.*' : $_ eq '?' ? '.' : quotemeta } split //, $pat;
    return $name =~ /\A$re\z/s;
}

# Indexes of the named events (undef for 'all').
sub field_idx {
    my ($prof, $fields) = @_;
    return undef if !defined $fields || $fields eq 'all';
    my %pos;
    @pos{ @{ $prof->{event_names} } } = 0 .. $#{ $prof->{event_names} };
    return [ map { defined $pos{$_} ? $pos{$_} : die "no event $_\n" } @$fields ];
}

sub pick {
    my ($str, $idx) = @_;
    my $c = counts($str);
    return join(' ', defined $idx ? @$c[@$idx] : @$c);
}

# lines_of($prof, $src, $fn, $fields, $all) -> { key => counts }: the lines
# of function $fn in the source file whose base name is $src, executed
# ones only (Ir > 0) unless $all, with only the events named in $fields
# (an array, or 'all').
sub lines_of {
    my ($prof, $src, $fn, $fields, $all) = @_;
    my %h;
    return \%h unless $prof;
    my $idx = field_idx($prof, $fields);
    for my $k (@{ $prof->{order} }) {
        my ($fl, $f) = key_parts($k);
        next unless $f eq $fn && basename($fl) eq $src;
        my $c = $prof->{costs}{$k};
        $h{$k} = pick($c, $idx) if $all || counts($c)->[0] > 0;
    }
    return \%h;
}

# is_deeply on two { key => counts } hashes, with a readable diagnosis.
sub same_lines {
    my ($got, $want, $name) = @_;
    my %all = (%$got, %$want);
    my @bad = grep { ($got->{$_} // '(absent)') ne ($want->{$_} // '(absent)') } sort keys %all;
    my $ok = ok(!@bad && %$want, $name);
    if (!$ok) {
        diag('  no line expected at all (fixture problem?)') unless %$want;
        my $n = 0;
        for my $k (@bad) {
            last if ++$n > 12;
            diag('  ' . key_str($k) . ': expected ' . ($want->{$k} // '(absent)')
                 . ' | got ' . ($got->{$k} // '(absent)'));
        }
        diag('  ... ' . scalar(@bad) . ' lines differ') if @bad > 12;
    }
    return $ok;
}

# check_profile($label, $ref, $ours, %spec): assertions about a partial
# profile (ours) against a full run (ref) of the same program.
#   src    => base name of the fixture source
#   exact  => { fn => 'all' | [event names] }: the fixture lines of these
#             functions must be exactly the executed lines (Ir > 0) of the
#             reference, with the same counts (all or only the events named)
#   want   => another reference run to take the exact counts from
#   absent => [ fns ]: no line of these functions in the fixture source
#   only   => [ fns ]: every line is a fixture line of one of these
#   le     => [ event names ]: the counts compared with the reference's
#             in the no-higher check below (default: all)
# Always: the file parses, has the reference's events, no all-zero line,
# every line is in the reference with counts no higher, and the summary
# is the sum of the lines.
sub check_profile {
    my ($label, $ref_run, $ours_run, %spec) = @_;
    subtest $label => sub {
        my $ref  = profile_of($ref_run);
        my $want = $spec{want} ? profile_of($spec{want}) : $ref;
        my $ours = profile_of($ours_run);
        ok($ref && $want, 'the reference wrote one output file') or return;
        ok($ours, 'ours wrote one output file') or return;
        is_deeply($ours->{errors}, [], 'our file parses cleanly');
        is($ours->{events}, $ref->{events}, 'same events line as the reference');
        my $src = $spec{src};
        my $in_src = sub { basename((key_parts($_[0]))[0]) eq $src };
        my $fn_of  = sub { (key_parts($_[0]))[1] };

        for my $fn (sort keys %{ $spec{exact} || {} }) {
            my $fields = $spec{exact}{$fn};
            my $what = ref $fields ? join('/', @$fields) : 'all counts';
            same_lines(lines_of($ours, $src, $fn, $fields, 1), lines_of($want, $src, $fn, $fields),
                       "$fn(): every executed line present, $what as in the "
                       . ($spec{want} ? 'matching' : 'full') . ' reference run');
        }

        for my $fn (@{ $spec{absent} || [] }) {
            my @l = grep { $in_src->($_) && $fn_of->($_) eq $fn } @{ $ours->{order} };
            ok(!@l, "$fn(): no line") or diag('  found: ' . join(', ', map { key_str($_) } @l));
        }

        if (my $only = $spec{only}) {
            my %ok = map { $_ => 1 } @$only;
            my @l = grep { !($in_src->($_) && $ok{ $fn_of->($_) }) } @{ $ours->{order} };
            ok(!@l, 'no line outside ' . join(', ', map { "$_()" } @$only))
                or diag('  found: ' . join(', ', map { key_str($_) } @l[0 .. ($#l < 9 ? $#l : 9)]));
        }

        my (@higher, @zero);
        my $le = field_idx($ref, $spec{le}) || [ 0 .. $#{ $ref->{event_names} } ];
        for my $k (@{ $ours->{order} }) {
            my $o = counts($ours->{costs}{$k});
            push @zero, $k unless grep { $_ != 0 } @$o;
            my $r = defined $ref->{costs}{$k} ? counts($ref->{costs}{$k}) : undef;
            push @higher, $k if !$r || grep { ($o->[$_] // 0) > ($r->[$_] // 0) } @$le;
        }
        ok(!@higher, 'every line is in the reference, '
           . ($spec{le} ? join('/', @{ $spec{le} }) : 'no count') . ' no higher')
            or diag(join("\n", map { '  ' . key_str($_) . ": ours $ours->{costs}{$_} | ref "
                                     . ($ref->{costs}{$_} // '(absent)') } @higher[0 .. ($#higher < 9 ? $#higher : 9)]));
        ok(!@zero, 'no all-zero line')
            or diag('  e.g. ' . key_str($zero[0]));

        my @sum = (0) x @{ $ours->{event_names} };
        for my $k (@{ $ours->{order} }) {
            my $c = counts($ours->{costs}{$k});
            $sum[$_] += $c->[$_] // 0 for 0 .. $#sum;
        }
        is($ours->{summary} // '', join(' ', @sum), 'summary line is the sum of the lines');
    };
    return;
}

# ---------------------------------------------------------------------------
# --toggle-collect: one function, wildcards, several patterns

for my $opt (qw(O0 O2)) {
    my $f = "toggle-$opt";
    my %hot = (src => 'toggle.c', exact => { hot => 'all', work => 'all' },
               absent => [qw(main cold other)], only => [qw(hot work)]);
    check_profile("$f --toggle-collect=hot", $R{"$f ref"}, $R{"$f hot"}, %hot);
    check_profile("$f --toggle-collect=hot --branch-sim=yes",
                  $R{"$f ref bs"}, $R{"$f hot bs"}, %hot);

    # The wildcards must select the same functions as the plain names:
    # 'h*' would not do, the loader runs handle_intel() and others.
    my $names = fn_names(profile_of($R{"$f ref"}));
    is(join(' ', grep { glob_match('ho*', $_) } @$names), 'hot',
       "$f: of the functions that ran, 'ho*' matches hot only");
    is(join(' ', grep { glob_match('c?ld', $_) } @$names), 'cold',
       "$f: of the functions that ran, 'c?ld' matches cold only");
    my ($a, $b) = map { $_ && @{ $_->{files} } ? $_->{files}[0]{content} : undef }
                  $R{"$f hot"}, $R{"$f ho*"};
    ok(defined $a && defined $b && $a eq $b,
       "$f: --toggle-collect='ho*' gives the same file as =hot");

    my %both = (src => 'toggle.c',
                exact => { map { $_ => 'all' } qw(hot work cold other) },
                absent => ['main'], only => [qw(hot work cold other)]);
    check_profile("$f --toggle-collect=hot --toggle-collect=cold",
                  $R{"$f ref"}, $R{"$f hot+cold"}, %both);
    check_profile("$f --toggle-collect='ho*' --toggle-collect='c?ld' --branch-sim=yes",
                  $R{"$f ref bs"}, $R{"$f ho*+c?ld bs"}, %both);
}

# Recursion: step() runs after inner activations of rec() have returned,
# while outer ones are still active; all of it counts.
for my $opt (qw(O0 O2)) {
    my $f = "recur-$opt";
    check_profile("$f --toggle-collect=rec (recursive)", $R{"$f ref"}, $R{"$f rec"},
                  src => 'recur.c',
                  exact => { rec => 'all', step => 'all', leaf => 'all' },
                  absent => [qw(main outside)], only => [qw(rec step leaf)]);
}

# longjmp out of the toggled function ends its activation.
for my $opt (qw(O0 O2)) {
    my $f = "jump-$opt";
    check_profile("$f --toggle-collect=jumper (longjmp out of it)",
                  $R{"$f ref"}, $R{"$f jumper"},
                  src => 'jump.c',
                  exact => { jumper => 'all', inner => 'all' },
                  absent => [qw(main landed)]);
}

# A C++ exception thrown out of the toggled function.
SKIP: {
    skip "no C++ compiler ($CXX)", 1 unless $have_cxx;
    check_profile("throw-O0 --toggle-collect='thrower(int)' (exception out of it)",
                  $R{'throw-O0 ref'}, $R{'throw-O0 thrower'},
                  src => 'throw.cc',
                  exact => { 'thrower(int)' => 'all' },
                  absent => ['main', 'landed(int)']);
}

# Threads: thread B runs worker() entirely while thread A is inside
# solo(); only A's work counts, i.e. what a reference run in which B
# skips worker() gives (Ir only: the rest depends on the other thread).
for my $opt (qw(O0 O2)) {
    my $f = "threads-$opt";
    check_profile("$f --toggle-collect=solo (per-thread activations)",
                  $R{"$f ref"}, $R{"$f solo"},
                  src => 'threads.c', want => $R{"$f ref alone"},
                  exact => { solo => ['Ir'], worker => ['Ir'] }, le => ['Ir'],
                  absent => [qw(main start_a start_b)]);
    # Lines of solo() itself: only thread A runs them, so the full
    # reference has the same Ir too; worker() has more there (thread B's).
    my ($ref, $ours) = map { profile_of($_) } $R{"$f ref"}, $R{"$f solo"};
    same_lines(lines_of($ours, 'threads.c', 'solo', ['Ir'], 1),
               lines_of($ref,  'threads.c', 'solo', ['Ir']),
               "$f: Ir of solo()'s lines as in the full reference run");
    my ($wr, $wo) = map { lines_of($_, 'threads.c', 'worker', ['Ir']) } $ref, $ours;
    my $more = grep { $wr->{$_} > ($wo->{$_} // 0) } keys %$wr;
    ok($more, "$f: the full reference counts more worker() work than ours (thread B's)");
}

# A loop that jumps back to the first instruction of the toggled function
# passes the entry again and again within one activation: the counts are
# those of the full run, and the memory the tool uses must not grow with
# the number of passes (compared with toggling the caller, run(), which
# counts the same code but is entered once).
SKIP: {
    skip 'the fixture is x86-64 assembly', 3 unless $x86_64;
    check_profile('reentry --toggle-collect=spin (loop back to its entry)',
                  $R{'reentry ref'}, $R{'reentry spin stats'},
                  src => '???', exact => { spin => 'all' }, only => ['spin']);
    my %mmapd = map {
        my $r = $R{"reentry $_ stats"};
        ($_ => ($r->{stderr} =~ /^--\d+-- core\s*:\s*([\d,]+)\//m ? $1 =~ tr/,//dr : undef))
    } qw(spin run);
    ok(defined $mmapd{spin} && defined $mmapd{run},
       'reentry: --stats=yes reports the core arena (tool memory) for both runs');
    {
        # A loop back to the entry with the same stack pointer is the
        # same activation (this once pushed one per pass).
        my ($s, $u) = map { $_ // 0 } @mmapd{qw(spin run)};
        ok($s <= $u + 4 * 1024 * 1024,
           'reentry: memory does not grow with passes through the entry (within 4 MB of toggling the caller)')
            or diag("  core arena max mmap'd: --toggle-collect=spin $s, =run $u");
    }
}

# A thread that ends (raw exit system call) inside the toggled function;
# the next thread gets the same Valgrind thread id and a stack below the
# dead one's.  Ir only: which thread runs first after a pthread_create is
# up to the host.
SKIP: {
    skip 'the fixture is Linux-specific', 2 unless $linux;
    check_profile('threadexit --toggle-collect=quitter (thread exits inside it)',
                  $R{'threadexit ref'}, $R{'threadexit quitter'},
                  src => 'threadexit.c', le => ['Ir'],
                  exact => { quitter => ['Ir'], churn => ['Ir'] },
                  absent => [qw(main start1)]);
    {
        # A thread's activations end with it (a new thread reusing the
        # id once inherited them).
        my $p = profile_of($R{'threadexit quitter'});
        my @l = map { key_str($_) } grep { (key_parts($_))[1] =~ /^(?:later|start2)$/ }
                @{ $p ? $p->{order} : [] };
        ok($p && !@l, 'threadexit: nothing of the next thread (start2(), later()) is counted')
            or diag("  found: @l");
    }
}

# ---------------------------------------------------------------------------
# Client requests and --instr-at-start

for my $opt (qw(O0 O2)) {
    my $f = "requests-$opt";
    my $bin = $bin{$f};
    check_profile("$f STOP skipped() START measured() STOP post()",
                  $R{"$f ref"}, $R{"$f ours"},
                  src => 'requests.c',
                  exact => { pre => 'all', measured => [qw(Ir Dr Dw)] },
                  le => [qw(Ir Dr Dw)], absent => [qw(skipped post)]);
    check_profile("$f --instr-at-start=no: only START..STOP",
                  $R{"$f ref"}, $R{"$f at-start=no"},
                  src => 'requests.c',
                  exact => { measured => [qw(Ir Dr Dw)] }, le => [qw(Ir Dr Dw)],
                  absent => [qw(pre skipped post)], only => [qw(main measured)]);

    my $msgs = sub {
        my ($r) = @_;
        return [ map { /^--\d+-- client request: instrumentation switched (ON|OFF)$/ ? $1 : () }
                 split /\n/, ($r ? $r->{stderr} : '') ];
    };
    is_deeply($msgs->($R{"$f ours"}), [qw(OFF ON OFF)],
              "$f -v: 'instrumentation switched OFF', ON, OFF");
    is_deeply($msgs->($R{"$f at-start=no"}), [qw(ON OFF)],
              "$f -v --instr-at-start=no: ON, OFF (the first STOP changes nothing)");

    my $native = qx{'$bin' 2>&1};
    my $st = $?;
    is($st, 0, "$f runs natively, exit status 0");
    is($native, $R{"$f ref"}{stdout}, "$f: same output natively as under the reference");
    is($R{"$f ours"}{stdout}, $R{"$f ref"}{stdout}, "$f: same output under ours");
}

{
    my $p = profile_of($R{never});
    ok($p && !@{ $p->{order} } && ($p->{summary} // '') =~ /^0( 0)*$/,
       '--instr-at-start=no and no request: no cost line, zero summary');
}
{
    my ($a, $b) = map { $_ && @{ $_->{files} } ? $_->{files}[0]{content} : undef }
                  $R{'toggle-O2 hot'}, $R{'16 patterns'};
    ok(defined $a && defined $b && $a eq $b,
       '16 --toggle-collect patterns accepted; the unmatched ones change nothing');
}

# ---------------------------------------------------------------------------
# Without these options: byte for byte what 3.19 writes.

subtest 'no control option: same as the system Cachegrind (toggle-O0)' => sub {
    compare_runs($R{'toggle-O0 ref'}, $R{'plain toggle-O0'}, 'toggle-O0', expect_files => 1);
};
subtest 'no control option: same as the system Cachegrind (toggle-O2 --branch-sim=yes)' => sub {
    compare_runs($R{'toggle-O2 ref bs'}, $R{'plain toggle-O2 bs'}, 'toggle-O2 bs',
                 expect_files => 1);
};

# ---------------------------------------------------------------------------
# Options

{
    my $h = $R{help}{stdout} . $R{help}{stderr};
    is($R{help}{exit_code}, 0, '--help exits with status 0');
    like($h, qr/^\s*--instr-at-start=yes\|no\s/m, '--help lists --instr-at-start=yes|no');
    like($h, qr/^\s*--toggle-collect=\S+\s/m, '--help lists --toggle-collect');
}
for my $case (['bad bool', qr/--instr-at-start=maybe/, '--instr-at-start=maybe'],
              ['empty pat', qr/--toggle-collect=/, 'an empty --toggle-collect='],
              ['17 patterns', qr/--toggle-collect=.*\n.*16/, '17 --toggle-collect patterns']) {
    my ($id, $re, $what) = @$case;
    my $r = $R{$id};
    ok(defined $r->{exit_code} && $r->{exit_code} != 0, "$what: non-zero exit")
        or diag("  status $r->{status}");
    like($r->{stderr}, $re, "$what: the message names the option");
    is(scalar @{ $r->{files} }, 0, "$what: no output file");
}

done_testing();
