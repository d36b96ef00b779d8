#!/usr/bin/perl
# mutate.pl -- a mutation fuzzer for the readers of the companion programs
# (cg_annotate, cg_diff, cg_phases and cg_merge; cg_annotate-data and
# cg_annotate-sharing are cg_annotate on data and sharing profiles).
#
#   perl fuzz/mutate.pl [options] PROGRAM
#
#   --time=SEC      stop after SEC seconds (0: no limit) [60, or 0 with
#                   --inputs]
#   --inputs=N      stop after N inputs (0: no limit) [0]
#   --seed=S        random seed; the same seed gives the same inputs [1]
#   --jobs=N        parallel processes [1]
#   --out=DIR       where findings go [fuzz/results/mutate]
#   --timeout=SEC   a run taking longer is a hang [10]
#   --keep=N        inputs kept per distinct finding [3]
#   --only=I        run input number I only, keep it, print the verdict
#   --top=DIR       the source tree (seeds) [the parent of fuzz/]
#   --bin=DIR       where the programs are [--top]
#   --dump=DIR      write the inputs to DIR/NNNNNN instead of running them
#   --oracle=PROG   also run PROG (the same command line) and report a
#                   difference where either succeeds: exit status or
#                   stdout (for cg_merge against 3.19's /usr/bin/cg_merge)
#   --quiet         print the summary only
#
# Input number I is made from the seed corpus by mutations drawn from a
# generator seeded with (S, I) alone, so --seed=S --only=I rebuilds it
# whatever --jobs was.  Each input is run through one of the program's
# command lines (also chosen by I), with stdin from /dev/null, in a
# scratch directory, under a timeout and `ulimit -v` / `ulimit -f`.
#
# A finding is:
#   signal    the program was killed by a signal
#   hang      it ran longer than --timeout
#   leak      stderr shows a Perl internal: a warning or die text
#             ("at FILE line N.", "<$fh> line N", "Died", "Out of memory")
#   stray     a stderr line that does not start with "PROGRAM: "
#   multiline a failure (non-zero exit) whose stderr holds more than one
#             line besides warnings, or whose error is not the last line
#   noerror   a failure with nothing on stderr but warnings
#   unnamed   an error line that names none of the input files
#   quiet-ok  exit 0 with a non-warning stderr line (cg_merge's progress
#             messages excepted)
#   differs   (--oracle) the oracle succeeds and the program does not, or
#             the other way round, or their standard outputs differ
# Each finding is kept under OUT/PROGRAM/KIND-NNN/ (input, command,
# stderr, repro.sh), at most --keep inputs per kind and first error line
# (digits ignored).  The exit status is 1 when anything was found.
#
# Only core Perl modules are used.

use strict;
use warnings;

use Cwd qw(abs_path);
use File::Basename qw(dirname basename);
use File::Path qw(make_path remove_tree);
use File::Spec;
use Getopt::Long qw(GetOptionsFromArray);
use POSIX qw(:sys_wait_h _exit setpgid);
use Time::HiRes qw(time);

my $FUZZ_DIR = dirname(abs_path(__FILE__));

# The command lines each program is run with.  @@ is the mutated input,
# SEED the unmutated seed it came from, OUT a scratch output path, and
# GOLDEN the directory of cg_annotate's golden sources (so that source
# files named by the inputs are found and annotated).
my %PROGRAMS = (
    cg_annotate => {
        format   => 'cgout',
        commands => [
            ['-IGOLDEN', '@@'],
            ['-IGOLDEN', '--layout=new', '@@'],
            ['-IGOLDEN', '--context=1', '--show=Ir', '@@'],
            ['--auto=no', '--threshold=0', '@@'],
            ['-IGOLDEN', '--sort=Dr:0,Ir', '@@'],
            ['-IGOLDEN', 'SEED', '@@'],
            ['-IGOLDEN', '--diff', 'SEED', '@@'],
            ['--mod-filename=s/[a-z]+/x/', '--mod-funcname=s/^/f/', '@@'],
            ['--json', '@@'],
            ['--json', '--cycles', '--diff', 'SEED', '@@'],
            ['--cycles', '--sort=Cycles', '--auto=no', '@@'],
            ['--diff', 'SEED', '@@', '--fail-if=Ir>+1%', '--fail-if-fn=Ir>+5%',
             '--fail-if-min=0', '--auto=no'],
        ],
    },
    cg_diff => {
        format   => 'cgout',
        commands => [
            ['SEED', '@@'],
            ['@@', 'SEED'],
            ['--mod-funcname=s/[0-9]//g', '@@', '@@'],
        ],
    },
    cg_phases => {
        format   => 'intervals',
        commands => [
            ['@@'],
            ['--svg=OUT', '@@'],
            ['--event=Ir', '--spike=0', '@@'],
            ['--event=D1mr', '@@'],
            ['--event=Bcm', '--svg=OUT', '@@'],
        ],
    },
    cg_merge => {
        format   => 'cgout',
        commands => [
            ['@@'],
            ['-o', 'OUT', 'SEED', '@@'],
            ['@@', '@@'],
        ],
    },
    # cg_annotate on the other files the tool writes
    'cg_annotate-data' => {
        program  => 'cg_annotate',
        format   => 'data',
        commands => [
            ['--data', '@@'],
            ['--data', '--json', '@@'],
            ['--data', '--sort=DLmr', '--threshold=0', '@@'],
        ],
    },
    'cg_annotate-sharing' => {
        program  => 'cg_annotate',
        format   => 'sharing',
        commands => [
            ['--sharing', '@@'],
            ['--sharing', '--json', '--sharing-min=0', '@@'],
        ],
    },
);

# Where seeds come from: directories, and the largest file taken.
my %SEED_DIRS = (
    cgout => [ 'fuzz/seeds/cgout', 'tests/golden/cg_annotate',
               'tests/golden/cg_diff/inputs' ],
    intervals => [ 'fuzz/seeds/intervals' ],
    data      => [ 'fuzz/seeds/data' ],
    sharing   => [ 'fuzz/seeds/sharing' ],
);
my $MAX_SEED_BYTES  = 16384;
my $MAX_INPUT_BYTES = 1 << 20;

# Lines that mean something in each format, for insertion.
my %KEYWORD_LINES = (
    cgout => [
        'desc: I1 cache: 32768 B, 64 B, 8-way associative', 'desc:', 'desc: ',
        'cmd: ./prog', 'cmd:', 'events: Ir', 'events: Ir Dr Dw', 'events: ',
        'events: Ir Ir', "events:\tIr", 'fl=', 'fl=a.c', 'fl=context.c',
        'fl=???', 'fn=', 'fn=main', 'fn=f', 'fi=a.h', 'fe=b.h', 'fi=', 'fe=',
        'summary: 1', 'summary: 0 0', 'summary:', 'summary: ', 'summary: .',
        'summary: -5 3', '0 1', '1 1 2', '-1 1', '5', '7 .', '3 . 4', '1 1 1 1 1',
        '#', '# comment', '', ' ', "\t", "\r", 'totals: 1', 'positions: line',
    ],
    intervals => [
        'version: 1', 'version: 2', 'version:', 'version: 01', 'creator: x',
        'pid: 1', 'pid: x', 'cmd: ./prog', 'cmd:', 'interval-size: 1000',
        'interval-size: 0', 'interval-size: 1k', 'events: Ir',
        'events: Ir D1mr Dr', 'events: Ir Ir', 'events: Dr', 'events:',
        'interval: 1 0 10 5', 'interval: 2 10 20 5 1 1', 'interval: 1 0 0 0',
        'interval:', 'hot: Ir 5 3 a.c', 'hot: Ir 5 3', 'hot: Dr 1 1 a.c',
        'hot-fn: f', 'hot-fn:', 'miss: D1mr 1 3 a.c', 'miss: Ir 1 1 a.c',
        'miss: Bcm 2 7 b.c', 'miss-fn: g', 'totals: 1', 'totals: 1 2 3',
        'totals:', 'bogus: x', 'x', '#', '# comment', '', ' ', "\t",
    ],
    data => [
        'version: 1', 'version: 2', 'events: Dr D1mr DLmr Dw D1mw DLmw',
        'events: Dr Dw', 'events:', 'element: auto', 'element: 8',
        "object\theap\tmain (a.c:3)", "object\tglobal\tg", "object\tbogus\tx",
        "object\theap", "objfile\t/bin/x", "site\ta.c\tmain\t3", "site\ta.c\tmain",
        "blocks\t1\t64\t8", "blocks\t1\t64", "counts\t1 0 0 1 0 0", "counts\t1",
        "line\ta.c\tmain\t5\t1 0 0 1 0 0", "line\ta.c\tmain\tx\t1",
        "field\t0\t1 0 0 1 0 0", "field\t-1\t1", "totals\t1 0 0 1 0 0", "totals\t",
        'x', '#', '',
    ],
    sharing => [
        'version: 1', 'version: 2', 'line-size: 64', 'line-size: x', 'granule: 1',
        'lines-touched: 3', 'lines-shared: 1', 'cmd: ./prog',
        "line\t0x40\tfalse\t10\t2", "line\t0x40\tmaybe\t1\t1", "line\t40\ttrue\t1\t1",
        "global\t0-7\tcounters\t0", "global\t0-7\tx", "object\theap\tmain (a.c:3)\t0",
        "site\ta.c\tmain\t3", "thread\t2\t5\t5\t0\t0-7\t0-7", "thread\t2\t5\t5\t2\t-\t-",
        "thread\t3\t1\t1\t0\t8-15,16-23\t-",
        "early\t1\t1\ta.c\tf\t3\t-\t-\t-", "early\t1\t1\ta.c\tf",
        "src\ta.c\tf\t3\t1\t1", "src\ta.c\tf\tx\t1\t1",
        "totals\t1\t10\t2", "totals\t1", 'x', '#', '',
    ],
);

my @NUMBERS = (
    '0', '1', '-1', '-0', '00', '007', '+5', '2147483647', '2147483648',
    '4294967295', '4294967296', '9007199254740993', '9223372036854775807',
    '9223372036854775808', '18446744073709551615', '18446744073709551616',
    '99999999999999999999999999999', '-99999999999999999999', '1e5', '1e308',
    '1e999', '0x1f', '1.5', '.5', '5.', '1_000', 'inf', 'nan', 'Inf', 'NaN',
    'x', '', '.', '..', '-', '+', "\xd9\xa1\xd9\xa2", '0 0', '1,000', '١',
);

my @BYTES = ("\0", "\n", "\r", "\t", ' ', '-', '.', ':', '=', '#', '0', '9',
             "\xff", "\x80", "\xc3\xa9", '%s', '\\', '"', "'", '@', '$');

my @TOKENS = (@NUMBERS, 'desc:', 'cmd:', 'events:', 'summary:', 'fl=', 'fn=',
              'interval:', 'totals:', 'hot:', 'miss:', 'Ir', 'D1mr', '???');

# ---------------------------------------------------------------------------
# The random generator: xorshift32, seeded with (seed, input number).

my $rng_state = 1;

sub rng_seed {
    my ($seed, $index) = @_;
    my $x = (($seed & 0x7fffffff) ^ (($index & 0xffffff) << 7)
             ^ (($index >> 24) & 0xffffff) ^ 0x5bd1e995) & 0xffffffff;
    $x = 0x9e3779b9 if $x == 0;
    $rng_state = $x;
    rnd() for 1 .. 8;
    return;
}

sub rnd {
    my $x = $rng_state;
    $x ^= ($x << 13) & 0xffffffff;
    $x ^= $x >> 17;
    $x ^= ($x << 5) & 0xffffffff;
    return $rng_state = $x;
}

sub below { my ($n) = @_; return $n > 0 ? rnd() % $n : 0 }
sub pick  { return $_[ below(scalar @_) ] }

# ---------------------------------------------------------------------------
# Mutations.  Each takes the input and the other seeds' texts, returns
# the new input.

sub lines_of { my ($d) = @_; return split /(?<=\n)/, $d }

sub flip_bit {
    my ($d) = @_;
    return $d if $d eq '';
    my $p = below(length $d);
    substr($d, $p, 1) = chr(ord(substr($d, $p, 1)) ^ (1 << below(8)));
    return $d;
}

sub set_byte {
    my ($d) = @_;
    return pick(@BYTES) if $d eq '';
    substr($d, below(length $d), 1) = pick(@BYTES);
    return $d;
}

sub insert_bytes {
    my ($d) = @_;
    my $s = below(4) ? pick(@BYTES) : pick(@TOKENS);
    substr($d, below(length($d) + 1), 0) = $s;
    return $d;
}

sub delete_bytes {
    my ($d) = @_;
    return $d if $d eq '';
    my $p = below(length $d);
    substr($d, $p, 1 + below(below(2) ? 4 : 64)) = '';
    return $d;
}

sub delete_line {
    my ($d) = @_;
    my @l = lines_of($d);
    return $d unless @l;
    splice(@l, below(scalar @l), 1 + (below(4) ? 0 : below(5)));
    return join '', @l;
}

sub duplicate_line {
    my ($d) = @_;
    my @l = lines_of($d);
    return $d unless @l;
    my $i = below(scalar @l);
    my $copy = $l[$i];
    $copy .= "\n" unless $copy =~ /\n\z/;
    splice(@l, below(4) ? $i : below(scalar @l), 0, ($copy) x (1 + below(3)));
    return join '', @l;
}

sub swap_lines {
    my ($d) = @_;
    my @l = map { /\n\z/ ? $_ : "$_\n" } lines_of($d);
    return $d if @l < 2;
    my ($i, $j) = (below(scalar @l), below(scalar @l));
    @l[$i, $j] = @l[$j, $i];
    return join '', @l;
}

sub move_line {
    my ($d) = @_;
    my @l = map { /\n\z/ ? $_ : "$_\n" } lines_of($d);
    return $d if @l < 2;
    my ($line) = splice(@l, below(scalar @l), 1);
    splice(@l, below(scalar(@l) + 1), 0, $line);
    return join '', @l;
}

sub mutate_number {
    my ($d) = @_;
    my @pos;
    while ($d =~ /[0-9]+/g) {
        push @pos, [ $-[0], $+[0] - $-[0] ];
        last if @pos >= 4096;
    }
    return insert_bytes($d) unless @pos;
    my ($p, $len) = @{ pick(@pos) };
    my $old = substr($d, $p, $len);
    my $new;
    my $how = below(5);
    if ($how == 0) { $new = pick(@NUMBERS) }
    elsif ($how == 1) { $new = $old + 1 + below(3) }
    elsif ($how == 2) { $new = '-' . $old }
    elsif ($how == 3) { $new = $old . (0 x (1 + below(20))) }
    else { $new = below(1000) }
    substr($d, $p, $len) = $new;
    return $d;
}

sub truncate_bytes {
    my ($d) = @_;
    return substr($d, 0, below(length($d) + 1));
}

sub truncate_lines {
    my ($d) = @_;
    my @l = lines_of($d);
    return join '', @l[0 .. below(scalar @l) - 1];
}

sub splice_seed {
    my ($d, $others) = @_;
    my @o = lines_of(pick(@$others));
    return $d unless @o;
    my $from = below(scalar @o);
    my $to = $from + below(8);
    $to = $#o if $to > $#o;
    my @take = @o[$from .. $to];
    my @l = lines_of($d);
    splice(@l, below(scalar(@l) + 1), 0, map { /\n\z/ ? $_ : "$_\n" } @take);
    return join '', @l;
}

sub crossover {
    my ($d, $others) = @_;
    my $o = pick(@$others);
    return substr($d, 0, below(length($d) + 1))
         . substr($o, below(length($o) + 1));
}

sub keyword_line {
    my ($d, $others, $format) = @_;
    my @l = map { /\n\z/ ? $_ : "$_\n" } lines_of($d);
    splice(@l, below(scalar(@l) + 1), 0, pick(@{ $KEYWORD_LINES{$format} }) . "\n");
    return join '', @l;
}

sub token_edit {
    my ($d) = @_;
    my @l = lines_of($d);
    return $d unless @l;
    my $i = below(scalar @l);
    my $nl = $l[$i] =~ s/\n\z// ? "\n" : '';
    my @t = split /( +|\t+)/, $l[$i], -1;
    my $how = below(5);
    if ($how == 0 && @t) { splice(@t, below(scalar @t), 1) }
    elsif ($how == 1 && @t) { my $k = below(scalar @t); splice(@t, $k, 0, $t[$k], ' ') }
    elsif ($how == 2) { s/ /\t/ for @t }
    elsif ($how == 3) { s/ /  / for @t }
    else { push @t, ' ', pick(@TOKENS) }
    $l[$i] = join('', @t) . $nl;
    return join '', @l;
}

sub line_endings {
    my ($d) = @_;
    my $how = below(3);
    return $d =~ s/\n/\r\n/gr if $how == 0;
    return $d =~ s/\n\z//r if $how == 1;
    my @l = lines_of($d);
    return $d unless @l;
    $l[below(scalar @l)] =~ s/\n\z/\r\n/;
    return join '', @l;
}

sub long_line {
    my ($d) = @_;
    my @l = lines_of($d);
    return $d unless @l;
    my $i = below(scalar @l);
    my $nl = $l[$i] =~ s/\n\z// ? "\n" : '';
    my $unit = below(2) ? ' ' . pick('1', '0', '99', 'Ir', '.') : pick('x', '9', ' ');
    $l[$i] .= $unit x (100 + below(20000)) . $nl;
    return join '', @l;
}

sub repeat_block {
    my ($d) = @_;
    my @l = map { /\n\z/ ? $_ : "$_\n" } lines_of($d);
    return $d unless @l;
    my $from = below(scalar @l);
    my $to = $from + below(10);
    $to = $#l if $to > $#l;
    my @block = @l[$from .. $to];
    splice(@l, $to + 1, 0, (@block) x (1 + below(200)));
    return join '', @l;
}

sub keyword_case {
    my ($d) = @_;
    my @k;
    while ($d =~ /\b(desc|cmd|events|summary|fl|fn|version|interval|totals|hot|miss)\b/g) {
        push @k, $-[0];
    }
    return $d unless @k;
    my $p = pick(@k);
    substr($d, $p, 1) = uc substr($d, $p, 1);
    return $d;
}

my @MUTATIONS = (
    [ \&flip_bit, 3 ], [ \&set_byte, 3 ], [ \&insert_bytes, 3 ],
    [ \&delete_bytes, 3 ], [ \&delete_line, 4 ], [ \&duplicate_line, 4 ],
    [ \&swap_lines, 3 ], [ \&move_line, 2 ], [ \&mutate_number, 8 ],
    [ \&truncate_bytes, 2 ], [ \&truncate_lines, 2 ], [ \&splice_seed, 3 ],
    [ \&crossover, 1 ], [ \&keyword_line, 5 ], [ \&token_edit, 5 ],
    [ \&line_endings, 1 ], [ \&long_line, 1 ], [ \&repeat_block, 1 ],
    [ \&keyword_case, 1 ],
);
my @MUTATION_TABLE = map { ($_->[0]) x $_->[1] } @MUTATIONS;

# Input number $index: (seed name, seed text, input, command number).
sub make_input {
    my ($seed, $index, $seeds, $format, $n_commands) = @_;
    rng_seed($seed, $index);
    my $base = $seeds->[ below(scalar @$seeds) ];
    my @others = map { $_->{text} } @$seeds;
    my $d = $base->{text};
    my $n = 1 + below(3) + (below(4) ? 0 : below(6));
    for (1 .. $n) {
        $d = pick(@MUTATION_TABLE)->($d, \@others, $format);
        $d = substr($d, 0, $MAX_INPUT_BYTES) if length($d) > $MAX_INPUT_BYTES;
    }
    return ($base, $d, below($n_commands));
}

# ---------------------------------------------------------------------------
# Running one input

sub spew {
    my ($path, $data) = @_;
    open(my $fh, '>:raw', $path) or die "mutate.pl: cannot write $path: $!\n";
    print {$fh} $data;
    close $fh or die "mutate.pl: cannot write $path: $!\n";
    return;
}

sub slurp {
    my ($path, $max) = @_;
    open(my $fh, '<:raw', $path) or return '';
    my $data = '';
    read($fh, $data, $max // 1 << 20);
    close $fh;
    return $data;
}

# The argument list of command $k, with its placeholders filled in.
sub command_args {
    my ($prog, $k, $paths) = @_;
    return map {
        my $a = $_;
        $a =~ s/\@\@/$paths->{input}/g;
        $a =~ s/\bSEED\b/$paths->{seed}/g;
        $a =~ s/\bOUT\b/$paths->{out}/g;
        $a =~ s/GOLDEN/$paths->{golden}/g;
        $a;
    } @{ $PROGRAMS{$prog}{commands}[$k] };
}

# The executable a PROGRAM entry runs (an entry may run another's with
# other inputs: cg_annotate-data)
sub program_of {
    my ($prog) = @_;
    return $PROGRAMS{$prog}{program} // $prog;
}

# Run it; return { status, signal, hang, stderr }.
sub run_one {
    my ($cfg, $dir, $bindir, $tag, @args) = @_;
    my $pid = fork();
    die "mutate.pl: fork: $!\n" unless defined $pid;
    if ($pid == 0) {
        setpgid(0, 0);
        chdir $dir or _exit(126);
        open(STDIN, '<', '/dev/null') or _exit(126);
        open(STDOUT, '>', "$dir/stdout$tag") or _exit(126);
        open(STDERR, '>', "$dir/stderr$tag") or _exit(126);
        # 1 GiB of address space, 256 MiB files (in 1 KiB blocks).  The
        # program is found through PATH (a link in the scratch directory),
        # so that its argv[0] is its bare name, as in a user's shell; that
        # link alone, so that a program being rebuilt is not replaced by
        # another of the same name.
        $ENV{PATH} = "$dir/$bindir";
        no warnings 'exec';
        exec { '/bin/sh' } 'sh', '-c',
            'ulimit -v 1048576 -f 262144 2>/dev/null; exec "$0" "$@"',
            $cfg->{name}, @args;
        _exit(127);
    }
    my $hang = 0;
    my $deadline = time + $cfg->{timeout};
    my $st;
    while (1) {
        my $r = waitpid($pid, WNOHANG);
        if ($r == $pid) { $st = $?; last }
        if (time > $deadline) {
            kill 'KILL', -$pid;
            kill 'KILL', $pid;
            waitpid($pid, 0);
            $st = $?;
            $hang = 1;
            last;
        }
        select(undef, undef, undef, 0.002);
    }
    return {
        status => WIFEXITED($st) ? WEXITSTATUS($st) : -1,
        signal => WIFSIGNALED($st) ? WTERMSIG($st) : 0,
        hang   => $hang,
        stderr => stderr_text("$dir/stderr$tag"),
    };
}

# The stderr of a run, its first 4 MiB at most, cut at a line's end.
sub stderr_text {
    my ($path) = @_;
    my $max = 4 << 20;
    my $text = slurp($path, $max);
    $text =~ s/[^\n]*\z// if length($text) == $max;
    return $text;
}

# The finding a run shows, or undef: (kind, the line that shows it).
sub judge {
    my ($prog, $r, @names) = @_;
    return ('hang', '') if $r->{hang};
    return ('signal', "signal $r->{signal}") if $r->{signal};
    my @lines = split /\n/, $r->{stderr}, -1;
    pop @lines if @lines && $lines[-1] eq '';
    for my $l (@lines) {
        return ('leak', $l)
            if $l =~ / at \S.* line \d+\.?$/ || $l =~ /<\$?\w*> (?:line|chunk) \d+/
            || $l =~ /^Died\b/ || $l =~ /^Out of memory/ || $l =~ /^panic:/;
    }
    for my $l (@lines) {
        return ('stray', $l) unless $l =~ /^\Q$prog\E: /;
    }
    my @errors = grep { !/^\Q$prog\E: (?:.*: )?warning: / } @lines;
    # cg_annotate's --fail-if exits 3 when a condition holds: a success
    if ($r->{status} == 0 || ($r->{status} == 3 && $prog eq 'cg_annotate')) {
        @errors = grep { !/^cg_merge: (?:parsing|merging|writing) / } @errors
            if $prog eq 'cg_merge';
        return ('quiet-ok', $errors[0]) if @errors;
        return;
    }
    return ('noerror', "exit $r->{status}") unless @errors;
    return ('multiline', join(' | ', @errors)) if @errors > 1;
    return ('multiline', "error not last: $errors[0]") if $lines[-1] ne $errors[0];
    my $e = $errors[0];
    return ('unnamed', $e)
        unless grep({ index($e, $_) >= 0 } @names) || $e =~ /option|--[a-z]/;
    return;
}

# --oracle: where either program succeeds, both must, with the same
# standard output.  (For cg_merge, whose output for valid input is 3.19's
# byte for byte.)
sub compare_with_oracle {
    my ($cfg, $dir, $r, @args) = @_;
    unlink "$dir/out";
    my $ref = run_one($cfg, $dir, 'oracle', '.oracle', @args);
    return if $ref->{hang} || $ref->{signal};      # the oracle's own trouble
    return unless $r->{status} == 0 || $ref->{status} == 0;
    return ('differs', "exit $r->{status}, oracle's $ref->{status}")
        if $r->{status} != $ref->{status};
    return ('differs', 'standard output')
        if slurp("$dir/stdout", 1 << 30) ne slurp("$dir/stdout.oracle", 1 << 30);
    return;
}

# ---------------------------------------------------------------------------
# Driver

sub load_seeds {
    my ($top, $format, $extra) = @_;
    my @seeds;
    for my $d ((map { File::Spec->catdir($top, $_) } @{ $SEED_DIRS{$format} }),
               @$extra) {
        opendir(my $dh, $d) or next;
        for my $f (sort readdir $dh) {
            my $path = File::Spec->catfile($d, $f);
            next unless -f $path && -s _ <= $MAX_SEED_BYTES;
            next if $format eq 'cgout' && $f !~ /\.(?:cgout|out)\z/;
            push @seeds, { name => $path, text => slurp($path) };
        }
        closedir $dh;
    }
    die "mutate.pl: no $format seeds found\n" unless @seeds;
    return \@seeds;
}

sub parse_options {
    my @argv = @_;
    my %o = (inputs => 0, seed => 1, jobs => 1, timeout => 10,
             keep => 3, top => dirname($FUZZ_DIR), seeds => []);
    GetOptionsFromArray(\@argv, \%o, 'time=i', 'inputs=i', 'seed=i', 'jobs=i',
                        'out=s', 'timeout=f', 'keep=i', 'only=i', 'top=s',
                        'quiet', 'seeds=s@', 'bin=s', 'dump=s', 'oracle=s')
        or die "mutate.pl: bad options (see the top of fuzz/mutate.pl)\n";
    die "mutate.pl: one PROGRAM: " . join(', ', sort keys %PROGRAMS) . "\n"
        unless @argv == 1 && $PROGRAMS{ $argv[0] };
    $o{prog} = $argv[0];
    $o{bin} = File::Spec->rel2abs($o{bin} // $o{top});   # (linked to)
    $o{oracle} = File::Spec->rel2abs($o{oracle}) if defined $o{oracle};
    $o{out} //= File::Spec->catdir($o{top}, 'fuzz', 'results', 'mutate');
    $o{jobs} = 1 if $o{jobs} < 1;
    $o{time} //= $o{inputs} ? 0 : 60;
    return \%o;
}

# Keep a finding: input, seed, command, stderr and a reproducer that
# runs the command in the finding's directory.
sub keep_finding {
    my ($o, $kind, $index, $cmd_k, $input, $r, $dir, @cmd) = @_;
    my $fdir = File::Spec->catdir($o->{out}, $o->{prog},
                                  sprintf('%s-%d-%06d', $kind, $o->{seed}, $index));
    make_path($fdir);
    my $ext = $PROGRAMS{ $o->{prog} }{format};
    spew("$fdir/input.$ext", $input);
    spew("$fdir/seed.$ext", slurp("$dir/seed.$ext"));
    spew("$fdir/stderr", $r->{stderr});
    my $q = sub { my $s = shift; $s =~ s/'/'\\''/g; "'$s'" };
    my @shown = map { my $a = $_; $a =~ s/\Q$dir\E\///g; $a } @cmd;
    spew("$fdir/repro.sh",
         "#!/bin/sh\n# $kind: input $index of seed $o->{seed}, command $cmd_k\n"
         . "# rebuild it: perl $FUZZ_DIR/mutate.pl --seed=$o->{seed} --only=$index $o->{prog}\n"
         . "cd \"\$(dirname \"\$0\")\" && exec " . join(' ', map { $q->($_) } @shown)
         . "\n");
    chmod 0755, "$fdir/repro.sh";
    return $fdir;
}

# One worker: inputs $first, $first + $step, ...  Returns its counts.
sub worker {
    my ($o, $seeds, $first, $step, $t_end) = @_;
    my $prog = $o->{prog};
    my $name = program_of($prog);
    my $cfg = { %{ $PROGRAMS{$prog} }, timeout => $o->{timeout}, name => $name };
    my $exe = File::Spec->catfile($o->{bin}, $name);
    my $ext = $cfg->{format};
    my $dir = File::Spec->catdir($o->{out}, $prog, "scratch-$first");
    remove_tree($dir);
    make_path("$dir/bin");
    symlink($exe, "$dir/bin/$name")
        or die "mutate.pl: cannot link $dir/bin/$name: $!\n";
    if (defined $o->{oracle}) {
        make_path("$dir/oracle");
        symlink($o->{oracle}, "$dir/oracle/$name")
            or die "mutate.pl: cannot link $dir/oracle/$name: $!\n";
    }
    my %count = (inputs => 0);
    my %kept;
    my $golden = File::Spec->catdir($o->{top}, 'tests', 'golden', 'cg_annotate');
    for (my $i = $first; ; $i += $step) {
        last if $o->{inputs} && $i >= $o->{inputs};
        last if $t_end && time >= $t_end;
        my ($base, $input, $k) = make_input($o->{seed}, $i, $seeds, $ext,
                                            scalar @{ $cfg->{commands} });
        my %paths = (input => "$dir/input.$ext", seed => "$dir/seed.$ext",
                     out => "$dir/out", golden => $golden);
        spew($paths{input}, $input);
        spew($paths{seed}, $base->{text});
        unlink $paths{out};
        my @args = command_args($prog, $k, \%paths);
        my $r = run_one($cfg, $dir, 'bin', '', @args);
        $count{inputs}++;
        my ($kind, $why) = judge($name, $r, "input.$ext", "seed.$ext", 'out');
        ($kind, $why) = compare_with_oracle($cfg, $dir, $r, @args)
            if !$kind && defined $o->{oracle};
        if ($kind) {
            $count{$kind}++;
            (my $sig = substr("$kind $why", 0, 160)) =~ s/[0-9]+/N/g;
            $sig =~ s/\Q$dir\E/DIR/g;
            if (($kept{$sig} //= 0)++ < $o->{keep} || defined $o->{only}) {
                my $f = keep_finding($o, $kind, $i, $k, $input, $r, $dir,
                                     $exe, @args);
                print "$prog: $kind: input $i: $why\n    kept in $f\n"
                    unless $o->{quiet} && !defined $o->{only};
            }
            $count{"sig:$sig"}++;
        }
        print "$prog: input $i: " . ($kind ? "$kind" : 'ok') . "\n"
            if defined $o->{only};
        last if defined $o->{only};
    }
    remove_tree($dir) unless defined $o->{only};
    return \%count;
}

# --dump: the inputs only, as files 000000, 000001, ...
sub dump_inputs {
    my ($o, $seeds) = @_;
    my $cfg = $PROGRAMS{ $o->{prog} };
    make_path($o->{dump});
    my $n = $o->{inputs} || 100;
    for my $i (0 .. $n - 1) {
        my (undef, $input) = make_input($o->{seed}, $i, $seeds, $cfg->{format},
                                        scalar @{ $cfg->{commands} });
        spew(File::Spec->catfile($o->{dump}, sprintf('%06d', $i)), $input);
    }
    print "$o->{prog}: $n inputs written to $o->{dump}\n";
    return 0;
}

sub main {
    my $o = parse_options(@_);
    my $prog = $o->{prog};
    my $seeds = load_seeds($o->{top}, $PROGRAMS{$prog}{format}, $o->{seeds});
    return dump_inputs($o, $seeds) if defined $o->{dump};
    my $exe = File::Spec->catfile($o->{bin}, program_of($prog));
    die "mutate.pl: $exe not found or not executable (build the tree)\n"
        unless -x $exe;
    make_path(File::Spec->catdir($o->{out}, $prog));
    if (defined $o->{only}) {
        my $c = worker($o, $seeds, $o->{only}, 1, 0);
        return (grep { !/^(inputs|sig:)/ } keys %$c) ? 1 : 0;
    }
    my $t0 = time;
    my $t_end = $o->{time} ? $t0 + $o->{time} : 0;
    my @kids;
    for my $j (0 .. $o->{jobs} - 1) {
        my $pid = fork();
        die "mutate.pl: fork: $!\n" unless defined $pid;
        if ($pid == 0) {
            my $c = worker($o, $seeds, $j, $o->{jobs}, $t_end);
            my $file = File::Spec->catfile($o->{out}, $prog, ".counts-$j");
            spew($file, join('', map { "$_\t$c->{$_}\n" } sort keys %$c));
            _exit(0);
        }
        push @kids, $pid;
    }
    waitpid($_, 0) for @kids;
    my %total;
    for my $j (0 .. $o->{jobs} - 1) {
        my $file = File::Spec->catfile($o->{out}, $prog, ".counts-$j");
        for my $line (split /\n/, slurp($file)) {
            my ($k, $v) = split /\t/, $line;
            $total{$k} += $v;
        }
        unlink $file;
    }
    my $secs = time - $t0;
    my @kinds = sort grep { !/^(inputs|sig:)/ } keys %total;
    my $summary = sprintf("%s: %d inputs in %.0f s (%.0f/s), seed %d, %d seeds; %s\n",
        $prog, $total{inputs} // 0, $secs, ($total{inputs} // 0) / ($secs || 1),
        $o->{seed}, scalar @$seeds,
        @kinds ? join(', ', map { "$total{$_} $_" } @kinds) : 'no findings');
    $summary .= "  $total{$_} x $_\n" =~ s/sig://r
        for sort grep { /^sig:/ } keys %total;
    print $summary;
    print "  findings kept in " . File::Spec->catdir($o->{out}, $prog) . "\n" if @kinds;
    open(my $log, '>>', File::Spec->catfile($o->{out}, 'summary.log'));
    print {$log} $summary if $log;
    return @kinds ? 1 : 0;
}

exit main(@ARGV);
