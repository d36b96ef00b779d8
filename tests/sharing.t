#!/usr/bin/perl
# sharing.t -- --sharing=yes and cg_annotate --sharing end to end.
#
# The fixture tests/progs-sharing/sharing.c has one sharing pattern per
# mode, each access on a line tagged "MARK: <name>" (found, never
# hard-coded), with a known number of iterations per thread:
#   packed   2, 3 and 4 threads incrementing their own element of one
#            array: the array's line must come first, as false sharing,
#            each worker writing its own 8 bytes `iterations` times from
#            the marked line, and the suggestion must say to pad it
#   padded   the same with 64-byte elements: nothing to report
#   heap     packed in a malloc'd block: with --data-profile=yes the
#            line names the block's allocation site
#   atomic, locked   one counter every thread writes: true sharing
#   queue    a producer and a consumer: the ring's lines, true sharing
#   table    threads reading a constant table and one filled before
#            they start: never reported
# Each at -O0 and -O2.  Every file's estimate is checked against its own
# thread records (the sum over threads of min(accesses, the others'
# writes)), and the main output file must not change: with
# --sharing=yes it is byte-identical to the system Cachegrind's run of
# the same program (pinned to one CPU, a few tries: which thread the
# kernel runs first can differ).  Also: a single-threaded run reports nothing, the file
# names (%p, the default), and bad input (options, files) gets a
# one-line error.
#
# Environment: as for every CgTest file (CG_JOBS, CG_ONLY, CG_KEEP_TMP).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Cwd qw(abs_path);
use File::Spec;
use File::Temp qw(tempdir);
use JSON::PP;
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();

my $SRC  = abs_path(File::Spec->catfile(tests_dir(), 'progs-sharing', 'sharing.c'));
my $SELF = abs_path(__FILE__);
my $ANNOTATE = File::Spec->catfile(top_dir(), 'cg_annotate');
my $ITERATIONS = 20000;

my %bins = %{ sharing_fixtures_or_exit($SELF) };
my %MARK = %{ source_marks($SRC) };

my $TMP = tempdir('cgsharing-XXXXXXXX', TMPDIR => 1, CLEANUP => !$ENV{CG_KEEP_TMP});
my $n_saved = 0;

# Ours with --sharing=yes: the run, its sharing file's text (or undef)
# and its main output file's.
sub run_sharing {
    my ($bin, $args, $opts, %a) = @_;
    my $res = run_ours(['--sharing=yes', @{ $opts || [] }], [$bin, @$args], %a);
    my ($sharing) = grep { $_->{name} =~ /^cachegrind\.sharing\.\d+\z/ } @{ $res->{files} };
    my ($main) = grep { $_->{name} =~ /^cg\.out\.\d+\z/ } @{ $res->{files} };
    return ($res, $sharing ? $sharing->{content} : undef, $main ? $main->{content} : undef);
}

sub save {
    my ($content) = @_;
    my $path = File::Spec->catfile($TMP, 'sharing.' . ++$n_saved);
    spew($path, $content);
    return $path;
}

# cg_annotate's output, stderr and exit status
sub annotate {
    my (@args) = @_;
    my $r = run_captured($TMP, $ANNOTATE, @args);
    return ($r->{out}, $r->{err}, $r->{status});
}

sub report_json {
    my ($path, $min) = @_;
    my ($out, $err, $status) = annotate('--sharing', '--json', "--sharing-min=$min", $path);
    return undef unless $status == 0;
    return eval { decode_json($out) };
}

sub holds {
    my ($line, $symbol) = @_;
    return scalar grep { $_->{symbol} eq $symbol } @{ $line->{globals} };
}

# The estimate from the line's own thread records
sub estimate_of {
    my ($line) = @_;
    my $writes = 0;
    $writes += $_->{writes} for @{ $line->{threads} };
    my $sum = 0;
    for my $t (@{ $line->{threads} }) {
        my $mine = $t->{reads} + $t->{writes};
        my $others = $writes - $t->{writes};
        $sum += $mine < $others ? $mine : $others;
    }
    return $sum;
}

# The writes a thread made from the marked line: its source record
# there, and its early writes (before a second thread touched the line)
# if its last early write was there
sub writes_from {
    my ($thread, $mark) = @_;
    my $at = sub { $_[0] && $_[0]{line} == $MARK{$mark} && $_[0]{file} eq $SRC };
    my $n = 0;
    $n += $_->{writes} for grep { $at->($_) } @{ $thread->{sources} };
    $n += $thread->{early}{writes} if $thread->{early} && $at->($thread->{early}{last_write});
    return $n;
}

# Every line of a file: its estimate is its records'
sub check_estimates {
    my ($label, $all) = @_;
    my @bad = grep { $_->{estimate} != estimate_of($_) } @{ $all->{lines} };
    ok(!@bad, "$label: every line's estimate is the sum of min(accesses, others' writes)")
        or diag("line $bad[0]{address}: $bad[0]{estimate} vs " . estimate_of($bad[0]));
}

# ---------------------------------------------------------------------------
# Patterns
for my $opt (qw(O0 O2)) {
    my $bin = $bins{$opt};

    # False sharing, 2 to 4 threads
    for my $n (2, 3, 4) {
        my $label = "packed $n threads -$opt";
        my ($res, $text) = run_sharing($bin, ['packed', $n, $ITERATIONS]);
        ok(defined $text, "$label: a sharing file was written") or do { diag($res->{stderr}); next };
        my $path = save($text);
        my $top = report_json($path, 1000);
        my $all = report_json($path, 0);
        ok($top && @{ $top->{lines} }, "$label: a line reaches the threshold") or next;
        my $line = $top->{lines}[0];
        is($line->{kind}, 'false', "$label: the first line is false sharing");
        ok(holds($line, 'counters_packed'), "$label: it holds counters_packed");
        my @workers = grep { $_->{tid} >= 2 } @{ $line->{threads} };
        is(scalar @workers, $n, "$label: $n worker threads on it");
        my %bytes;
        my $ok = 1;
        for my $t (@workers) {
            $ok &&= $t->{writes} == $ITERATIONS && writes_from($t, 'packed') == $ITERATIONS
                    && $t->{write_bytes} =~ /^(\d+)-(\d+)\z/ && $2 - $1 == 7;
            $bytes{ $t->{write_bytes} }++;
        }
        ok($ok, "$label: each worker writes 8 bytes $ITERATIONS times from sharing.c:$MARK{packed}")
            or diag(explain(\@workers));
        is(scalar keys %bytes, $n, "$label: the workers' bytes are disjoint");
        cmp_ok($line->{estimate}, '>=', ($n - 1) * $ITERATIONS,
               "$label: estimate at least (threads - 1) x iterations");
        like($line->{suggestion},
             qr/^pad `counters_packed\[\]' elements to 64 bytes: threads [\d, ]+ and \d+ write bytes [\d, -]+(?: and [\d-]+)? of the same line [\d.]+k times\.\z/,
             "$label: the suggestion says to pad counters_packed");
        check_estimates($label, $all) if $all;
        my ($out) = annotate('--sharing', $path);
        like($out, qr/^-- 1\. Line 0x[0-9a-f]+: false sharing.*\n(?:.*\n)*?Bytes \d+-\d+: counters_packed\n/m,
             "$label: the report's first line is counters_packed's");
        like($out, qr/\Q$SRC\E:$MARK{packed} \(run_packed\)/, "$label: the report names the increment's line");
    }

    # Padded: nothing reaches the threshold, nothing about the array
    {
        my $label = "padded 4 threads -$opt";
        my ($res, $text) = run_sharing($bin, ['padded', 4, $ITERATIONS]);
        ok(defined $text, "$label: a sharing file was written") or next;
        my $path = save($text);
        my $top = report_json($path, 1000);
        my $all = report_json($path, 0);
        is(scalar @{ $top->{lines} }, 0, "$label: no line reaches the threshold");
        # A worker writes its element, the main thread reads it once
        # after joining it: min(1, writes) + min(writes, 0)
        my @padded = grep { holds($_, 'counters_padded') } @{ $all->{lines} };
        ok(!grep({ $_->{estimate} != 1 } @padded),
           "$label: each line of counters_padded has an estimate of 1 (one read after the join)")
            or diag(explain(\@padded));
        my ($out) = annotate('--sharing', $path);
        like($out, qr/^No line reaches the threshold\.$/m, "$label: the report says so");
    }

    # True sharing: atomic adds and a lock
    for my $mode (qw(atomic locked)) {
        my $label = "$mode 3 threads -$opt";
        my ($res, $text) = run_sharing($bin, [$mode, 3, $ITERATIONS]);
        ok(defined $text, "$label: a sharing file was written") or next;
        my $path = save($text);
        my $top = report_json($path, 1000);
        my $all = report_json($path, 0);
        my ($line) = grep { holds($_, 'shared_total') } @{ $top->{lines} };
        ok($line, "$label: a line holding shared_total reaches the threshold") or next;
        is($line->{kind}, 'true', "$label: true sharing");
        my @workers = grep { $_->{tid} >= 2 } @{ $line->{threads} };
        # Under a lock, the line's first thread's early writes are charged
        # to its last writing instruction then, in the mutex code
        my @at = grep { writes_from($_, $mode) == $ITERATIONS } @workers;
        cmp_ok(scalar @at, '>=', $mode eq 'locked' ? 2 : 3,
               "$label: the workers write it $ITERATIONS times each from sharing.c:$MARK{$mode}");
        like($line->{suggestion}, qr/^threads [\d, ]+ and \d+ all write the same bytes/,
             "$label: the suggestion names the writers");
        is($top->{lines}[0]{address}, $line->{address}, "$label: it comes first")
            if $mode eq 'atomic';
        check_estimates($label, $all) if $all;
    }

    # Producer and consumer
    {
        my $label = "queue -$opt";
        my ($res, $text) = run_sharing($bin, ['queue', 2, $ITERATIONS]);
        ok(defined $text, "$label: a sharing file was written") or next;
        my $path = save($text);
        my $top = report_json($path, 1000);
        my @queue = grep { holds($_, 'queue') } @{ $top->{lines} };
        cmp_ok(scalar @queue, '>=', 2, "$label: the ring's lines are reported");
        ok(!grep({ $_->{kind} ne 'true' } @queue), "$label: as true sharing");
        my ($producer) = grep { writes_from($_, 'producer') >= $ITERATIONS }
                         map { @{ $_->{threads} } } @queue;
        my ($consumer) = grep { writes_from($_, 'consumer') >= $ITERATIONS }
                         map { @{ $_->{threads} } } @queue;
        ok($producer && $consumer, "$label: both ends' source lines, $ITERATIONS writes each");
        ok(!grep({ $_->{moves} == 0 } @queue), "$label: the schedule moved every ring line");
    }

    # Read-only tables
    {
        my $label = "table 3 threads -$opt";
        my ($res, $text) = run_sharing($bin, ['table', 3, $ITERATIONS]);
        ok(defined $text, "$label: a sharing file was written") or next;
        my $all = report_json(save($text), 0);
        ok(!grep({ holds($_, 'constant_table') || holds($_, 'filled_table') } @{ $all->{lines} }),
           "$label: neither table is reported");
    }

    # A heap block, named by the data profile
    {
        my $label = "heap 2 threads -$opt";
        my ($res, $text) = run_sharing($bin, ['heap', 2, $ITERATIONS], ['--data-profile=yes']);
        ok(defined $text, "$label: a sharing file was written") or next;
        my $top = report_json(save($text), 1000);
        my $line = $top->{lines}[0];
        ok($line && $line->{object} && $line->{object}{kind} eq 'heap'
           && grep({ $_->{line} == $MARK{alloc} } @{ $line->{object}{site} }),
           "$label: the first line is in the heap block allocated at sharing.c:$MARK{alloc}")
            or diag(explain($line));
        is($line->{kind}, 'false', "$label: false sharing");
        like($line->{suggestion}, qr/^pad the elements of the block allocated at main \(\Q$SRC\E:$MARK{alloc}\) to 64 bytes: threads 2 and 3 write/,
             "$label: the suggestion names the block");
        my ($res2, $text2) = run_sharing($bin, ['heap', 2, $ITERATIONS]);
        my $plain = report_json(save($text2), 1000);
        ok($plain && $plain->{lines}[0] && !$plain->{lines}[0]{object},
           "$label: without --data-profile the line has no object");
    }
}

# ---------------------------------------------------------------------------
# The main output file does not change: ours with --sharing=yes (its
# file to /dev/null, so that both runs leave the same files) against the
# system Cachegrind, pinned to one CPU, any pair of up to 8 tries each
{
    my $pair = run_pair([], [$bins{O0}, 'packed', 2, $ITERATIONS],
                        ours_opts => ['--sharing=yes', '--sharing-out-file=/dev/null'],
                        attempts => 8, cpu => 0);
    ok($pair->{ref}{banner_ok}, "the reference is the system Valgrind's own Cachegrind")
        or diag($pair->{ref}{banner_error} // $pair->{ref}{stderr});
    ok($pair->{matched}, 'packed 2 threads: with --sharing=yes the output, summary and file '
                         . "equal the system Cachegrind's ($pair->{attempts} tries)");
}

# A single-threaded program shares nothing
{
    my ($res, $text) = run_sharing('/bin/true', []);
    ok(defined $text && $text =~ /^lines-shared: 0$/m && $text =~ /^totals\t0\t0\t0$/m,
       'a single-threaded run: no shared line, totals 0');
}

# ---------------------------------------------------------------------------
# File names and bad input
{
    my $res = run_ours(['--sharing=yes', '--sharing-out-file=shared.%p'], ['/bin/true']);
    my ($main) = grep { $_->{name} =~ /^cg\.out\.\d+\z/ } @{ $res->{files} };
    ok($main && grep({ $_->{name} eq "shared.$main->{pid}" } @{ $res->{files} }),
       '--sharing-out-file=shared.%p names the file with the pid')
        or diag(join ' ', map { $_->{name} } @{ $res->{files} });
    $res = run_ours(['--sharing=maybe'], ['/bin/true']);
    is(status_str($res->{status}), 'exit 1', '--sharing=maybe: exit status 1');
    like($res->{stderr}, qr/Bad option: --sharing=maybe/, '--sharing=maybe: names the option');
    $res = run_ours([], ['/bin/true']);
    ok(!grep({ $_->{name} =~ /^cachegrind\.sharing\./ } @{ $res->{files} }),
       'without --sharing no sharing file is written');
}
{
    my ($res, $text, $main) = run_sharing('/bin/true', []);
    my $good = save($text);
    my $cgout = save($main);
    my ($out, $err, $status) = annotate('--sharing', $cgout);
    ok($status != 0 && $err =~ /^cg_annotate: \Q$cgout\E:\d+: not a sharing profile/ && $err =~ tr/\n// == 1,
       'a Cachegrind file given to --sharing: one line naming the file and line')
        or diag($err);
    (my $cut = $text) =~ s/^totals.*\n//m;
    ($out, $err, $status) = annotate('--sharing', save($cut));
    ok($status != 0 && $err =~ /incomplete: no `totals' line/ && $err =~ tr/\n// == 1,
       'a file without its totals: incomplete');
    my $bad_path = save("$cut" . "line\t0x40\tfalse\t1\t1\nthread\t2\tx\ntotals\t1\t1\t1\n");
    ($out, $err, $status) = annotate('--sharing', $bad_path);
    ok($status != 0 && $err =~ /^cg_annotate: \Q$bad_path\E:\d+: malformed `thread' record$/,
       'a malformed thread record: its file and line') or diag($err);
    ($out, $err, $status) = annotate('--sharing', '--sharing-min=many', $good);
    ok($status != 0 && $err =~ /--sharing-min must be a count/, '--sharing-min=many: an error');
    ($out, $err, $status) = annotate('--sharing', '--data', $good);
    ok($status != 0 && $err =~ /--data and --sharing/, '--data with --sharing: an error');
    ($out, $err, $status) = annotate('--sharing', $good, $good);
    ok($status != 0 && $err =~ /--sharing reads one sharing profile/, 'two files: an error');
}

done_testing();
