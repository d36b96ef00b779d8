#!/usr/bin/perl
# install.t -- `make install` puts our tool beside the system's Valgrind
# (staged with DESTDIR), the installed launcher runs our cachegrind and
# the system's other tools, `make uninstall` removes what install wrote,
# and the system's own tool directory is never touched.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Digest::MD5;
use File::Find;
use File::Temp qw(tempdir);
use Test::More;
use CgTest qw(:all);

my $top = top_dir();
-f "$top/Makefile" or BAIL_OUT('the tree is not configured: run sh scripts/build.sh');
require CgBuild;

# The Valgrind the tree is built against, wherever it is installed.
my $system_tooldir = do { no warnings 'once'; $CgBuild::SYSTEM_TOOLDIR };
my $system_tool = "$system_tooldir/cachegrind-amd64-linux";
sub fingerprint {
    my ($path) = @_;
    open(my $fh, '<', $path) or return 'missing';
    binmode $fh;
    my @st = stat($fh);
    return Digest::MD5->new->addfile($fh)->hexdigest . " mtime $st[9]";
}
my $system_before = fingerprint($system_tool);

my $stage = tempdir('cginst-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
my $log = `make -C '$top' install DESTDIR='$stage' 2>&1`;
is($?, 0, 'make install DESTDIR=... succeeds') or diag($log);

my $prefix  = "$stage/usr/local";
my $libexec = "$prefix/libexec/cachegrind-ng";
ok(-x "$libexec/cachegrind-amd64-linux" && !-l "$libexec/cachegrind-amd64-linux",
   'our tool is installed as a file in libexec/cachegrind-ng');
ok(-l "$libexec/memcheck-amd64-linux"
   && readlink("$libexec/memcheck-amd64-linux") eq "$system_tooldir/memcheck-amd64-linux",
   'the system tools are linked beside it');
ok(-l "$libexec/vgpreload_core-amd64-linux.so", 'the core preload library is linked');
ok(-x "$prefix/bin/valgrind", 'a valgrind launcher is installed in bin');
ok(-f "$prefix/include/valgrind/cachegrind.h",
   'the client-request header is installed as include/valgrind/cachegrind.h');
ok(-x "$prefix/bin/cg_phases" && -f "$prefix/share/man/man1/cg_phases.1",
   'cg_phases and its man page are installed');

sub run_installed {
    my (@argv) = @_;
    my $dir = tempdir('cgrun-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my $pid = fork();
    if ($pid == 0) {
        delete @ENV{qw(VALGRIND_LIB VALGRIND_OPTS VALGRIND_LAUNCHER)};
        chdir $dir or exit 126;
        open(STDIN, '<', '/dev/null');
        open(STDOUT, '>', "$dir/.stdout"); open(STDERR, '>', "$dir/.stderr");
        exec { $argv[0] } @argv;
        exit 127;
    }
    waitpid($pid, 0);
    return { status => $? >> 8, stderr => slurp("$dir/.stderr"), dir => $dir };
}

# Both runs go through the same harness (same environment, working
# directory depth and fixed address layout), so the counts must agree.
my $cg = run_ours([], ['/bin/true'], launcher => "$prefix/bin/valgrind");
is($cg->{status}, 0, 'installed launcher runs --tool=cachegrind');
like($cg->{stderr}, qr/^==\d+== Cachegrind-ng-[\d.]+, a cache/m, '... and it is our tool');
my $inplace = run_ours([], ['/bin/true']);
my $installed_out = $cg->{files}[0]{content} // '';
ok($installed_out ne '' && $installed_out eq ($inplace->{files}[0]{content} // ''),
   'installed and in-place runs write identical files')
    or diag("installed:\n" . substr($installed_out, 0, 300) . "\nin place:\n"
            . substr($inplace->{files}[0]{content} // '', 0, 300));

my $mc = run_installed("$prefix/bin/valgrind", '--tool=memcheck', '/bin/true');
is($mc->{status}, 0, 'installed launcher runs --tool=memcheck');
like($mc->{stderr}, qr/^==\d+== Memcheck, a memory error detector/m, '... the system Memcheck');

my $vlib = do {
    local $ENV{VALGRIND_LIB} = $libexec;
    my $dir = tempdir('cgrun-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my $vg = ref_valgrind();
    scalar `cd '$dir' && '$vg' --tool=cachegrind --cachegrind-out-file=/dev/null /bin/true 2>&1`;
};
like($vlib, qr/Cachegrind-ng/, 'VALGRIND_LIB=<installed libexec> also selects our tool');

$log = `make -C '$top' uninstall DESTDIR='$stage' 2>&1`;
is($?, 0, 'make uninstall succeeds') or diag($log);
my @left;
find(sub { push @left, $File::Find::name if -f $_ || -l $_ }, $stage);
is(join(' ', @left), '', 'uninstall removed every installed file and link');

is(fingerprint($system_tool), $system_before,
   "the system's $system_tool is untouched");

done_testing();
