package CgTest;

# Shared code for the Cachegrind differential tests.
#
# Every test runs the same client under two tools and compares them:
#   * the reference: the Cachegrind of the Valgrind this tree is built
#     against (tests/lib/CgBuild.pm, made by configure): the system's
#     /usr/bin/valgrind --tool=cachegrind unless configure was given
#     another Valgrind (--with-valgrind=PREFIX, then PREFIX/bin/valgrind),
#     always with VALGRIND_LIB removed from the environment, its banner
#     and release checked;
#   * ours: $TOP/vg-in-place --tool=cachegrind.
# Each run happens in a fresh temporary directory (its cwd), and the
# results (exit status, stdout, stderr, Cachegrind output files) are
# returned as a hashref that compare_runs() turns into TAP assertions.
#
# Host probes (see "Host probes" below): can_compile_m32(),
# can_run_m32(), host_lacks_cpu_feature(), host_cpus() and
# have_ref_tool() say whether this machine has what a test needs; a test
# skips what it cannot run, giving the probe's reason, instead of failing.
#
# Environment:
#   CG_ALLOW_SKIP=1    skip instead of failing when either tool is missing
#   CG_RUN_TIMEOUT=S   seconds before a run is killed (default 180)
#   CG_JOBS=N          concurrent cases in run_parallel (default 2)
#   CG_ONLY=REGEX      run_cases runs only the cases whose label matches
#   CG_KEEP_TMP=1      keep every run's temporary directory
#   CG_TEST_NO_M32=1   act as if the kernel could not run 32-bit programs
#                      (can_run_m32() says "kernel cannot run 32-bit
#                      programs"): every 32-bit case is skipped
#   CG_TEST_NO_CPU_FEATURES=avx2,cx16
#                      act as if the CPU lacked these /proc/cpuinfo flags
#                      (host_lacks_cpu_feature()); also read by the
#                      fixture atomics.c, which then leaves out its
#                      cmpxchg16b part as on a CPU without cx16
#
# Only core Perl modules are used.

use strict;
use warnings;

use Cwd qw(abs_path);
use Exporter qw(import);
use Fcntl qw(:flock);
use File::Basename qw(dirname basename);
use File::Path qw(make_path remove_tree);
use File::Spec;
use File::Temp qw(tempdir);
use POSIX qw(:sys_wait_h);
use Storable qw(nstore retrieve);
use Test::More ();
use Time::HiRes qw(time sleep);

our @EXPORT_OK = qw(
    top_dir tests_dir build_root ref_valgrind ref_vg_at_least ours_valgrind
    require_tools build_progs prog_names build_one
    run_ref run_ours run_valgrind simulate_caches
    run_pair runs_match matches_reference keep_evidence
    parse_cgout normalise_stderr compare_runs check_banner
    run_parallel run_cases case_label slurp spew which run_captured status_str
    REF_BANNER
    can_compile_m32 can_run_m32 host_lacks_cpu_feature host_cpus
    have_ref_tool sharing_fixture sharing_fixtures_or_exit source_marks
);
our %EXPORT_TAGS = (all => \@EXPORT_OK);

# The Valgrind the tree is built against; before configure has run (no
# CgBuild.pm yet), the system's.
my ($BUILD_VG, $BUILD_VG_VERSION, $BUILD_VG_NEW);
BEGIN {
    ($BUILD_VG, $BUILD_VG_VERSION, $BUILD_VG_NEW) = ('/usr/bin/valgrind', undef, 0);
    if (eval { require CgBuild; 1 }) {
        no warnings 'once';
        $BUILD_VG         = $CgBuild::SYSTEM_VALGRIND;
        $BUILD_VG_VERSION = $CgBuild::VG_VERSION;
        $BUILD_VG_NEW     = CgBuild::vg_at_least(3, 21);
    }
}
use constant REF_VALGRIND => $BUILD_VG;
# Cachegrind describes itself differently from 3.21 on.
use constant REF_DESC => $BUILD_VG_NEW ? 'a high-precision tracing profiler'
                                       : 'a cache and branch-prediction profiler';
use constant REF_BANNER_TEXT => 'Cachegrind, ' . REF_DESC;
use constant TOOL_DESC => 'a cache and branch-prediction profiler';

sub REF_BANNER { return REF_BANNER_TEXT }

# Banner of each tool run_valgrind(..., tool => ...) accepts.
my %REF_TOOL_BANNER = (
    'cachegrind' => REF_BANNER_TEXT,
    'exp-bbv'    => 'exp-bbv, a SimPoint basic block vector generator',
    'lackey'     => 'Lackey, an example Valgrind tool',
);

# ---------------------------------------------------------------------------
# Locations

my $TESTS_DIR = abs_path(File::Spec->catdir(dirname(abs_path(__FILE__)), '..'));
my $TOP       = abs_path(File::Spec->catdir($TESTS_DIR, '..'));

sub top_dir       { return $TOP }
sub tests_dir     { return $TESTS_DIR }
sub build_root    { return File::Spec->catdir($TESTS_DIR, 'build') }
sub ref_valgrind  { return REF_VALGRIND }
# True if the reference (the Valgrind built against) is major.minor or later.
sub ref_vg_at_least {
    my ($major, $minor) = @_;
    return 0 unless defined $BUILD_VG_VERSION;
    return CgBuild::vg_at_least($major, $minor);
}
sub ours_valgrind { return File::Spec->catfile($TOP, 'vg-in-place') }

sub slurp {
    my ($path) = @_;
    open(my $fh, '<:raw', $path) or die "cannot read $path: $!\n";
    local $/;
    my $data = <$fh>;
    close $fh;
    return defined $data ? $data : '';
}

# run_captured($dir, @cmd) -> { out, err, status, signal }: runs @cmd
# (the first element is the program's path, also its argv[0]) in $dir
# with stdin from /dev/null, capturing stdout and stderr.  status is the
# exit code, or 128 + the signal for a program killed by one (as a shell
# reports it), so that a crash never reads as success; signal is that
# signal, else 0.  $dir may also be { dir => $dir, argv0 => $name }:
# messages that start with argv[0] then carry no machine-specific path.
sub run_captured {
    my ($where, @cmd) = @_;
    my %o = ref $where ? %$where : (dir => $where);
    my $cap = tempdir('cgcap-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my ($o, $e) = ("$cap/stdout", "$cap/stderr");
    my $pid = fork() // die "fork: $!\n";
    if ($pid == 0) {
        chdir $o{dir}              or POSIX::_exit(126);
        open(STDOUT, '>', $o)      or POSIX::_exit(126);
        open(STDERR, '>', $e)      or POSIX::_exit(126);
        open(STDIN, '<', '/dev/null');
        { no warnings 'exec'; exec { $cmd[0] } $o{argv0} // $cmd[0], @cmd[1 .. $#cmd]; }
        print STDERR "cannot exec $cmd[0]: $!\n";
        POSIX::_exit(127);
    }
    waitpid($pid, 0);
    my $signal = $? & 127;
    return { out => slurp($o), err => slurp($e), signal => $signal,
             status => $signal ? 128 + $signal : $? >> 8 };
}

sub spew {
    my ($path, $data) = @_;
    open(my $fh, '>:raw', $path) or die "cannot write $path: $!\n";
    print {$fh} $data;
    close $fh or die "cannot write $path: $!\n";
    return;
}

# Find an executable in PATH (or return undef).
sub which {
    my ($name) = @_;
    return (-x $name ? $name : undef) if $name =~ m{/};
    for my $dir (split /:/, (defined $ENV{PATH} ? $ENV{PATH} : '')) {
        next if $dir eq '';
        my $p = File::Spec->catfile($dir, $name);
        return $p if -f $p && -x _;
    }
    return undef;
}

# ---------------------------------------------------------------------------
# Tool availability. Without both tools a test cannot say anything; by
# default that is a hard failure (BAIL_OUT) so CI can never go green
# without actually running the comparison. CG_ALLOW_SKIP=1 turns it into
# a skip for local work before the tool builds.

sub require_tools {
    my @missing;
    push @missing, REF_VALGRIND . ' (the reference Valgrind) is not installed'
        unless -x REF_VALGRIND;
    push @missing, ours_valgrind() . ' does not exist (build the tool first)'
        unless -x ours_valgrind();
    return 1 unless @missing;
    my $why = join('; ', @missing);
    if (defined $ENV{CG_ALLOW_SKIP} && $ENV{CG_ALLOW_SKIP} eq '1') {
        Test::More::plan(skip_all => "$why (CG_ALLOW_SKIP=1)");
        exit 0;
    }
    Test::More::BAIL_OUT("cannot run the Cachegrind differential tests: $why. "
                         . 'Set CG_ALLOW_SKIP=1 to skip instead of failing.');
    exit 255;    # not reached
}

# ---------------------------------------------------------------------------
# Fixture programs

# The threaded fixture tests/progs-sharing/sharing.c, built -g -$opt
# -pthread (sharing.t, threads.t, caches.t); dies (for an eval) if the
# build fails.  $dep: the calling test file, a dependency of the build.
sub sharing_fixture {
    my ($opt, $dep) = @_;
    my $src = File::Spec->catfile($TESTS_DIR, 'progs-sharing', 'sharing.c');
    my $out = File::Spec->catfile(build_root(), 'progs-sharing', "sharing-$opt");
    my $cc  = defined $ENV{CC} && $ENV{CC} ne '' ? $ENV{CC} : 'gcc';
    return build_one($out, [$src, $dep], $cc, '-g', "-$opt", '-Wall', '-pthread', $src);
}

# The sharing fixture at -O0 and -O2: { O0 => path, O2 => path }, after
# a passing test; or a failing test, and the end of the test file.
sub sharing_fixtures_or_exit {
    my ($dep) = @_;
    my %bins = map { $_ => scalar eval { sharing_fixture($_, $dep) } } qw(O0 O2);
    if (grep { !defined } values %bins) {
        Test::More::fail('build tests/progs-sharing/sharing.c');
        Test::More::diag($@);
        Test::More::done_testing();
        exit 1;
    }
    Test::More::pass('built tests/progs-sharing/sharing.c at -O0 and -O2');
    return \%bins;
}

# The "MARK: name" comments of a source file: { name => line number }
sub source_marks {
    my ($path) = @_;
    my %mark;
    open(my $fh, '<', $path) or die "cannot read $path: $!\n";
    while (my $l = <$fh>) {
        $mark{$1} = $. if $l =~ /MARK: (\w+)/;
    }
    close $fh;
    return \%mark;
}


# name => extra link flags. nodebug, hotlib and swaplib are handled
# specially.
my %PROG_LIBS = (
    threads     => ['-pthread'],
    dlopen_main => ['-ldl'],
    dlswap      => ['-ldl'],
);

# The libraries' sources and the shared objects built from each:
# name => [extra compiler flags].
my %LIBRARIES = (
    hotlib  => { 'libhot.so' => [], 'libhot2.so' => ['-DHOT_OTHER'] },
    # Without start files: loading or unloading runs none of its code.
    swaplib => { 'libswap1.so' => ['-nostartfiles'],
                 'libswap2.so' => ['-nostartfiles', '-DSWAP_OTHER'] },
);

sub _progs_src_dir { return File::Spec->catdir($TESTS_DIR, 'progs') }

# Names of the fixture sources (without .c), excluding the library.
sub prog_names {
    my $dir = _progs_src_dir();
    opendir(my $dh, $dir) or die "cannot open $dir: $!\n";
    my @names = sort map { /^(\w+)\.c$/ ? $1 : () } readdir $dh;
    closedir $dh;
    return grep { !exists $LIBRARIES{$_} } @names;
}

sub _mtime { my @st = stat($_[0]); return @st ? $st[9] : undef }

sub _needs_build {
    my ($out, @deps) = @_;
    my $t = _mtime($out);
    return 1 unless defined $t;
    for my $d (@deps) {
        my $dt = _mtime($d);
        return 1 if defined $dt && $dt >= $t;
    }
    return 0;
}

# Run a command, die with its output if it fails.
sub _run_checked {
    my (@cmd) = @_;
    my $pid = open(my $fh, '-|') // die "fork failed: $!\n";
    if (!$pid) {
        open(STDERR, '>&', \*STDOUT) or POSIX::_exit(127);
        exec { $cmd[0] } @cmd or do {
            print "exec $cmd[0] failed: $!\n";
            POSIX::_exit(127);
        };
    }
    local $/;
    my $out = <$fh>;
    close $fh;
    my $st = $?;
    die "command failed (status $st): @cmd\n" . (defined $out ? $out : '') if $st;
    return;
}

# Compile one output atomically (temp name + rename), so that parallel
# test files never see a half-written binary.
sub _compile {
    my ($out, $post_strip, @cmd) = @_;
    my $tmp = "$out.tmp.$$";
    unlink $tmp;
    _run_checked(@cmd, '-o', $tmp);
    _run_checked('strip', $tmp) if $post_strip;
    rename($tmp, $out) or die "rename $tmp -> $out: $!\n";
    return;
}

# build_one($out, \@deps, @cmd): run compiler command @cmd (without -o)
# to produce $out if $out is missing or older than any of @deps. The
# output is written under a temporary name and renamed into place.
sub build_one {
    my ($out, $deps, @cmd) = @_;
    my $dir = dirname($out);
    make_path($dir);
    open(my $lock, '>', File::Spec->catfile($dir, '.lock'))
        or die "cannot create lock in $dir: $!\n";
    flock($lock, LOCK_EX) or die "flock: $!\n";
    _compile($out, 0, @cmd) if _needs_build($out, @$deps);
    close $lock;
    return $out;
}

# build_progs([$outdir]) -> { variant_name => absolute path }
# Variants: NAME-O0 and NAME-O2 (both -g) for every fixture, 'nodebug'
# (no -g, -O2, stripped), and the shared libraries of %LIBRARIES (-g -O2
# -fPIC -shared and their own flags): 'libhot.so', 'libhot2.so',
# 'libswap1.so' and 'libswap2.so'.
sub build_progs {
    my ($outdir) = @_;
    $outdir = File::Spec->catdir(build_root(), 'progs') unless defined $outdir;
    make_path($outdir);
    $outdir = abs_path($outdir);
    my $cc  = defined $ENV{CC} && $ENV{CC} ne '' ? $ENV{CC} : 'gcc';
    my $src = _progs_src_dir();
    my @common = (File::Spec->catfile($src, 'common.h'), abs_path(__FILE__));

    open(my $lock, '>', File::Spec->catfile($outdir, '.lock'))
        or die "cannot create lock in $outdir: $!\n";
    flock($lock, LOCK_EX) or die "flock: $!\n";

    my %built;
    for my $name (prog_names()) {
        my $c = File::Spec->catfile($src, "$name.c");
        if ($name eq 'nodebug') {
            my $out = File::Spec->catfile($outdir, 'nodebug');
            _compile($out, 1, $cc, '-O2', '-I', $src, $c)
                if _needs_build($out, $c, @common);
            $built{nodebug} = $out;
            next;
        }
        for my $opt ('O0', 'O2') {
            my $out = File::Spec->catfile($outdir, "$name-$opt");
            if (_needs_build($out, $c, @common)) {
                _compile($out, 0, $cc, '-g', "-$opt", '-I', $src, $c,
                         @{ $PROG_LIBS{$name} || [] });
            }
            $built{"$name-$opt"} = $out;
        }
    }
    for my $lib_src (sort keys %LIBRARIES) {
        my $lib_c = File::Spec->catfile($src, "$lib_src.c");
        for my $lib_name (sort keys %{ $LIBRARIES{$lib_src} }) {
            my $lib = File::Spec->catfile($outdir, $lib_name);
            _compile($lib, 0, $cc, '-g', '-O2', '-fPIC', '-shared',
                     @{ $LIBRARIES{$lib_src}{$lib_name} }, $lib_c)
                if _needs_build($lib, $lib_c, @common);
            $built{$lib_name} = $lib;
        }
    }

    flock($lock, LOCK_UN);
    close $lock;
    return \%built;
}

# ---------------------------------------------------------------------------
# Running a Cachegrind

# Environment variables that must never reach either Valgrind: they
# could redirect the reference to another tool directory, or inject
# options into one run only.
my @SCRUB_ENV = qw(VALGRIND_LIB VALGRIND_LIB_INNER VALGRIND_OPTS
                   VALGRIND_LAUNCHER);

sub run_ref  { my ($opts, $cmd, %a) = @_; return run_valgrind('ref',  $opts, $cmd, %a) }
sub run_ours { my ($opts, $cmd, %a) = @_; return run_valgrind('ours', $opts, $cmd, %a) }

# run_valgrind($which, \@opts, \@cmd, %args)
#   $which      'ref' or 'ours'
#   %args:
#     timeout   => seconds before the run is killed (default 180, or
#                  $ENV{CG_RUN_TIMEOUT})
#     env       => { NAME => value, ... } extra environment for the run
#                  (value undef deletes the variable)
#     stdin     => path to feed as standard input (default /dev/null)
#     default_out => 1: do not add --cachegrind-out-file at all, so the
#                  tool's default name (cachegrind.out.<pid>) is used
#     cpu       => N: pin the run (Valgrind and everything it starts) to
#                  one CPU, the N-th (modulo their number) of those this
#                  process may run on (Linux/x86_64 only; silently
#                  ignored elsewhere).
#                  Makes thread scheduling under Valgrind far more
#                  repeatable.
#     launcher  => path: run this valgrind launcher instead of
#                  ./vg-in-place (ours only; an installed copy, say)
#     tool      => 'exp-bbv' or 'lackey': run the reference as that tool
#                  instead of --tool=cachegrind (ref only; tests/bbv.t,
#                  tests/refmodel.t). Then no --cachegrind-out-file is
#                  added and the banner check requires that tool's banner.
#                  Default 'cachegrind'.
# Unless the caller passes its own --cachegrind-out-file (or
# default_out, or tool => 'exp-bbv'), --cachegrind-out-file=<cwd>/cg.out.%p
# is added in front of the caller's options. Output files are collected
# from the run's cwd: a caller-chosen file name must therefore be
# relative or point there.
# simulate_caches([$on]): every later Cachegrind run of the test file that
# does not say --cache-sim=... asks for --cache-sim=yes where the
# reference is Valgrind 3.21 or later, whose default is no; so a test of
# the cache simulation tests it against every release, as 3.19's default
# did.  simulate_caches(0) turns that off again (a test of the defaults).
my $SIMULATE_CACHES = 0;
sub simulate_caches { my ($on) = @_; $SIMULATE_CACHES = $on // 1; return }

sub run_valgrind {
    my ($which, $opts, $cmd, %args) = @_;
    die "run_valgrind: which must be ref or ours\n" unless $which =~ /^(?:ref|ours)$/;
    my @opts = @{ $opts || [] };
    my @cmd  = @{ $cmd  || [] };
    die "run_valgrind: empty client command\n" unless @cmd;
    my $tool = defined $args{tool} ? $args{tool} : 'cachegrind';
    die "run_valgrind: tool must be cachegrind, exp-bbv or lackey\n"
        unless exists $REF_TOOL_BANNER{$tool};
    die "run_valgrind: tool $tool is for the reference only\n"
        if $which ne 'ref' && $tool ne 'cachegrind';

    my $base = tempdir('cgrun-XXXXXXXX', TMPDIR => 1, CLEANUP => 0);
    my $cwd  = File::Spec->catdir($base, 'cwd');
    make_path($cwd);
    my $out_stdout = File::Spec->catfile($base, 'stdout');
    my $out_stderr = File::Spec->catfile($base, 'stderr');

    unshift @opts, '--cache-sim=yes'
        if $SIMULATE_CACHES && $tool eq 'cachegrind' && ref_vg_at_least(3, 21)
           && !grep { /^--cache-sim=/ } @opts;
    my $user_out = grep { /^--cachegrind-out-file=/ } @opts;
    unshift @opts, "--cachegrind-out-file=$cwd/cg.out.%p"
        unless $user_out || $args{default_out} || $tool ne 'cachegrind';

    if ($which eq 'ref' && $args{env}) {
        my @bad = grep { /^VALGRIND_/ } keys %{ $args{env} };
        die "run_valgrind: refusing to pass @bad to the reference\n" if @bad;
    }
    die "run_valgrind: launcher is for our tool only\n"
        if $which eq 'ref' && $args{launcher};
    my $valgrind = $which eq 'ref' ? REF_VALGRIND : ($args{launcher} || ours_valgrind());
    my @argv = ($valgrind, "--tool=$tool", @opts, @cmd);
    my $timeout = $args{timeout}
        || ($ENV{CG_RUN_TIMEOUT} && $ENV{CG_RUN_TIMEOUT} =~ /^\d+$/ ? $ENV{CG_RUN_TIMEOUT} : 180);
    my $stdin = defined $args{stdin} ? $args{stdin} : '/dev/null';

    my $t0  = time;
    my $pid = fork();
    die "fork failed: $!\n" unless defined $pid;
    if ($pid == 0) {
        # Child: own process group so a timeout can kill the whole tree.
        setpgrp(0, 0);
        delete @ENV{@SCRUB_ENV};
        if (my $e = $args{env}) {
            for my $k (sort keys %$e) {
                if (defined $e->{$k}) { $ENV{$k} = $e->{$k} } else { delete $ENV{$k} }
            }
        }
        _pin_to_cpu($args{cpu}) if defined $args{cpu};
        _no_address_randomisation();
        chdir($cwd)                          or POSIX::_exit(126);
        open(STDIN,  '<', $stdin)            or POSIX::_exit(126);
        open(STDOUT, '>', $out_stdout)       or POSIX::_exit(126);
        open(STDERR, '>', $out_stderr)       or POSIX::_exit(126);
        exec { $argv[0] } @argv or do {
            print STDERR "cgtest: cannot exec $argv[0]: $!\n";
            POSIX::_exit(127);
        };
    }

    my ($status, $timed_out) = (undef, 0);
    while (1) {
        my $r = waitpid($pid, WNOHANG);
        if ($r == $pid) { $status = $?; last }
        if ($r < 0)     { $status = -1; last }
        if (time - $t0 > $timeout) {
            $timed_out = 1;
            kill 'KILL', -$pid;    # the process group we created
            waitpid($pid, 0);
            $status = $?;
            last;
        }
        sleep 0.02;
    }
    my $elapsed = time - $t0;

    my %res = (
        which     => $which,
        tool      => $tool,
        valgrind  => $valgrind,
        argv      => \@argv,
        opts      => \@opts,
        cmd       => \@cmd,
        status    => $status,
        exit_code => ($status >= 0 && !($status & 127)) ? ($status >> 8) : undef,
        signal    => ($status >= 0) ? ($status & 127) : undef,
        timed_out => $timed_out,
        elapsed   => $elapsed,
        stdout    => (-e $out_stdout ? slurp($out_stdout) : ''),
        stderr    => (-e $out_stderr ? slurp($out_stderr) : ''),
        files     => [],
        other_files => [],
        tmpdir    => $base,
    );

    # Collect what the run left in its cwd.
    opendir(my $dh, $cwd) or die "cannot open $cwd: $!\n";
    my @names = grep { $_ ne '.' && $_ ne '..' } readdir $dh;
    closedir $dh;
    for my $n (@names) {
        my $p = File::Spec->catfile($cwd, $n);
        next unless -f $p;
        if ($n =~ /^(?:vgcore\.\d+|core(?:\.\d+)?)$/) {    # core dumps: not compared
            push @{ $res{other_files} }, $n;
            next;
        }
        my ($fpid) = $n =~ /(\d+)$/;
        push @{ $res{files} }, { name => $n, pid => $fpid, content => slurp($p) };
    }
    # Order by pid where the name ends in one, else by name: the main
    # process first, then its children in the order they were forked.
    # Pairing ref and ours files by this rank pairs parent with parent
    # and child with child.  Pids are counted from the main process's,
    # modulo the largest pid_max, because on a busy machine pids wrap
    # (at 32768 by default) between a parent and its child.
    my $rank = sub { (($_[0] - $pid) % 4194304 + 4194304) % 4194304 };
    @{ $res{files} } = sort {
        (defined $a->{pid} && defined $b->{pid})
            ? ($rank->($a->{pid}) <=> $rank->($b->{pid}) || $a->{name} cmp $b->{name})
            : ($a->{name} cmp $b->{name})
    } @{ $res{files} };

    # A tool that resolves a relative output name against the client's
    # current directory instead of the start-up one would write into
    # whatever directory the client moved to (the chdir fixture goes to
    # /). Catch, report and remove such strays for the main process.
    $res{stray_files} = [];
    for my $dir ('/', File::Spec->tmpdir()) {
        for my $n ("cachegrind.out.$pid", "cg.out.$pid") {
            my $p = File::Spec->catfile($dir, $n);
            next unless -f $p;
            push @{ $res{stray_files} }, $p;
            unlink $p;
        }
    }

    _check_banner_into(\%res);

    if ($ENV{CG_KEEP_TMP}) {
        Test::More::note("kept $which run directory $base");
    } else {
        remove_tree($base);
        delete $res{tmpdir};
    }
    return \%res;
}

# personality(ADDR_NO_RANDOMIZE), inherited across exec: with address
# space randomisation, where the kernel puts Valgrind's own mappings
# (and so the client's, for 32-bit programs) varies from run to run, and
# with it the cache sets data falls in.  Both tools get the same fixed
# layout.  x86_64 only (syscall number 135), best effort.
sub _no_address_randomisation {
    require Config;
    return unless $^O eq 'linux' && $Config::Config{archname} =~ /^x86_64/;
    syscall(135, 0x0040000);
    return;
}

# sched_setaffinity(0, ...) through Perl's raw syscall(); x86_64 only
# (syscall number 203), best effort.  CPU N is the N-th (modulo their
# number) of the CPUs this process may run on, so that a test run
# confined with taskset or a cpuset stays inside what it was given.
sub _pin_to_cpu {
    my ($cpu) = @_;
    require Config;
    return unless $^O eq 'linux' && $Config::Config{archname} =~ /^x86_64/;
    my @allowed = _allowed_cpus();
    if (!@allowed) {
        my $ncpu = 0;
        if (open(my $fh, '<', '/proc/cpuinfo')) {
            while (<$fh>) { $ncpu++ if /^processor\s*:/ }
            close $fh;
        }
        @allowed = (0 .. ($ncpu > 0 ? $ncpu - 1 : 0));
    }
    my $target = $allowed[$cpu % @allowed];
    my $mask = '';
    vec($mask, $target, 1) = 1;
    $mask .= "\0" x ((8 - length($mask) % 8) % 8);    # whole unsigned longs
    syscall(203, 0, length($mask), $mask);
    return;
}

# The banner is the core's first line: "==PID== <Tool>, <description>".
sub _banners {
    my ($stderr) = @_;
    my $d = join('|', map { quotemeta } TOOL_DESC, REF_DESC);
    return map { /^==\d+== (.*), (?:$d)$/ ? ($1) : () } split /\n/, $stderr;
}

sub _check_banner_into {
    my ($res) = @_;
    my @b = _banners($res->{stderr});
    my $quiet = grep { /^(?:-q|--quiet)$/ } @{ $res->{opts} };
    my $err;
    if ($res->{tool} ne 'cachegrind') {
        # Another reference tool (exp-bbv): its own banner, exactly.
        my $want = $REF_TOOL_BANNER{ $res->{tool} };
        @b = map { /^==\d+== \Q$want\E$/ ? ($res->{tool}) : () } split /\n/, $res->{stderr};
        $err = "no '$want' banner line on stderr" unless @b || $quiet;
    } elsif (!@b) {
        $err = "no '..., " . TOOL_DESC . "' banner line on stderr" unless $quiet;
    } elsif ($res->{which} eq 'ref') {
        my @bad = grep { $_ ne 'Cachegrind' } @b;
        my ($release) = $res->{stderr} =~ /^==\d+== Using Valgrind-(\S+) /m;
        if (@bad || $res->{stderr} !~ /^==\d+== \Q${\ REF_BANNER_TEXT}\E$/m) {
            $err = "reference banner is not exactly '" . REF_BANNER_TEXT . "': "
                 . REF_VALGRIND . ' is not the Cachegrind of the Valgrind built against';
        } elsif (defined $BUILD_VG_VERSION && defined $release
                 && $release ne $BUILD_VG_VERSION) {
            $err = "reference is Valgrind $release, the tree is built against "
                 . "$BUILD_VG_VERSION: " . REF_VALGRIND . ' is not that Valgrind';
        }
    } else {
        my @bad = grep { $_ eq 'Cachegrind' } @b;
        $err = "our run printed the system tool's banner '" . REF_BANNER_TEXT
             . "': vg-in-place is not running our tool (leaked VALGRIND_LIB or wrapper?)"
            if @bad;
    }
    $res->{banners}      = \@b;
    $res->{banner_ok}    = $err ? 0 : 1;
    $res->{banner_error} = $err;
    return;
}

# check_banner($res, $label, [$role]): one TAP assertion on the banner
# check. $role ('ref' or 'ours', default: the run's own) must also be the
# tool that actually produced $res.
sub check_banner {
    my ($res, $label, $role) = @_;
    $role = $res->{which} unless defined $role;
    my $what = $role eq 'ref'
        ? 'reference is the system ' . (($res->{tool} || 'cachegrind') eq 'cachegrind'
                                        ? 'Cachegrind' : $res->{tool})
        : 'ours is not the system Cachegrind';
    my $ok = $res->{banner_ok} && $res->{which} eq $role;
    Test::More::ok($ok, "$label: $what");
    if (!$ok) {
        Test::More::diag("  $res->{banner_error}") if $res->{banner_error};
        Test::More::diag("  expected a run of '$role' but got a run of '$res->{which}'")
            if $res->{which} ne $role;
    }
    return $ok;
}

# runs_match($ref, $ours) -> true if the two runs agree on everything
# compare_runs() checks (no TAP output).
sub runs_match {
    my ($a, $b) = @_;
    return 0 if $a->{timed_out} || $b->{timed_out};
    return 0 unless defined $a->{status} && defined $b->{status} && $a->{status} == $b->{status};
    return 0 unless $a->{stdout} eq $b->{stdout};
    return 0 unless @{ $a->{files} } == @{ $b->{files} };
    for my $i (0 .. $#{ $a->{files} }) {
        return 0 unless $a->{files}[$i]{content} eq $b->{files}[$i]{content};
    }
    return normalise_stderr($a->{stderr}) eq normalise_stderr($b->{stderr}) ? 1 : 0;
}

# run_pair(\@opts, \@cmd, %args) -> { ref => .., ours => .., attempts => n,
#                                     matched => 0|1 }
# Runs the reference and ours with identical options (plus, for ours
# only, $args{ours_opts}). With attempts => N (for clients whose results
# depend on thread scheduling) it keeps running pairs until some
# reference run and some of our runs agree, at most N times; a correct
# tool then almost surely matches within a few tries, a wrong one never
# does. The returned pair is a matching one if found, else the first
# one. Other %args go to run_valgrind.
sub run_pair {
    my ($opts, $cmd, %args) = @_;
    my $attempts  = delete $args{attempts} || 1;
    my $ours_opts = delete $args{ours_opts} || [];
    my (@refs, @ours);
    for my $n (1 .. $attempts) {
        push @refs, run_ref($opts, $cmd, %args);
        push @ours, run_ours([@$opts, @$ours_opts], $cmd, %args);
        # A banner problem is fatal for the comparison: do not retry.
        last if !$refs[-1]{banner_ok} || !$ours[-1]{banner_ok};
        for my $r (@refs) {
            for my $o (@ours) {
                return { ref => $r, ours => $o, attempts => $n, matched => 1 }
                    if runs_match($r, $o);
            }
        }
    }
    return { ref => $refs[0], ours => $ours[0], attempts => scalar @refs, matched => 0 };
}

# ---------------------------------------------------------------------------
# Output file parsing

# parse_cgout($file or \$content) -> {
#   desc => [..], cmd => '..', events => '..' (as written, minus the
#   prefix), event_names => [..], costs => { "file\0fn\0line" => "c1 c2 .." },
#   order => [ keys in file order ], summary => '..', lines => [raw lines],
#   errors => [ problems noticed while parsing ] }
sub parse_cgout {
    my ($src) = @_;
    my $text = ref $src eq 'SCALAR' ? $$src : slurp($src);
    my %r = (desc => [], cmd => undef, events => undef, event_names => [],
             costs => {}, order => [], summary => undef, lines => [], errors => []);
    my @lines = split /\n/, $text, -1;
    pop @lines if @lines && $lines[-1] eq '';    # final newline
    push @{ $r{errors} }, 'file does not end with a newline'
        if length($text) && substr($text, -1) ne "\n";
    $r{lines} = \@lines;
    my ($fl, $fn) = ('', '');
    my $n = 0;
    for my $l (@lines) {
        $n++;
        if ($l =~ /^desc: (.*)$/)            { push @{ $r{desc} }, $1 }
        elsif ($l =~ /^cmd: ?(.*)$/)         { $r{cmd} = $1 }
        elsif ($l =~ /^events: (.*)$/)       { $r{events} = $1; $r{event_names} = [ split ' ', $1 ] }
        elsif ($l =~ /^summary: ?(.*)$/)     { $r{summary} = $1 }
        elsif ($l =~ /^fl=(.*)$/)            { $fl = $1; $fn = '' }
        elsif ($l =~ /^f[ie]=(.*)$/)         { $fl = $1 }
        elsif ($l =~ /^fn=(.*)$/)            { $fn = $1 }
        elsif ($l =~ /^(-?\d+)((?: [\d.]+)*)$/) {
            my $key = join("\0", $fl, $fn, $1);
            (my $counts = $2) =~ s/^ //;
            if (exists $r{costs}{$key}) {
                push @{ $r{errors} }, "line $n: duplicate cost line for $fl/$fn:$1";
                my @a = split ' ', $r{costs}{$key};
                my @b = split ' ', $counts;
                $a[$_] = ($a[$_] // 0) + ($b[$_] // 0) for 0 .. $#b;
                $r{costs}{$key} = join ' ', @a;
            } else {
                $r{costs}{$key} = $counts;
                push @{ $r{order} }, $key;
            }
        }
        elsif ($l eq '')                     { push @{ $r{errors} }, "line $n: blank line" }
        else                                 { push @{ $r{errors} }, "line $n: unrecognised: $l" }
    }
    return \%r;
}

# ---------------------------------------------------------------------------
# stderr normalisation

# Replace pids in the ==PID== / --PID-- / **PID** prefixes and drop the
# lines that legitimately differ between the two tools: the tool banner,
# its copyright line and the "Using Valgrind-..." line. Everything else,
# in particular the summary, is kept verbatim.
sub normalise_stderr {
    my ($text) = @_;
    my $d = join('|', map { quotemeta } TOOL_DESC, REF_DESC);
    my @out;
    for my $l (split /\n/, $text, -1) {
        $l =~ s/^==\d+==/==PID==/;
        $l =~ s/^--\d+--/--PID--/;
        $l =~ s/^\*\*\d+\*\*/**PID**/;
        next if $l =~ /^==PID== .*, (?:$d)$/;
        next if $l =~ /^==PID== Copyright \(C\)/;
        next if $l =~ /^==PID== Using Valgrind-/;
        push @out, $l;
    }
    return join("\n", @out);
}

# ---------------------------------------------------------------------------
# Comparison

sub case_label {
    my ($name, $opts) = @_;
    my @o = @{ $opts || [] };
    return $name . ' [' . (@o ? join(' ', @o) : 'default') . ']';
}

sub _show { my ($s) = @_; return defined $s ? $s : '(absent)' }

sub _key_str { my ($k) = @_; my ($f, $fn, $l) = split /\0/, $k, 3; return "fl=$f fn=$fn line $l" }

# Human-oriented description of how two output files differ.
sub _describe_cgout_diff {
    my ($ra, $rb, $max) = @_;
    $max ||= 12;
    my $a = parse_cgout(\$ra);
    my $b = parse_cgout(\$rb);
    my @msg;
    for my $i (0 .. ((@{ $a->{desc} } > @{ $b->{desc} } ? $#{ $a->{desc} } : $#{ $b->{desc} }))) {
        my ($x, $y) = ($a->{desc}[$i], $b->{desc}[$i]);
        push @msg, "desc[$i]: ref '" . _show($x) . "' vs ours '" . _show($y) . "'"
            if _show($x) ne _show($y);
    }
    for my $f (qw(cmd events summary)) {
        push @msg, "$f: ref '" . _show($a->{$f}) . "' vs ours '" . _show($b->{$f}) . "'"
            if _show($a->{$f}) ne _show($b->{$f});
    }
    push @msg, map { "ref parse: $_" } @{ $a->{errors} }[0 .. ($#{ $a->{errors} } < 4 ? $#{ $a->{errors} } : 4)];
    push @msg, map { "ours parse: $_" } @{ $b->{errors} }[0 .. ($#{ $b->{errors} } < 4 ? $#{ $b->{errors} } : 4)];

    # Differing cost entries, in reference file order then ours-only ones.
    my %seen;
    my @keys = grep { !$seen{$_}++ } (@{ $a->{order} }, @{ $b->{order} });
    my ($ndiff, $shown) = (0, 0);
    for my $k (@keys) {
        my ($x, $y) = ($a->{costs}{$k}, $b->{costs}{$k});
        next if defined $x && defined $y && $x eq $y;
        $ndiff++;
        next if $shown >= $max;
        $shown++;
        push @msg, _key_str($k) . ": ref " . _show($x) . " | ours " . _show($y);
    }
    push @msg, "... $ndiff differing cost entries in all (of "
        . scalar(@{ $a->{order} }) . " ref / " . scalar(@{ $b->{order} }) . " ours)"
        if $ndiff;

    if (!$ndiff && !@msg) {
        # Same content, different text: point at the first differing line.
        my ($la, $lb) = ($a->{lines}, $b->{lines});
        for my $i (0 .. (@$la > @$lb ? $#$la : $#$lb)) {
            next if _show($la->[$i]) eq _show($lb->[$i]);
            push @msg, "first differing line " . ($i + 1) . ": ref '" . _show($la->[$i])
                . "' vs ours '" . _show($lb->[$i]) . "'";
            last;
        }
        push @msg, 'files differ only in the trailing newline' unless @msg;
    }
    return @msg;
}

# A compact line diff: the first differing line with a little context.
sub _describe_text_diff {
    my ($x, $y, $ctx) = @_;
    $ctx = 3 unless defined $ctx;
    my @a = split /\n/, $x, -1;
    my @b = split /\n/, $y, -1;
    my $i = 0;
    $i++ while $i < @a && $i < @b && $a[$i] eq $b[$i];
    # Trim a common tail so the shown hunk is small.
    my ($ea, $eb) = ($#a, $#b);
    while ($ea >= $i && $eb >= $i && $a[$ea] eq $b[$eb]) { $ea--; $eb-- }
    my $from = $i - $ctx < 0 ? 0 : $i - $ctx;
    my @msg = sprintf('@@ first difference at line %d (ref %d lines, ours %d lines) @@',
                      $i + 1, scalar @a, scalar @b);
    push @msg, "  $a[$_]" for $from .. $i - 1;
    my $lim = 20;
    for my $k ($i .. $ea) { last if $k - $i >= $lim; push @msg, "- $a[$k]" }
    for my $k ($i .. $eb) { last if $k - $i >= $lim; push @msg, "+ $b[$k]" }
    my $after = ($ea + 1 > $i ? $ea + 1 : $i);
    push @msg, "  $a[$_]" for grep { $_ < @a } $after .. $after + $ctx - 1;
    return @msg;
}

# compare_runs($ref, $ours, $label, %opt) -> true if everything matched.
# matches_reference($label, $cmd, \@ours_opts, %args): runs the reference
# (with $args{common} options) and ours (with those and @ours_opts) and
# compares them in one subtest; $args{attempts} as for run_pair.
# Returns ours's result.
sub matches_reference {
    my ($label, $cmd, $ours_opts, %args) = @_;
    my $common = delete $args{common} || [];
    my $expect = delete $args{expect_files};
    my $pair = run_pair($common, $cmd, %args, ours_opts => $ours_opts);
    Test::More::subtest($label => sub {
        Test::More::note("$label: matched on attempt $pair->{attempts}")
            if $pair->{attempts} > 1 && $pair->{matched};
        compare_runs($pair->{ref}, $pair->{ours}, $label,
                     defined $expect ? (expect_files => $expect) : ());
    });
    return $pair->{ours};
}

# Emits TAP assertions (use inside a subtest for one line per case).
#   %opt: expect_files => N  also assert the reference produced N files
#         compare_stdout => 0 to skip the stdout comparison
sub compare_runs {
    my ($ref, $ours, $label, %opt) = @_;
    my $all = 1;
    my $t = sub { my ($ok) = @_; $all &&= $ok ? 1 : 0; return $ok };

    $t->(check_banner($ref,  $label, 'ref'));
    $t->(check_banner($ours, $label, 'ours'));
    $t->(Test::More::ok(!$ref->{timed_out} && !$ours->{timed_out}, "$label: no timeout"))
        or Test::More::diag("  ref timed out: $ref->{timed_out}, ours timed out: $ours->{timed_out}");

    $t->(Test::More::is(status_str($ours->{status}), status_str($ref->{status}),
                        "$label: exit status"))
        or Test::More::diag("  ref stderr tail:\n" . _tail($ref->{stderr})
                            . "\n  ours stderr tail:\n" . _tail($ours->{stderr}));

    if (!exists $opt{compare_stdout} || $opt{compare_stdout}) {
        my $ok = $t->(Test::More::ok($ref->{stdout} eq $ours->{stdout}, "$label: client stdout"));
        Test::More::diag("  $_") for $ok ? () : _describe_text_diff($ref->{stdout}, $ours->{stdout});
    }

    if (defined $opt{expect_files}) {
        $t->(Test::More::is(scalar @{ $ref->{files} }, $opt{expect_files},
                            "$label: reference wrote $opt{expect_files} output file(s)"))
            or Test::More::diag('  ref files: ' . join(' ', map { $_->{name} } @{ $ref->{files} }));
    }
    for my $run ($ref, $ours) {
        my @stray = @{ $run->{stray_files} || [] };
        $t->(Test::More::ok(!@stray, "$label: $run->{which}: no output file outside the start directory"))
            or Test::More::diag("  found (and removed): @stray");
    }
    my $nf_ok = $t->(Test::More::is(scalar @{ $ours->{files} }, scalar @{ $ref->{files} },
                                    "$label: number of output files"));
    Test::More::diag('  ref: ' . join(' ', map { $_->{name} } @{ $ref->{files} })
                     . '; ours: ' . join(' ', map { $_->{name} } @{ $ours->{files} }))
        unless $nf_ok;
    my $n = @{ $ref->{files} } < @{ $ours->{files} } ? @{ $ref->{files} } : @{ $ours->{files} };
    for my $i (0 .. $n - 1) {
        my ($fa, $fb) = ($ref->{files}[$i], $ours->{files}[$i]);
        my $same = $fa->{content} eq $fb->{content};
        $t->(Test::More::ok($same, "$label: output file #" . ($i + 1) . ' identical'));
        next if $same;
        Test::More::diag("  ref $fa->{name} vs ours $fb->{name}:");
        Test::More::diag("  $_") for _describe_cgout_diff($fa->{content}, $fb->{content});
    }

    my ($sa, $sb) = (normalise_stderr($ref->{stderr}), normalise_stderr($ours->{stderr}));
    my $ok = $t->(Test::More::ok($sa eq $sb, "$label: normalised stderr"));
    Test::More::diag("  $_") for $ok ? () : _describe_text_diff($sa, $sb);
    unless ($all) {
        my $kept = eval { keep_evidence($label, $ref, $ours) };
        Test::More::diag($kept ? "  both runs kept in $kept" : "  could not keep the runs: $@");
    }
    return $all;
}

# A failed comparison keeps what both runs left (stdout, stderr, output
# files) under tests/build/failures/, since the run directories are gone
# by now: a failure seen once, in a run nobody watched, can still be
# looked at.  Returns the directory; dies if it cannot write there.
sub keep_evidence {
    my ($label, @runs) = @_;
    (my $name = $label) =~ s/[^\w.=,-]+/_/g;
    my $dir = File::Spec->catdir(build_root(), 'failures', $name);
    remove_tree($dir);    # an earlier failure's files would mix in
    make_path($dir);
    for my $run (@runs) {
        my $which = $run->{which} || 'run';
        spew(File::Spec->catfile($dir, "$which.stdout"), $run->{stdout} // '');
        spew(File::Spec->catfile($dir, "$which.stderr"), $run->{stderr} // '');
        for my $f (@{ $run->{files} || [] }) {
            spew(File::Spec->catfile($dir, "$which.$f->{name}"), $f->{content});
        }
    }
    return $dir;
}

sub status_str {
    my ($st) = @_;
    return 'not run' unless defined $st && $st >= 0;
    return 'exit ' . ($st >> 8) unless $st & 127;
    return 'signal ' . ($st & 127) . (($st & 128) ? ' (core)' : '');
}

sub _tail {
    my ($s, $n) = @_;
    $n ||= 8;
    my @l = split /\n/, $s;
    @l = @l[-$n .. -1] if @l > $n;
    return join("\n", map { "    $_" } @l);
}

# ---------------------------------------------------------------------------
# Host probes
#
# Each answers once per process (the answer is cached) and, where it can
# say no, gives the reason as a string that a test passes to skip();
# undef means the host has what is asked for.
#
#   can_compile_m32()   undef if `gcc -m32` links a program, else why not
#   can_run_m32()       undef if 32-bit programs can be profiled here:
#                       they compile, the kernel runs them and the x86
#                       variant of our tool (cachegrind-x86-linux) was
#                       built.  With CG_TEST_NO_M32=1 it always says
#                       "kernel cannot run 32-bit programs".
#   host_lacks_cpu_feature($flag)
#                       undef if the flag (as /proc/cpuinfo spells it:
#                       avx2, cx16, ...) is listed there, else why not
#                       (the kernel lists avx2 only if it also saves the
#                       registers, which Valgrind checks too);
#                       CG_TEST_NO_CPU_FEATURES=flag,flag hides flags.
#                       In list context: ($why, $simulated), $simulated
#                       true if the flag is only hidden by the variable
#                       (the tools still see it).
#   host_cpus()         how many CPUs this process may run on (its
#                       affinity mask, as `taskset` sets it: what our
#                       tool looks at to decide on a simulator thread)
#   have_ref_tool($tool [, $platform])
#                       true if the system Valgrind runs --tool=$tool on
#                       a program of $platform ('amd64', the default, or
#                       'x86'); in list context (0|1, $why_not)

use constant M32_KERNEL_REASON => 'kernel cannot run 32-bit programs';

my %PROBE;    # probe name => cached answer ('' for "yes")

sub _cached {
    my ($key, $code) = @_;
    $PROBE{$key} = $code->() // '' unless exists $PROBE{$key};
    return $PROBE{$key} eq '' ? undef : $PROBE{$key};
}

# The 32-bit probe program, built (once for all test files) under
# tests/build/probes; returns its path or dies with the compiler's output.
sub _m32_probe_program {
    my $dir = File::Spec->catdir(build_root(), 'probes');
    make_path($dir);
    my $c = File::Spec->catfile($dir, 'm32.c');
    my $src = "#include <stdio.h>\nint main(void) { puts(\"m32 ok\"); return 0; }\n";
    if (!-e $c || slurp($c) ne $src) {
        spew("$c.tmp.$$", $src);
        rename("$c.tmp.$$", $c) or die "rename $c.tmp.$$: $!\n";
    }
    return build_one(File::Spec->catfile($dir, 'm32'), [$c], 'gcc', '-m32', '-O1', $c);
}

sub can_compile_m32 {
    return _cached('compile_m32', sub {
        return undef if eval { _m32_probe_program(); 1 };
        return 'no 32-bit compiler: gcc -m32 cannot link a program (install gcc-multilib)';
    });
}

# Whether the kernel runs the 32-bit probe: undef, or why not.
sub _m32_runs {
    return _cached('run_m32', sub {
        return M32_KERNEL_REASON
            if defined $ENV{CG_TEST_NO_M32} && $ENV{CG_TEST_NO_M32} eq '1';
        my $why = can_compile_m32();
        return $why if defined $why;
        my $r = _exec_directly(_m32_probe_program());
        return M32_KERNEL_REASON
            if defined $r->{errno} && $r->{errno} == POSIX::ENOEXEC();
        return "a 32-bit program does not start: $r->{error}" if defined $r->{error};
        return "a 32-bit program does not run: exit status $r->{status}, output '$r->{out}'"
            unless $r->{status} == 0 && $r->{out} eq "m32 ok\n";
        return undef;
    });
}

sub can_run_m32 {
    return _cached('can_run_m32', sub {
        my $why = _m32_runs();
        return $why if defined $why;
        my $tool = File::Spec->catfile($TOP, 'cachegrind', 'cachegrind-x86-linux');
        return 'the x86 variant of the tool (cachegrind/cachegrind-x86-linux) was not built'
            unless -x $tool;
        return undef;
    });
}

# Runs $path with execve itself, with an empty environment, and returns
# { status, out } or { error, errno }.  Not through exec(): Perl's exec
# goes through execvp, which hands a file the kernel refuses with
# ENOEXEC to /bin/sh as a script, so the error that says "this kernel
# cannot run 32-bit programs" would never be seen.
sub _exec_directly {
    my ($path) = @_;
    require Config;
    my $cap = tempdir('cgprobe-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my ($o, $e) = ("$cap/stdout", "$cap/stderr");
    my $pid = fork() // die "fork: $!\n";
    if ($pid == 0) {
        open(STDIN, '<', '/dev/null');
        open(STDOUT, '>', $o) or POSIX::_exit(126);
        open(STDERR, '>', $e) or POSIX::_exit(126);
        if ($^O eq 'linux' && $Config::Config{archname} =~ /^x86_64/) {
            my $file = "$path";
            my $argv = pack('pQ', $file, 0);    # { file, NULL }
            my $envp = pack('Q', 0);            # { NULL }
            syscall(59, $file, $argv, $envp);   # execve; returns only on failure
        } else {
            no warnings 'exec';
            exec { $path } $path;
        }
        print STDERR 'errno ' . ($! + 0) . ": $!\n";
        POSIX::_exit(127);
    }
    waitpid($pid, 0);
    my $status = $?;
    my ($out, $err) = (slurp($o), slurp($e));
    return { errno => $1, error => $2 } if $status >> 8 == 127 && $err =~ /^errno (\d+): (.*)$/m;
    return { status => $status, out => $out };
}

my %CPU_FLAGS;

sub host_lacks_cpu_feature {
    my ($flag) = @_;
    my %hidden = map { $_ => 1 } grep { $_ ne '' }
                 split /[\s,]+/, lc($ENV{CG_TEST_NO_CPU_FEATURES} // '');
    if ($hidden{ lc $flag }) {
        my $why = "the CPU has no $flag (hidden by CG_TEST_NO_CPU_FEATURES)";
        return wantarray ? ($why, 1) : $why;
    }
    my $why = _cached("cpu_$flag", sub {
        if (!%CPU_FLAGS) {
            open(my $fh, '<', '/proc/cpuinfo')
                or return "cannot read /proc/cpuinfo, so cannot tell whether the CPU has $flag";
            while (my $line = <$fh>) {
                next unless $line =~ /^flags\s*:\s*(.*)$/;
                $CPU_FLAGS{$_} = 1 for split ' ', $1;
                last;
            }
            close $fh;
        }
        return "no flags line in /proc/cpuinfo, so cannot tell whether the CPU has $flag"
            unless %CPU_FLAGS;
        return $CPU_FLAGS{$flag} ? undef : "the CPU has no $flag (not among the /proc/cpuinfo flags)";
    });
    return wantarray ? ($why, 0) : $why;
}

# The CPUs this process may run on, from Cpus_allowed_list in
# /proc/self/status ("0-3,8"); empty if that cannot be read.
sub _allowed_cpus {
    open(my $fh, '<', '/proc/self/status') or return ();
    my @cpus;
    while (my $line = <$fh>) {
        next unless $line =~ /^Cpus_allowed_list:\s*(\S+)/;
        for my $range (split /,/, $1) {
            my ($lo, $hi) = $range =~ /^(\d+)(?:-(\d+))?$/ or next;
            push @cpus, $lo .. ($hi // $lo);
        }
        last;
    }
    close $fh;
    return @cpus;
}

sub host_cpus {
    return _cached('cpus', sub {
        my $n = scalar(my @cpus = _allowed_cpus());
        if (!$n && (my $nproc = which('nproc'))) {
            my $out = `'$nproc' 2>/dev/null`;
            $n = $1 if defined $out && $out =~ /^(\d+)/;
        }
        return $n || 1;
    });
}

sub have_ref_tool {
    my ($tool, $platform) = @_;
    $platform //= 'amd64';
    die "have_ref_tool: platform must be amd64 or x86\n" unless $platform =~ /^(?:amd64|x86)$/;
    my $why = _cached("ref_tool_${tool}_$platform", sub {
        return REF_VALGRIND . ' (the reference Valgrind) is not installed' unless -x REF_VALGRIND;
        my $client = '/bin/true';
        if ($platform eq 'x86') {
            my $m32 = _m32_runs();
            return $m32 if defined $m32;
            $client = _m32_probe_program();
        }
        my $dir = tempdir('cgref-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
        local @ENV{@SCRUB_ENV};
        delete @ENV{@SCRUB_ENV};
        my $r = run_captured($dir, REF_VALGRIND, "--tool=$tool", $client);
        return undef if $r->{status} == 0;
        my ($first) = grep { /\S/ && !/^==\d+== *$/ } split /\n/, $r->{err};
        return 'the system Valgrind cannot run --tool=' . $tool . " on $platform programs"
            . (defined $first ? ": $first" : " (exit status $r->{status})");
    });
    return wantarray ? ((defined $why ? 0 : 1), $why) : (defined $why ? 0 : 1);
}

# ---------------------------------------------------------------------------
# Parallel execution

# run_parallel(\@items, $worker, $on_result, [$jobs])
# Runs $worker->($item) for every item in forked children, at most $jobs
# (default $ENV{CG_JOBS} or 2) at a time. Each worker's return value (a
# plain data structure) comes back through Storable and is handed to
# $on_result->($item, $result, $index) in the parent, in item order, as
# soon as all earlier items are done. TAP output therefore only ever comes
# from the parent, in a fixed order.
sub run_parallel {
    my ($items, $worker, $on_result, $jobs) = @_;
    $jobs = $ENV{CG_JOBS} if !defined $jobs && defined $ENV{CG_JOBS} && $ENV{CG_JOBS} =~ /^\d+$/;
    $jobs = 2 unless defined $jobs && $jobs > 0;
    my $dir = tempdir('cgpar-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my (%running, %done);
    my ($next, $emit) = (0, 0);
    my $total = @$items;

    if ($jobs == 1) {
        for my $i (0 .. $total - 1) {
            my $r = eval { $worker->($items->[$i]) };
            $r = { error => "worker died: $@" } unless defined $r;
            $on_result->($items->[$i], $r, $i);
        }
        return;
    }

    while ($emit < $total) {
        while ($next < $total && keys(%running) < $jobs) {
            my $i = $next++;
            my $file = File::Spec->catfile($dir, "r$i");
            my $pid = fork();
            die "fork failed: $!\n" unless defined $pid;
            if ($pid == 0) {
                my $r = eval { $worker->($items->[$i]) };
                $r = { error => "worker died: $@" } unless defined $r;
                my $ok = eval { nstore($r, "$file.tmp"); rename("$file.tmp", $file) };
                POSIX::_exit($ok ? 0 : 1);    # skip END blocks (Test::More)
            }
            $running{$pid} = $i;
        }
        my $pid = waitpid(-1, 0);
        last if $pid < 0;
        next unless exists $running{$pid};
        my $i = delete $running{$pid};
        my $file = File::Spec->catfile($dir, "r$i");
        $done{$i} = -e $file ? retrieve($file) : { error => "worker for item $i failed (status $?)" };
        unlink $file;
        while ($emit < $total && exists $done{$emit}) {
            $on_result->($items->[$emit], delete $done{$emit}, $emit);
            $emit++;
        }
    }
    return;
}

# run_cases(\@cases, $check, [$worker]) -> number of cases reported
# First drops from @cases those whose label does not match $ENV{CG_ONLY}.
# Then runs $worker->($case) for each through run_parallel (default
# worker: run_pair($case->{opts}, $case->{cmd}, %{ $case->{run} })) and
# reports each case, in order, as one subtest named $case->{label}: a
# worker that died is one failed test "<label>: run the case" with the
# error as diagnostic, else $check->($case, $result) makes the
# assertions.  A case with a {skip} reason is not run: it is reported
# as one skipped test.
sub run_cases {
    my ($cases, $check, $worker) = @_;
    @$cases = grep { $_->{label} =~ /$ENV{CG_ONLY}/ } @$cases
        if defined $ENV{CG_ONLY} && $ENV{CG_ONLY} ne '';
    $worker //= sub { run_pair($_[0]{opts}, $_[0]{cmd}, %{ $_[0]{run} || {} }) };
    my $n = 0;
    run_parallel($cases, sub { defined $_[0]{skip} ? {} : $worker->($_[0]) }, sub {
        my ($c, $r) = @_;
        $n++;
        if (defined $c->{skip}) {
            Test::More::note("not run: $c->{label}");
            SKIP: { Test::More::skip($c->{skip}, 1) }
            return;
        }
        Test::More::subtest($c->{label} => sub {
            if ($r->{error}) {
                Test::More::fail("$c->{label}: run the case");
                Test::More::diag($r->{error});
                return;
            }
            $check->($c, $r);
        });
    });
    return $n;
}

1;
