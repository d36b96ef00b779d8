#!/usr/bin/perl
# faults.t -- programs that fail, or are made to: a closed or redirected
# fd 2, exit from a signal handler, _exit in a thread, exec with and
# without --trace-children, signals from outside (SIGTERM, SIGINT, a
# shell wrapper such as timeout, SIGKILL), and running out of memory
# (the client's malloc and mmap, a ulimit -v, Valgrind's own memory).
#
# Each case runs under the system Cachegrind (3.19) and ours.  Where the
# program is deterministic (the signal comes while it waits in pause(),
# a thread exits while the other waits in read()), the output files and
# the normalised stderr must be identical.  Where it is not (killed
# after some time in a busy loop, malloc under a memory limit, whose
# number of blocks depends on each tool's own memory), each run must
# leave a complete profile: one file, ending with its summary: line,
# whose totals equal the sum of its cost lines and the summary on
# stderr; or, where no profile can be written (SIGKILL, Valgrind out of
# memory), a clear message and no file at all, not even a temporary one.
# Every such fact is checked on the reference too, so that the test
# states what 3.19 does.  docs/manual.md, "When the profiled program
# fails", lists the cases.  The fixtures are in tests/progs-faults/.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Config;
use Cwd qw(abs_path);
use File::Path qw(make_path remove_tree);
use File::Spec;
use File::Temp qw(tempdir);
use POSIX qw(:sys_wait_h);
use Time::HiRes qw(time sleep);
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults
# Started under nohup(1), the tests would hand the clients SIGHUP ignored
# (an ignored signal stays ignored across exec), and the SIGHUP cases
# need its default action.
$SIG{HUP} = 'DEFAULT';

my $SRC  = File::Spec->catdir(tests_dir(), 'progs-faults');
my $BIN  = File::Spec->catdir(build_root(), 'faults');
my $CC   = defined $ENV{CC} && $ENV{CC} ne '' ? $ENV{CC} : 'gcc';
my $SELF = abs_path(__FILE__);

my $linux_x86_64 = $^O eq 'linux' && $Config{archname} =~ /^x86_64/;

# ---------------------------------------------------------------------------
# Building the fixtures: each at -O0 and -O2, with -g.

my %bin;
for my $name (qw(stderr_fd sig_exit thread_exit exec_self killed oom)) {
    my $c = File::Spec->catfile($SRC, "$name.c");
    for my $opt (qw(O0 O2)) {
        $bin{"$name-$opt"} = build_one(
            File::Spec->catfile($BIN, "$name-$opt"),
            [ $c, File::Spec->catfile($SRC, 'faults.h'), $SELF ],
            $CC, '-g', "-$opt", '-I', $SRC, $c, '-pthread');
    }
}

# ---------------------------------------------------------------------------
# Checking a profile that cannot be compared line for line

# The summary on stderr, as event => count, for the events of the
# default run (--cache-sim=yes, --branch-sim=no).
sub stderr_summary {
    my ($stderr) = @_;
    my %ev;
    my $n = qr/([\d,]+)/;
    for my $l (split /\n/, $stderr) {
        $l =~ s/^==\d+== //;
        if    ($l =~ /^I\s+refs:\s+$n$/)    { $ev{Ir}   = $1 }
        elsif ($l =~ /^I1\s+misses:\s+$n$/) { $ev{I1mr} = $1 }
        elsif ($l =~ /^LLi misses:\s+$n$/)  { $ev{ILmr} = $1 }
        elsif ($l =~ /^D\s+refs:\s+$n\s+\(\s*$n rd\s+\+\s+$n wr\)/) {
            @ev{qw(Dr Dw)} = ($2, $3);
        }
        elsif ($l =~ /^D1\s+misses:\s+$n\s+\(\s*$n rd\s+\+\s+$n wr\)/) {
            @ev{qw(D1mr D1mw)} = ($2, $3);
        }
        elsif ($l =~ /^LLd misses:\s+$n\s+\(\s*$n rd\s+\+\s+$n wr\)/) {
            @ev{qw(DLmr DLmw)} = ($2, $3);
        }
    }
    tr/,//d for values %ev;
    return \%ev;
}

# complete_profile_problems($run) -> list of problems (empty: the run
# left exactly one output file, complete and consistent with stderr).
sub complete_profile_problems {
    my ($run) = @_;
    my @files = @{ $run->{files} };
    return ('no output file') unless @files;
    my @p;
    push @p, 'output files: ' . join(' ', map { $_->{name} } @files) if @files != 1;
    my $f = $files[0];
    push @p, "a temporary file: $f->{name}" if $f->{name} =~ /\.tmp\./;
    my $cg = parse_cgout(\$f->{content});
    push @p, map { "$f->{name}: $_" } @{ $cg->{errors} };
    push @p, "$f->{name}: no events: line" unless @{ $cg->{event_names} };
    my @lines = @{ $cg->{lines} };
    push @p, "$f->{name}: the last line is not summary:"
        unless @lines && $lines[-1] =~ /^summary:/;
    return @p unless defined $cg->{summary};
    my @names = @{ $cg->{event_names} };
    my @summary = split ' ', $cg->{summary};
    push @p, "$f->{name}: summary has " . @summary . ' counts for ' . @names . ' events'
        if @summary != @names;
    my @sum = (0) x @names;
    for my $counts (values %{ $cg->{costs} }) {
        my @c = split ' ', $counts;
        $sum[$_] += $c[$_] // 0 for 0 .. $#names;
    }
    for my $i (0 .. $#names) {
        push @p, "$f->{name}: $names[$i]: summary $summary[$i], lines add up to $sum[$i]"
            if ($summary[$i] // -1) != $sum[$i];
    }
    my $ev = stderr_summary($run->{stderr});
    for my $i (0 .. $#names) {
        my $e = $names[$i];
        if (!defined $ev->{$e}) {
            push @p, "stderr: no summary count for $e";
        } elsif ($ev->{$e} != ($summary[$i] // -1)) {
            push @p, "$e: file summary $summary[$i], stderr $ev->{$e}";
        }
    }
    return @p;
}

# A run that must leave a complete profile: one TAP assertion.
sub ok_complete {
    my ($run, $label) = @_;
    my @p = complete_profile_problems($run);
    my $ok = ok(!@p, "$label: $run->{which}: one complete profile, summary equal to stderr's");
    diag("  $_") for @p[0 .. ($#p < 7 ? $#p : 7)];
    return $ok;
}

# A run that must leave nothing: no file of any name in its directory.
sub ok_no_file {
    my ($run, $label) = @_;
    my @names = map { $_->{name} } @{ $run->{files} };
    return ok(!@names, "$label: $run->{which}: no output file, not even a temporary one")
        || diag("  found: @names");
}

# ---------------------------------------------------------------------------
# Signals from outside

# start_killer($marker, \@script, $to_group) -> pid of a process that
# waits for the fixture's marker file (its pid, 4 bytes, written by
# killed.c),
# then runs @script: [signal name, seconds to wait before it] pairs.
# A 'wait' fixture is signalled only once its main thread is blocked in
# pause() (/proc/PID/syscall says 34), so that the signal always finds
# it at the same instruction. $to_group sends to the process group
# (run_valgrind makes Valgrind's process its leader), as a terminal's
# Ctrl-C or timeout(1) does.
sub start_killer {
    my ($marker, $script, $to_group, $await_pause) = @_;
    my $pid = fork() // die "fork: $!\n";
    return $pid if $pid;
    my $t0 = time;
    until (-s $marker) {
        POSIX::_exit(1) if time - $t0 > 150;
        sleep 0.02;
    }
    my $raw = slurp($marker);
    POSIX::_exit(1) unless length($raw) == 4;
    my $target = unpack('l', $raw);
    POSIX::_exit(1) unless $target > 1;
    if ($await_pause) {
        my $seen = 0;
        while (time - $t0 < 150) {
            my $sc = eval { slurp("/proc/$target/syscall") };
            if (!defined $sc || !$linux_x86_64) {    # cannot look: give it time
                sleep 1;
                last;
            }
            last if $sc =~ /^34 / && ++$seen >= 3;    # pause(2), three looks in a row
            sleep 0.05;
        }
        sleep 0.2;
    }
    for my $step (@$script) {
        my ($sig, $delay) = @$step;
        sleep $delay if $delay;
        kill $sig, ($to_group ? -$target : $target);
    }
    POSIX::_exit(0);
}

# run_killed($which, \@opts, $prog, $mode, $activity, \@script, %args):
# runs killed.c under one tool and kills it as @script says. The marker
# file ($args{marker}) is part of the command line, so both tools of a
# case get the same path.
sub run_killed {
    my ($which, $opts, $prog, $mode, $activity, $script, %args) = @_;
    my $to_group = delete $args{group};
    my $marker = delete $args{marker};
    unlink $marker;
    my $killer = start_killer($marker, $script, $to_group, $activity eq 'wait');
    my $res = run_valgrind($which, $opts, [ $prog, $mode, $marker, $activity ],
                           timeout => 120, %args);
    kill 'KILL', $killer;
    waitpid($killer, 0);
    $res->{marker_seen} = -e $marker ? 1 : 0;
    return $res;
}

# Whether a process of group $pgrp is alive: not a zombie (an orphan
# waits to be reaped by whatever adopted it, which may take a while).
sub live_in_group {
    my ($pgrp) = @_;
    opendir(my $dh, '/proc') or return kill(0, -$pgrp);
    for my $p (grep { /^\d+$/ } readdir $dh) {
        my $st = eval { slurp("/proc/$p/stat") } // next;
        my ($state, undef, $group) = $st =~ /\)\s+(\S)\s+(\d+)\s+(\d+)/ or next;
        return 1 if $group == $pgrp && $state ne 'Z';
    }
    return 0;
}

# run_wrapped($which, \@wrapper, \@client) -> a result like
# run_valgrind's, for Valgrind started under a wrapper command
# (timeout, sh -c): @wrapper with the word VALGRIND replaced by the
# Valgrind command line (a string inside an sh -c script), and MARKER in
# @client by a path in the run's own directory.
sub run_wrapped {
    my ($which, $wrapper, $client) = @_;
    my $base = tempdir('cgwrap-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my $cwd = "$base/cwd";
    make_path($cwd);
    my $vg = $which eq 'ref' ? ref_valgrind() : ours_valgrind();
    my @vg = ($vg, '--tool=cachegrind', "--cachegrind-out-file=$cwd/cg.out.%p",
              map { $_ eq 'MARKER' ? "$base/started" : $_ } @$client);
    my $vg_str = join ' ', map { "'$_'" } @vg;
    my @argv = map { $_ eq 'VALGRIND' ? @vg : do { (my $w = $_) =~ s/VALGRIND/$vg_str/; $w } }
               @$wrapper;
    my $pid = fork() // die "fork: $!\n";
    if ($pid == 0) {
        setpgrp(0, 0);
        delete @ENV{qw(VALGRIND_LIB VALGRIND_LIB_INNER VALGRIND_OPTS VALGRIND_LAUNCHER)};
        $SIG{INT} = $SIG{TERM} = 'DEFAULT';
        chdir $cwd or POSIX::_exit(126);
        open(STDIN, '<', '/dev/null');
        open(STDOUT, '>', "$base/stdout") or POSIX::_exit(126);
        open(STDERR, '>', "$base/stderr") or POSIX::_exit(126);
        { no warnings 'exec'; exec { $argv[0] } @argv; }
        POSIX::_exit(127);
    }
    my ($t0, $status) = (time, undef);
    while (1) {
        if (waitpid($pid, WNOHANG) == $pid) { $status = $?; last }
        if (time - $t0 > 120) { kill 'KILL', -$pid; waitpid($pid, 0); $status = -1; last }
        sleep 0.05;
    }
    # The wrapper may return before Valgrind is done: timeout(1) waits
    # for its child only, and a shell child dies of the signal at once
    # while Valgrind still reports it and writes its file. Wait until the
    # process group is empty, and say how long that took.
    my $t1 = time;
    while (live_in_group($pid) && time - $t1 < 120) { sleep 0.02 }
    my %res = (which => $which, status => $status, files => [],
               after_wrapper => time - $t1, marker_seen => (-e "$base/started" ? 1 : 0),
               stdout => slurp("$base/stdout"), stderr => slurp("$base/stderr"));
    opendir(my $dh, $cwd) or die "$cwd: $!\n";
    for my $n (sort grep { -f "$cwd/$_" } readdir $dh) {
        push @{ $res{files} }, { name => $n, content => slurp("$cwd/$n") };
    }
    closedir $dh;
    my $banner = REF_BANNER;
    my $is_ref = $res{stderr} =~ /^==\d+== \Q$banner\E$/m ? 1 : 0;
    $res{banner_ok} = $which eq 'ref' ? $is_ref : ($res{stderr} =~ /^==\d+== /m && !$is_ref);
    return \%res;
}

# ---------------------------------------------------------------------------
# Memory limits

# RLIMIT_AS (ulimit -v) for what this process starts; Linux x86_64 only
# (setrlimit is syscall 160, RLIMIT_AS is 9). Only the soft limit moves,
# so it can be raised back.
sub set_address_space_limit {
    my ($bytes) = @_;
    my $old = pack('QQ', 0, 0);
    syscall(97, 9, $old) == 0 or die "getrlimit: $!\n";    # getrlimit
    my ($soft, $hard) = unpack('QQ', $old);
    my $new = pack('QQ', defined $bytes ? $bytes : $hard, $hard);
    syscall(160, 9, $new) == 0 or die "setrlimit: $!\n";
    return $soft;
}

sub run_limited {
    my ($which, $kbytes, $opts, $cmd) = @_;
    my $old = set_address_space_limit($kbytes * 1024);
    my $res = eval { run_valgrind($which, $opts, $cmd) };
    my $err = $@;
    set_address_space_limit($old);
    die $err if $err;
    return $res;
}

# Explicit caches: the simulated LL's tables are sized from the host's
# L3 (hundreds of MB on some machines), which would move every memory
# limit below from one machine to the next.
my @SMALL_CACHES = ('--I1=32768,8,64', '--D1=32768,8,64', '--LL=8388608,16,64');

my $OOM_MESSAGE = qr/Valgrind's memory management: out of memory:/;

# ---------------------------------------------------------------------------
# The cases

my @cases;
sub case { my ($id, %c) = @_; push @cases, { label => $id, %c }; return }

for my $opt (qw(O0 O2)) {
    # fd 2 taken away from Valgrind's stderr.
    for my $mode (qw(close closeall devnull file)) {
        case("stderr_fd $mode -$opt", kind => 'pair', cmd => [ $bin{"stderr_fd-$opt"}, $mode ],
             expect_files => $mode eq 'file' ? 2 : 1);
    }
    # exit() and _exit() in a signal handler.
    for my $mode (qw(alrm-exit alrm-_exit usr1-exit usr1-_exit)) {
        case("sig_exit $mode -$opt", kind => 'pair', cmd => [ $bin{"sig_exit-$opt"}, $mode ],
             expect_files => 1, expect_status => ($mode =~ /alrm/ ? 3 : 4));
    }
    # _exit() and exit() in a thread while main waits in read(). The
    # counts are the same whichever thread runs first after
    # pthread_create, but which of them first touches a shared line (and
    # takes the miss) may not be: up to four pairs of runs.
    for my $mode (qw(blocked exit)) {
        case("thread_exit $mode -$opt", kind => 'pair', cmd => [ $bin{"thread_exit-$opt"}, $mode ],
             expect_files => 1, expect_status => 5, attempts => 6);
    }
    # exec.
    for my $tc (qw(no yes)) {
        for my $mode (qw(exec fork-exec fail)) {
            my $n = $mode eq 'fail' ? 1
                  : $mode eq 'exec' ? ($tc eq 'yes' ? 1 : 0)
                  : ($tc eq 'yes' ? 2 : 1);
            case("exec_self $mode --trace-children=$tc -$opt", kind => 'pair',
                 opts => ["--trace-children=$tc"], cmd => [ $bin{"exec_self-$opt"}, $mode ],
                 expect_files => $n);
        }
    }
    # The client's own allocations fail.
    for my $mode (qw(huge-malloc mmap-fail)) {
        case("oom $mode -$opt", kind => 'pair', cmd => [ $bin{"oom-$opt"}, $mode ],
             expect_files => 1, expect_status => 0);
    }
    # Signals from outside while the program waits in pause(): exact.
    my $k = $bin{"killed-$opt"};
    case("killed default wait, SIGTERM -$opt", kind => 'kill_pair', prog => $k,
         mode => 'default', activity => 'wait', script => [ [ 'TERM', 0 ] ],
         expect_signal => 15);
    case("killed default wait, SIGINT to the group -$opt", kind => 'kill_pair', prog => $k,
         mode => 'default', activity => 'wait', script => [ [ 'INT', 0 ] ], group => 1,
         expect_signal => 2);
    case("killed handler wait, SIGTERM -$opt", kind => 'kill_pair', prog => $k,
         mode => 'handler', activity => 'wait', script => [ [ 'TERM', 0 ] ],
         expect_status => 9);
    case("killed ignore wait, SIGTERM then SIGHUP -$opt", kind => 'kill_pair', prog => $k,
         mode => 'ignore', activity => 'wait', script => [ [ 'TERM', 0 ], [ 'HUP', 1.5 ] ],
         expect_signal => 1);
    case("killed block wait, SIGINT then SIGHUP -$opt", kind => 'kill_pair', prog => $k,
         mode => 'block', activity => 'wait', script => [ [ 'INT', 0 ], [ 'HUP', 1.5 ] ],
         expect_signal => 1);
}

# Not deterministic: each run on its own must be complete.
my $k2 = $bin{'killed-O2'};
case('killed default busy, SIGTERM', kind => 'kill_each', prog => $k2, mode => 'default',
     activity => 'busy', script => [ [ 'TERM', 0.5 ] ], expect_signal => 15);
case('killed default busy, SIGINT', kind => 'kill_each', prog => $k2, mode => 'default',
     activity => 'busy', script => [ [ 'INT', 0.5 ] ], expect_signal => 2);
case('killed default threads, SIGTERM', kind => 'kill_each', prog => $k2, mode => 'default',
     activity => 'threads', script => [ [ 'TERM', 0.5 ] ], expect_signal => 15);
case('killed default busy, SIGKILL', kind => 'kill_each', prog => $k2, mode => 'default',
     activity => 'busy', script => [ [ 'KILL', 0.5 ] ], expect_signal => 9, no_profile => 1);
# Ignored or blocked: SIGTERM does nothing; the run is killed (SIGKILL)
# when its time is up, and nothing is written.
case('killed ignore busy, SIGTERM only', kind => 'kill_each', prog => $k2, mode => 'ignore',
     activity => 'busy', script => [ [ 'TERM', 0.5 ] ], no_profile => 1, timeout => 10,
     expect_timeout => 1);
case('killed block busy, SIGTERM only', kind => 'kill_each', prog => $k2, mode => 'block',
     activity => 'busy', script => [ [ 'TERM', 0.5 ] ], no_profile => 1, timeout => 10,
     expect_timeout => 1);
case('thread_exit spinning', kind => 'each', cmd => [ $bin{'thread_exit-O2'}, 'spinning' ],
     expect_status => 5);

# Under a wrapper that signals the process group, as timeout(1) does.
my $timeout = which('timeout');
if ($timeout) {
    my @client = ($k2, 'default', 'MARKER', 'busy');
    case('timeout -s TERM', kind => 'wrapped', wrapper => [ $timeout, '-s', 'TERM', '5', 'VALGRIND' ],
         client => \@client, expect_status => 124);
    case('timeout -s INT', kind => 'wrapped', wrapper => [ $timeout, '-s', 'INT', '5', 'VALGRIND' ],
         client => \@client, expect_status => 124);
    case('timeout -s TERM, sh -c wrapper', kind => 'wrapped',
         wrapper => [ $timeout, '-s', 'TERM', '5', '/bin/sh', '-c', 'VALGRIND; echo after $?' ],
         client => \@client, expect_status => 124);
    case('timeout -s KILL', kind => 'wrapped', wrapper => [ $timeout, '-s', 'KILL', '5', 'VALGRIND' ],
         client => \@client, expect_signal => 9, no_profile => 1);
}

# Memory limits (ulimit -v).
if ($linux_x86_64) {
    case('oom until-null under ulimit -v', kind => 'limited', kbytes => 262144,
         cmd => [ $bin{'oom-O2'}, 'until-null' ]);
    case('oom until-null-exit under ulimit -v', kind => 'limited', kbytes => 262144,
         cmd => [ $bin{'oom-O2'}, 'until-null-exit' ]);
    case('oom until-null-walk under ulimit -v', kind => 'limited', kbytes => 262144,
         cmd => [ $bin{'oom-O2'}, 'until-null-walk' ], ring => 1);
    case('Valgrind out of memory at start-up', kind => 'startup_oom',
         cmd => [ $bin{'oom-O2'}, 'huge-malloc' ]);
}

# ---------------------------------------------------------------------------
# Running them, two at a time (CG_JOBS)

sub run_case {
    my ($c) = @_;
    my $k = $c->{kind};
    my @opts = @{ $c->{opts} || [] };
    if ($k eq 'pair') {
        return run_pair(\@opts, $c->{cmd}, $c->{attempts} ? (attempts => $c->{attempts}) : ());
    }
    if ($k eq 'each') {
        return { ref => run_ref(\@opts, $c->{cmd}), ours => run_ours(\@opts, $c->{cmd}) };
    }
    if ($k eq 'kill_pair' || $k eq 'kill_each') {
        my $dir = tempdir('cgkill-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
        my %a = (group => $c->{group}, marker => "$dir/started");
        $a{timeout} = $c->{timeout} if $c->{timeout};
        return { map { $_ => run_killed($_, \@opts, $c->{prog}, $c->{mode}, $c->{activity},
                                        $c->{script}, %a) } qw(ref ours) };
    }
    if ($k eq 'wrapped') {
        return { map { $_ => run_wrapped($_, $c->{wrapper}, $c->{client}) } qw(ref ours) };
    }
    if ($k eq 'limited') {
        my %r = map { $_ => run_limited($_, $c->{kbytes}, [ @SMALL_CACHES, @opts ], $c->{cmd}) }
                qw(ref ours);
        $r{ours_nothread} = run_limited('ours', $c->{kbytes},
                                        [ @SMALL_CACHES, '--sim-thread=no', @opts ], $c->{cmd})
            if $c->{ring};
        return \%r;
    }
    if ($k eq 'startup_oom') {
        # The highest limit, in steps of 8 MB down from 120 MB, at which
        # the reference dies of its own out-of-memory.
        for (my $kb = 122880; $kb >= 32768; $kb -= 8192) {
            my $ref = run_limited('ref', $kb, \@SMALL_CACHES, $c->{cmd});
            next unless $ref->{stderr} =~ $OOM_MESSAGE;
            return { kbytes => $kb, ref => $ref,
                     ours => run_limited('ours', $kb, \@SMALL_CACHES, $c->{cmd}) };
        }
        return { kbytes => undef };
    }
    die "unknown kind $k\n";
}

sub check_case {
    my ($c, $r) = @_;
    my $id = $c->{label};
    my $k = $c->{kind};
    if ($r->{error}) {
        fail("$id: $r->{error}");
        return;
    }
    if ($k eq 'pair' || $k eq 'kill_pair') {
        note("$id: matched on attempt $r->{attempts}") if ($r->{attempts} // 1) > 1;
        compare_runs($r->{ref}, $r->{ours}, $id,
                     defined $c->{expect_files} ? (expect_files => $c->{expect_files}) : ());
        is(scalar @{ $r->{ref}{files} }, 1, "$id: reference wrote one output file")
            if $k eq 'kill_pair';
    }
    for my $which (qw(ref ours)) {
        my $run = $r->{$which} or next;
        check_banner($run, $id, $which) if $k ne 'pair' && $k ne 'kill_pair' && $k ne 'wrapped';
        ok($run->{banner_ok}, "$id: $which: the expected tool ran") if $k eq 'wrapped';
        if ($c->{expect_signal}) {
            is(status_str($run->{status}), "signal $c->{expect_signal}",
               "$id: $which: killed by signal $c->{expect_signal}");
        } elsif (defined $c->{expect_status}) {
            is(status_str($run->{status}), "exit $c->{expect_status}",
               "$id: $which: exit status $c->{expect_status}");
        }
        if ($c->{expect_signal} && $c->{expect_signal} != 9 && !$c->{no_profile}) {
            like($run->{stderr},
                 qr/^==\d+== Process terminating with default action of signal $c->{expect_signal} /m,
                 "$id: $which: Valgrind reports the fatal signal");
        }
        if ($k eq 'kill_each' || $k eq 'kill_pair' || $k eq 'wrapped') {
            ok($run->{marker_seen}, "$id: $which: the program started before the signal");
        }
        if ($c->{expect_timeout}) {
            ok($run->{timed_out}, "$id: $which: SIGTERM did not end it (killed when its time was up)");
        }
        next unless $k eq 'kill_each' || $k eq 'each' || $k eq 'wrapped';
        if ($c->{no_profile}) {
            ok_no_file($run, $id);
        } else {
            ok_complete($run, $id);
        }
    }
    if ($k eq 'wrapped') {
        note(sprintf('%s: %s: Valgrind ended %.2f s after the wrapper', $id, $_,
                     $r->{$_}{after_wrapper})) for qw(ref ours);
    }
    if ($k eq 'wrapped' && $id =~ /sh -c/) {
        for my $which (qw(ref ours)) {
            unlike($r->{$which}{stdout}, qr/^after /m,
                   "$id: $which: the shell was killed too (its echo never ran)");
        }
    }
    if ($k eq 'limited') {
        my $ref = $r->{ref};
        # The reference survives the client's exhaustion of the address space.
        is(status_str($ref->{status}), 'exit 0', "$id: ref: exit 0");
        ok_complete($ref, $id);
        like($ref->{stderr}, qr/^oom: \d+ blocks of 1 MiB before NULL$/m,
             "$id: ref: the client's malloc returned NULL");
        for my $which (grep { $r->{$_} } qw(ours ours_nothread)) {
            my $run = $r->{$which};
            my $label = $which eq 'ours' ? $id : "$id, --sim-thread=no";
            # Either a complete profile or Valgrind's own message, exit
            # status 1 and no file: never a silent loss.
            my @p = complete_profile_problems($run);
            my $oom = $run->{stderr} =~ $OOM_MESSAGE;
            ok(!@p || ($oom && status_str($run->{status}) eq 'exit 1' && !@{ $run->{files} }),
               "$label: ours: a complete profile, or the out-of-memory message and no file")
                or diag(join("\n", map { "  $_" } @p));
            if ($c->{ring} && $which eq 'ours') {
                # The access log's ring chunks are allocated during the run:
                # once the client has used up the address space, the missing
                # ones share chunk 0's memory (cg_log.c) and the run goes on.
                ok(!@p, "$label: ours: a complete profile, as the reference");
                is($run->{stdout}, $ref->{stdout}, "$label: ours: client stdout as the reference's");
            } elsif (!@p) {
                is($run->{stdout}, $ref->{stdout}, "$label: ours: client stdout as the reference's");
            } else {
                # Valgrind's own allocations after the client has used up
                # the address space can fail in either tool, depending on
                # where each one's blocks fall: measured, not asserted.
                note("$label: ours ran out of memory itself: "
                     . (($run->{stderr} =~ /(\S+ request for \d+ bytes failed)/)[0] // '?'));
            }
        }
    }
    if ($k eq 'startup_oom') {
        ok(defined $r->{kbytes}, "$id: a limit between 32 and 120 MB where 3.19 runs out of memory")
            or return;
        note("$id: ulimit -v $r->{kbytes}");
        for my $which (qw(ref ours)) {
            my $run = $r->{$which};
            my $oom = $run->{stderr} =~ $OOM_MESSAGE;
            if ($which eq 'ref' || $oom) {
                ok($oom && $run->{stderr} =~ /Valgrind cannot continue\.  Sorry\./,
                   "$id: $which: Valgrind's out-of-memory message");
                is(status_str($run->{status}), 'exit 1', "$id: $which: exit status 1");
                ok_no_file($run, $id);
            } else {
                # Ours started within the limit: then its profile is complete.
                ok_complete($run, $id);
            }
        }
    }
    return;
}

run_cases(\@cases, \&check_case, \&run_case);

done_testing();
