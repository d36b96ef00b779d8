#!/usr/bin/perl
# outfile.t -- where the output goes and what the run reports about it:
# file names (%p, %q{VAR}, default), unwritable paths, devices such as
# /dev/null written in place, no temporary file left behind, and the
# -q, -v and --stats=yes reports, each compared with the system tool.
# Also how each kind of file the tool writes (the main file, the phase
# profile, the basic block vectors and pc file; one writer, cg_file.c)
# fails: a device that refuses every write (like /dev/full), a full
# file system (a small tmpfs) and a rename that cannot be done (a name
# with a file mounted on it).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use File::Temp qw(tempdir);
use Test::More;
use CgTest qw(:all);
simulate_caches();   # a test of the cache simulation, with any release's defaults

-x ours_valgrind() or BAIL_OUT('no ./vg-in-place: build the tree first (sh scripts/build.sh)');

my $client = ['/bin/true'];

sub same_as_reference {
    my ($label, $opts, %args) = @_;
    my $pair = run_pair($opts, $client, %args);
    subtest "$label: same as the system Cachegrind" => sub {
        compare_runs($pair->{ref}, $pair->{ours}, $label,
                     map { $_ => $args{$_} } grep { $_ eq 'expect_files' } keys %args);
    };
    return $pair;
}

# File names.
{
    my $pair = same_as_reference('default name', [], default_out => 1, expect_files => 1);
    like($pair->{ours}{files}[0]{name} // '', qr/^cachegrind\.out\.\d+$/,
         'default name is cachegrind.out.<pid>');
}
{
    my $pair = same_as_reference('%p and %q{VAR} in the name',
                                 ['--cachegrind-out-file=run-%q{CG_TEST_TAG}-%p.cg'],
                                 env => { CG_TEST_TAG => 'tagged' }, expect_files => 1);
    like($pair->{ours}{files}[0]{name} // '', qr/^run-tagged-\d+\.cg$/,
         '%q{CG_TEST_TAG} and %p expanded');
}
{
    my $pair = same_as_reference('%% in the name', ['--cachegrind-out-file=pct%%.cg'],
                                 expect_files => 1);
    is($pair->{ours}{files}[0]{name}, 'pct%.cg', '%% becomes %');
}

# An unwritable path: two error lines, an all-zero summary, no file.
{
    my $pair = same_as_reference('unwritable output path',
                                 ['--cachegrind-out-file=/nonexistent-dir-cg/out'],
                                 expect_files => 0);
    like($pair->{ours}{stderr},
         qr/error: can't open (?:cache simulation output|output data) file '\/nonexistent-dir-cg\/out'/,
         'unwritable path: error names the file');
    like($pair->{ours}{stderr}, qr/I(?:   refs:      | refs:        )0\n/, 'unwritable path: summary is zero');
}

# The other files' open errors: one line each, however many records
# the run has.
{
    my $res = run_ours(['--cachegrind-out-file=/dev/null', '--interval-size=10k',
                        '--intervals-out-file=/nonexistent-dir-cg/iv',
                        '--bb-out-file=/nonexistent-dir-cg/bb', '--bb-interval-size=10000',
                        '--pc-out-file=/nonexistent-dir-cg/pc'], $client);
    my @errors = $res->{stderr} =~ /^==\d+== (error: .*)$/mg;
    is(join("\n", @errors), join("\n",
        "error: can't open phase profile '/nonexistent-dir-cg/iv' for writing; it will be missing.",
        "error: can't open basic block vector file '/nonexistent-dir-cg/bb'; it will be missing.",
        "error: can't open '/nonexistent-dir-cg/pc' for writing"),
       'unwritable phase profile, vector and pc names: one error each');
}

# A device is written in place, never replaced by a renamed file.
{
    my $res = run_ours(['--cachegrind-out-file=/dev/null'], $client);
    is($res->{exit_code}, 0, '/dev/null as output: run succeeds');
    ok(-c '/dev/null', '/dev/null is still a character device afterwards');
}

# Nothing but the output file is left in the directory (no temporary).
{
    my $res = run_ours(['--cachegrind-out-file=only.cg'], $client);
    is(join(' ', map { $_->{name} } @{ $res->{files} }), 'only.cg',
       'no temporary file left beside the output');
}

# An existing file is replaced whole.
{
    my $dir = tempdir('cgout-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my $target = "$dir/existing.cg";
    spew($target, "stale content that must disappear\n" x 1000);
    my $res = run_ours(["--cachegrind-out-file=$target"], $client);
    my $content = slurp($target);
    ok($content =~ /\Adesc: I1 cache:/ && $content !~ /stale content/
       && $content =~ /\nsummary:[ \d]+\n\z/,
       'an existing output file is replaced by a complete new one');
    opendir(my $dh, $dir) or die;
    my @left = grep { !/^\.\.?$/ } readdir $dh;
    is(join(' ', @left), 'existing.cg', 'no temporary file left after replacing');
}

# A symbolic link is written through, not replaced.
{
    my $dir = tempdir('cgout-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    symlink("$dir/target.cg", "$dir/link.cg") or die "symlink: $!";
    run_ours(["--cachegrind-out-file=$dir/link.cg"], $client);
    ok(-l "$dir/link.cg" && -f "$dir/target.cg"
       && slurp("$dir/target.cg") =~ /\nsummary:[ \d]+\n\z/,
       'a symlinked output name stays a link and its target gets the profile');
}

# The three kinds of file, each with names in directory $dir.
sub file_kinds {
    my ($dir) = @_;
    return (
        ['main file', ["--cachegrind-out-file=$dir/cg.out"], ["$dir/cg.out"]],
        ['phase profile', ['--cachegrind-out-file=/dev/null', '--interval-size=10k',
                           "--intervals-out-file=$dir/iv"], ["$dir/iv"]],
        ['vector and pc files', ['--cachegrind-out-file=/dev/null',
                                 "--bb-out-file=$dir/bb", "--bb-interval-size=10000",
                                 "--pc-out-file=$dir/pc"], ["$dir/bb", "$dir/pc"]],
    );
}

# Runs $code when the returned object goes away, even if a test dies:
# a mount must not outlive the test.
sub on_leave { my ($code) = @_; return bless [$code], 'OnLeave' }
sub OnLeave::DESTROY { $_[0][0]->() }

sub names_in {
    my ($dir) = @_;
    opendir(my $dh, $dir) or die "$dir: $!\n";
    my @names = sort grep { !/^\.\.?$/ } readdir $dh;
    return join(' ', @names);
}

# Every write fails (device 1,7 is /dev/full's; a node of our own, so
# that a tool deleting it could do no harm): written in place, the
# failure reported once for each file, the device left alone.
SKIP: {
    my $dir = tempdir('cgout-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    skip 'mknod needs root', 9
        unless system("mknod '$dir/probe' c 1 7 2>/dev/null") == 0;
    unlink "$dir/probe";
    for my $kind (file_kinds($dir)) {
        my ($what, $opts, $names) = @$kind;
        system('mknod', $_, 'c', '1', '7') == 0 or die "mknod $_\n" for @$names;
        my $res = run_ours($opts, $client);
        my @said = map { scalar(() = $res->{stderr} =~
            /^==\d+== error: writing '\Q$_\E' failed \(disk full\?\); its contents are incomplete\.\n/mg) }
            @$names;
        is("@said", join(' ', (1) x @$names),
           "$what on a full device: one 'contents are incomplete' error per file")
            or diag($res->{stderr});
        ok(!(grep { !-c $_ } @$names), "$what on a full device: the device nodes stay");
        is($res->{exit_code}, 0, "$what on a full device: the run still succeeds");
        unlink @$names;
    }
}

# A file system with no room left: the temporary file is created but
# cannot be written; it is removed and nothing else is.
{
    my $mnt = tempdir('cgfull-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my $mounted = $> == 0
        && system("mount -t tmpfs -o size=64k cgfull '$mnt' 2>/dev/null") == 0;
    my $unmount = on_leave(sub { system('umount', $mnt) if $mounted });
    SKIP: {
        skip 'mounting a small tmpfs needs root (mount failed)', 9 unless $mounted;
        # Fill it: writes stop at the size limit.
        system("dd if=/dev/zero of='$mnt/filler' bs=4k 2>/dev/null");
        for my $kind (file_kinds($mnt)) {
            my ($what, $opts, $names) = @$kind;
            my $res = run_ours($opts, $client);
            my @said = map { scalar(() = $res->{stderr} =~
                /^==\d+== error: writing '\Q$_\E' failed \(disk full\?\); no output file was left\.\n/mg) }
                @$names;
            is("@said", join(' ', (1) x @$names),
               "$what on a full file system: one 'no output file' error per file")
                or diag($res->{stderr});
            is(names_in($mnt), 'filler', "$what on a full file system: no file left behind");
            is($res->{exit_code}, 0, "$what on a full file system: the run still succeeds");
        }
        like(run_ours(["--cachegrind-out-file=$mnt/cg.out"], $client)->{stderr},
             qr/^==\d+== I +refs:\s+[1-9]/m,
             'main file on a full file system: the summary has the real totals');
    }
}

# A rename that fails: a file mounted on the name (rename(2) says
# EBUSY).  Reported naming both files; the temporary file removed; the
# mounted file untouched.
{
    my $dir = tempdir('cgren-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);
    my $src = "$dir/source";
    spew($src, "mounted\n");
    my @kinds = file_kinds($dir);
    my @mounted;
    my $unmount = on_leave(sub { system('umount', $_) for @mounted });
    if ($> == 0) {
        for my $name (map { @{ $_->[2] } } @kinds) {
            spew($name, '');
            last unless system('mount', '--bind', $src, $name) == 0;
            push @mounted, $name;
        }
    }
    SKIP: {
        skip 'bind-mounting a file on the name needs root (mount failed)', 6
            unless @mounted == 4;
        for my $kind (@kinds) {
            my ($what, $opts, $names) = @$kind;
            my $res = run_ours($opts, $client);
            my @said = map { scalar(() = $res->{stderr} =~
                /^==\d+== error: can't rename '\Q$_\E\.tmp\.\d+' to '\Q$_\E'\n/mg) } @$names;
            is("@said", join(' ', (1) x @$names),
               "$what: a failed rename is reported once per file")
                or diag($res->{stderr});
            ok(names_in($dir) eq 'bb cg.out iv pc source'
               && !(grep { slurp($_) ne "mounted\n" } @$names),
               "$what: the temporary file is removed, the mounted file untouched")
                or diag(names_in($dir));
        }
    }
}

# What -q, -v and --stats=yes print.
same_as_reference('-q', ['-q'], expect_files => 1);
{
    my $pair = run_pair(['-v'], $client);
    my @cfg = map { [ grep { /Cache configuration used|^==\d+==   (I1|D1|LL): / }
                      split /\n/, $_->{stderr} ] } @$pair{qw(ref ours)};
    s/^==\d+==// for @{ $cfg[0] }, @{ $cfg[1] };
    ok(@{ $cfg[0] } == 4, '-v: the reference prints the cache configuration');
    is_deeply($cfg[1], $cfg[0], '-v: same cache configuration lines');
    ok($pair->{ours}{files}[0]{content} eq $pair->{ref}{files}[0]{content},
       '-v: identical output file');
}
{
    my $pair = run_pair(['--stats=yes'], ['/bin/ls', '/']);
    my @stats = map { [ map { s/^--\d+--//r } grep { /^--\d+-- cachegrind: / }
                        split /\n/, $_->{stderr} ] } @$pair{qw(ref ours)};
    is(scalar @{ $stats[0] }, 13, '--stats=yes: the reference prints 13 tool lines');
    is_deeply($stats[1], $stats[0], '--stats=yes: same tool statistics');
}
{
    # The predictor's taken word is the exit's comparison made again
    # (cg_deliver.c, guard_comparison) wherever the guard allows, which
    # keeps translations small; counts are the same either way, so only
    # --stats=yes shows whether that path is still taken.
    my $res = run_ours(['--branch-sim=yes', '--stats=yes',
                        '--cachegrind-out-file=/dev/null'], ['/bin/ls', '/']);
    my ($all, $again) = $res->{stderr} =~
        /branch outcomes: (\d+) translated, (\d+) of them from the guard's comparison made again/;
    ok(defined $all && $all > 0, '--stats=yes counts the branch outcomes translated');
    ok(defined $again && $again > $all / 2,
       'most of them come from the guard\'s comparison made again'
       . (defined $again ? " ($again of $all)" : ''));
}

done_testing();
