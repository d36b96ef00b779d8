#!/usr/bin/perl
# fork.t -- output files of a program that forks (cg_file.c).
#
# With %p in a name (the default) parent and child write files of their
# own, exactly as the system Cachegrind does.  Without it they share the
# name: the tool warns at the first fork, the process that writes the
# name first gets it, and any later one writes <name>.<pid> and says so;
# a file an earlier run left under the name is still replaced.  Each
# profile written that way must equal the reference's profile of the
# same process, taken with %p.  The same holds for the phase profile,
# the vector files and the pc file.  A forked child keeps only the
# thread that forked: the parent's other threads write no vector files
# from the child.  Fixtures: tests/progs-fork/forkwait.c (the parent
# waits for each child, so the order in which files are written is
# fixed) and threadfork.c (a second thread is alive at the fork).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Cwd qw(abs_path);
use File::Spec;
use File::Temp qw(tempdir);
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults

my $SRC  = File::Spec->catdir(tests_dir(), 'progs-fork');
my $BIN  = File::Spec->catdir(build_root(), 'progs-fork');
my $CC   = defined $ENV{CC} && $ENV{CC} ne '' ? $ENV{CC} : 'gcc';
my $SELF = abs_path(__FILE__);

my %bin;
for my $name (qw(forkwait threadfork)) {
    my $c = File::Spec->catfile($SRC, "$name.c");
    for my $opt (qw(O0 O2)) {
        $bin{"$name-$opt"} = build_one(File::Spec->catfile($BIN, "$name-$opt"), [$c, $SELF],
                                       $CC, '-g', "-$opt", '-pthread', $c);
    }
}

# The pid of the process Valgrind started (its banner's).
sub main_pid {
    my ($res) = @_;
    return $res->{stderr} =~ /^==(\d+)== Command: /m ? $1 : 'none';
}

sub file_named {
    my ($res, $name) = @_;
    my ($f) = grep { $_->{name} eq $name } @{ $res->{files} };
    return defined $f ? $f->{content} : undef;
}

sub names { my ($res) = @_; return join(' ', sort map { $_->{name} } @{ $res->{files} }) }

# A file's content with the phase profile's "pid:" line taken out.
sub without_pid { my ($text) = @_; return defined $text ? $text =~ s/^pid: \d+\n//mr : undef }

my $WARNING = qr/^==(\d+)== Warning: the program forked, and (?:this output file name has|these output file names have) no %p:\n/m;

# Our stderr without the lines about shared names (the warning and each
# "written by another process" note), for comparison with the
# reference's.
sub without_fork_notes {
    my ($text) = @_;
    $text =~ s/^==\d+== Warning: the program forked, .*\n(?:==\d+==    .*\n)+//m;
    $text =~ s/^==\d+== '[^']*' was written by another process of this run; .*\n//mg;
    return $text;
}

# --- %p: what the system Cachegrind does ------------------------------------

for my $opt (qw(O0 O2)) {
    my $pair = run_pair([], [$bin{"forkwait-$opt"}], default_out => 1);
    subtest "forkwait-$opt, default name: same as the system Cachegrind" => sub {
        compare_runs($pair->{ref}, $pair->{ours}, "forkwait-$opt default name",
                     expect_files => 2);
    };
    unlike($pair->{ours}{stderr}, $WARNING, "forkwait-$opt, default name: no warning");
}

# --- A fixed name -----------------------------------------------------------

# Ours with a fixed name against the reference with %p, for a parent
# and $children children forked one after another: the first child gets
# the name, every later process <name>.<pid>, and each file is the
# reference's profile of the same process.
sub check_fixed_name {
    my ($opt, $children) = @_;
    my @args = $children > 1 ? ($children) : ();
    my $cmd = [$bin{"forkwait-$opt"}, @args];
    my $label = join(' ', "forkwait-$opt", @args, 'fixed name');
    my $ref  = run_ref([], $cmd);
    my $ours = run_ours(['--cachegrind-out-file=cg.out'], $cmd);
    my $ppid = main_pid($ours);
    subtest $label => sub {
        is(scalar @{ $ref->{files} }, $children + 1, 'the reference wrote one file per process');
        # Ours: cg.out (the first child), then the later children and the
        # parent by pid rank, like the reference's files after its parent.
        my @later = grep { $_->{name} ne 'cg.out' } @{ $ours->{files} };
        my ($parent) = grep { $_->{name} eq "cg.out.$ppid" } @later;
        my @children = grep { $_->{name} ne "cg.out.$ppid" } @later;
        is(scalar @later, $children, "the later processes wrote cg.out.<pid>")
            or diag(names($ours));
        ok(defined $parent, "the parent (written last) wrote cg.out.$ppid") or diag(names($ours));
        ok(defined file_named($ours, 'cg.out')
           && file_named($ours, 'cg.out') eq $ref->{files}[1]{content},
           'cg.out is the first child\'s profile, equal to the reference\'s');
        ok(defined $parent && $parent->{content} eq $ref->{files}[0]{content},
           'the parent\'s profile equals the reference\'s');
        for my $i (1 .. $#children + 1) {
            ok($children[$i - 1]{content} eq $ref->{files}[$i + 1]{content},
               "child " . ($i + 1) . "'s profile equals the reference's");
        }
        like($ours->{stderr}, qr/^==$ppid== Warning: the program forked, and this output file name has no %p:\n==$ppid==    --cachegrind-out-file=cg\.out\n==$ppid==    Parent and child share it: the process that writes it later\n==$ppid==    writes '<name>\.<pid>' instead\.\n/m,
             'the warning, once, from the parent');
        is(scalar(() = $ours->{stderr} =~ /Warning: the program forked/g), 1, 'only one warning');
        my @notes = $ours->{stderr} =~ /^==(\d+)== '[^']*\/cg\.out' was written by another process of this run; this process wrote '[^']*\/cg\.out\.(\d+)'\.$/mg;
        my %said = @notes;
        is(scalar(keys %said), $children, 'each later process says where its profile went');
        ok(!(grep { $said{$_} ne $_ } keys %said), 'each names its own pid');
        is(normalise_stderr(without_fork_notes($ours->{stderr})), normalise_stderr($ref->{stderr}),
           'otherwise the same stderr as the reference');
    };
    return;
}

check_fixed_name('O0', 1);
check_fixed_name('O2', 1);
check_fixed_name('O2', 2);

# --- An earlier run's files under the fixed names are replaced --------------

{
    my $dir = tempdir('cgfork-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my @names = qw(cg.out iv bb pc);
    spew("$dir/$_", "an earlier run's $_\n") for @names;
    my $cmd = [$bin{'forkwait-O0'}];
    # The vectors switch VEX's chasing and unrolling off (as exp-bbv),
    # which the reference is told explicitly.
    my $ref = run_ref(['--vex-guest-chase=no', '--vex-iropt-unroll-thresh=0'], $cmd);
    my $ours = run_ours(["--cachegrind-out-file=$dir/cg.out", '--interval-size=50k',
                         "--intervals-out-file=$dir/iv", "--bb-out-file=$dir/bb",
                         '--bb-interval-size=50000', "--pc-out-file=$dir/pc"], $cmd);
    my $ppid = main_pid($ours);
    subtest 'earlier files under fixed names' => sub {
        opendir(my $dh, $dir) or die;
        my $left = join ' ', sort grep { !/^\.\.?$/ } readdir $dh;
        is($left, join(' ', sort map { ($_, "$_.$ppid") } @names),
           'each name once from the child, once with the parent\'s pid, nothing else');
        ok(!(grep { -e "$dir/$_" && slurp("$dir/$_") =~ /an earlier run/ } @names),
           'the earlier run\'s files are gone');
        ok(-e "$dir/cg.out" && slurp("$dir/cg.out") eq $ref->{files}[1]{content},
           'cg.out is the child\'s profile, equal to the reference\'s');
        ok(-e "$dir/cg.out.$ppid" && slurp("$dir/cg.out.$ppid") eq $ref->{files}[0]{content},
           "cg.out.$ppid is the parent's, equal to the reference's");
        like($ours->{stderr}, qr/these output file names have no %p:\n==$ppid==    --cachegrind-out-file=\Q$dir\E\/cg\.out\n==$ppid==    --intervals-out-file=\Q$dir\E\/iv\n==$ppid==    --bb-out-file=\Q$dir\E\/bb\n==$ppid==    --pc-out-file=\Q$dir\E\/pc\n/,
             'the warning lists the four names');
    };
}

# --- The phase profile, vector and pc files: fixed names against %p ---------

{
    my $cmd = [$bin{'forkwait-O2'}];
    my @common = ('--cachegrind-out-file=/dev/null', '--interval-size=20k',
                  '--bb-interval-size=20000');
    my $fixed = run_ours([@common, '--intervals-out-file=iv', '--bb-out-file=bb',
                          '--pc-out-file=pc'], $cmd);
    my $per_pid = run_ours([@common, '--intervals-out-file=iv.%p', '--bb-out-file=bb.%p',
                            '--pc-out-file=pc.%p'], $cmd);
    my ($fp, $pp) = (main_pid($fixed), main_pid($per_pid));
    my ($pc) = grep { $_ ne $pp } map { /^bb\.(\d+)$/ ? $1 : () } map { $_->{name} } @{ $per_pid->{files} };
    subtest 'phase profile, vectors and pc file under fixed names' => sub {
        is(names($fixed), join(' ', sort map { ($_, "$_.$fp") } qw(bb iv pc)),
           'the child\'s files, then the parent\'s')
            or diag($fixed->{stderr});
        ok(defined $pc, 'the run with %p wrote the child\'s files');
        for my $kind (qw(iv bb pc)) {
            my ($child, $parent) = map { without_pid(file_named($fixed, $_)) } $kind, "$kind.$fp";
            ok(defined $child && defined $pc && $child eq without_pid(file_named($per_pid, "$kind.$pc")),
               "$kind: the child's file equals its file with %p");
            ok(defined $parent && $parent eq without_pid(file_named($per_pid, "$kind.$pp")),
               "$kind: the parent's file equals its file with %p");
        }
        unlike($fixed->{stderr}, qr/--cachegrind-out-file=\/dev\/null/,
               'a device shared by parent and child is not warned about');
    };
}

# --- A name that is a symbolic link -----------------------------------------

# Written in place, the link's file could be a relative's; after a fork
# every process writes <name>.<pid> beside it instead.
{
    my $dir = tempdir('cgfork-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    spew("$dir/target", "the link's file\n");
    symlink("$dir/target", "$dir/link.cg") or die "symlink: $!\n";
    my $ours = run_ours(["--cachegrind-out-file=$dir/link.cg"], [$bin{'forkwait-O0'}]);
    my $ppid = main_pid($ours);
    opendir(my $dh, $dir) or die;
    my @beside = grep { /^link\.cg\.\d+$/ } readdir $dh;
    subtest 'a shared name that is a link' => sub {
        is(scalar @beside, 2, 'parent and child each wrote link.cg.<pid>');
        ok((grep { $_ eq "link.cg.$ppid" } @beside), 'one of them is the parent\'s');
        ok(-l "$dir/link.cg" && slurp("$dir/target") eq "the link's file\n",
           'the link and its file are left alone');
        is(scalar(() = $ours->{stderr} =~ /\/link\.cg' is a link that processes of this run share; this process wrote '[^']*\/link\.cg\.\d+'\./g),
           2, 'each says so');
    };
}

# --- A thread alive at the fork ---------------------------------------------

for my $opt (qw(O0 O2)) {
    my $prog = $bin{"threadfork-$opt"};
    my $per_pid = run_ours(['--cachegrind-out-file=/dev/null', '--bb-out-file=bb.%p',
                            '--bb-interval-size=10000'], [$prog]);
    my $pp = main_pid($per_pid);
    my ($cp) = grep { $_ ne $pp } map { /^bb\.(\d+)$/ ? $1 : () } map { $_->{name} } @{ $per_pid->{files} };
    $cp //= 'none';
    my $fixed = run_ours(['--cachegrind-out-file=/dev/null', '--bb-out-file=bb',
                          '--bb-interval-size=10000'], [$prog]);
    my $fp = main_pid($fixed);
    subtest "threadfork-$opt: the child writes only the forking thread's vectors" => sub {
        is(names($per_pid), join(' ', sort("bb.$pp", "bb.$pp.2", "bb.$cp")),
           'with %p: the parent writes two threads\' files, the child one');
        my $child = file_named($per_pid, "bb.$cp") // '';
        is(join(',', $child =~ /^# Thread (\d+)$/mg), '1', 'the child\'s file is thread 1\'s');
        like(file_named($per_pid, "bb.$pp.2") // '', qr/^# Thread 2$/m,
             'the parent\'s second file is thread 2\'s');
        is(names($fixed), join(' ', sort('bb', 'bb.2', "bb.$fp")),
           'fixed name: the child\'s bb, the parent\'s bb.2 and bb.<pid>')
            or diag($fixed->{stderr});
        like(file_named($fixed, 'bb') // '', qr/\A(?:(?!# Thread).)*# Thread 1\n/s,
             'fixed name: bb is the child\'s thread 1');
    };
}

done_testing();
