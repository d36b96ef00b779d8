#!/usr/bin/perl
# annotate-ci.t -- cg_annotate's outputs for CI: --json, --cycles and the
# regression gate (--diff OLD NEW --fail-if / --fail-if-fn, --format).
#
#   - --json: the whole profile as one document (schema in cg_annotate(1));
#     checked against that schema, and its totals, function totals and
#     per-line counts against the input file as this test reads it, on the
#     golden inputs and on real profiles (ours, on tests/progs fixtures);
#     with --diff, two files merged, --mod-funcname and --cycles too;
#   - --cycles: the Cycles column is the formula over each row's counts
#     (CEst by default, iai, a formula given), --sort=Cycles orders by it,
#     and a formula that names an absent event, multiplies two events or
#     has a constant term is refused in one line naming --cycles;
#   - the gate, on real pairs of profiles: the same run twice passes (exit
#     0); a planted regression (more walks of matrix_walk) fails with exit
#     3, the offending total and functions first; a shrinking profile
#     fails a `<' condition only; --format=markdown prints the table alone;
#     bad specifications are refused.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/lib";
use Test::More;
use File::Spec;
use File::Temp qw(tempdir);
use JSON::PP;
use CgTest qw(:all);

require_tools();
simulate_caches();

my $ANN    = File::Spec->catfile(top_dir(), 'cg_annotate');
my $GOLDEN = File::Spec->catdir(tests_dir(), 'golden', 'cg_annotate');
my $tmp    = tempdir('cgannci-XXXXXXXX', TMPDIR => 1, CLEANUP => 1);

sub annotate {
    my (@args) = @_;
    my $r = run_captured({ dir => $tmp }, $ANN, @args);
    return { out => $r->{out}, err => $r->{err}, status => $r->{status} };
}

# A data file as 3.19's reader takes it: fn= stays across fl=, counts add
# up per (file, function, line); '.' is 0 here (the JSON has numbers).
sub read_profile {
    my ($path) = @_;
    open(my $fh, '<', $path) or die "$path: $!";
    my (%p, $file, $fn);
    $file = '';
    while (my $l = <$fh>) {
        chomp $l;
        if    ($l =~ /^events:\s+(.*)/)  { $p{events} = [split ' ', $1] }
        elsif ($l =~ /^cmd:\s+(.*)/)     { $p{cmd} = $1 }
        elsif ($l =~ /^fl=(.*)/)         { $file = $1 }
        elsif ($l =~ /^fn=(.*)/)         { $fn = $1 }
        elsif ($l =~ /^summary:\s+(.*)/) { $p{summary} = [split ' ', $1] }
        elsif ($l =~ /^(-?\d+)\s(.*)/ && defined $fn) {
            my @c = split ' ', $2;
            my $cc = $p{lines}{$file}{$fn}{ 0 + $1 } //= [];
            $cc->[$_] += ($c[$_] eq '.' ? 0 : $c[$_]) for 0 .. $#c;
        }
    }
    return \%p;
}

# The document's shape, as cg_annotate(1) gives it; '' when it holds
sub schema_problem {
    my ($d) = @_;
    return 'not an object' unless ref $d eq 'HASH';
    return 'schema is not 1' unless ($d->{schema} // '') eq '1';
    for my $k (qw(command events desc totals files inputs)) {
        return "no `$k'" unless exists $d->{$k};
    }
    return 'events is not a list of names' unless ref $d->{events} eq 'ARRAY'
        && !grep { ref $_ || !length $_ } @{ $d->{events} };
    my %ev = map { $_ => 1 } @{ $d->{events} };
    my $counts_ok = sub {
        my ($c) = @_;
        return ref $c eq 'HASH' && keys(%$c) == keys(%ev)
               && !grep { !$ev{$_} || $c->{$_} !~ /^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?\z/i } keys %$c;
    };
    return 'totals' unless $counts_ok->($d->{totals});
    for my $f (@{ $d->{files} }) {
        return 'a file without its name' unless defined $f->{file} && ref $f->{functions} eq 'ARRAY';
        for my $fn (@{ $f->{functions} }) {
            return "function in $f->{file}" unless defined $fn->{fn} && $counts_ok->($fn->{counts})
                                                   && ref $fn->{lines} eq 'ARRAY';
            for my $l (@{ $fn->{lines} }) {
                return "a line of $fn->{fn}" unless $l->{line} =~ /^-?\d+\z/ && $counts_ok->($l->{counts});
            }
        }
    }
    return '';
}

# The document's lines as {file}{fn}{line} => [counts in file order]
sub json_lines {
    my ($d, $events) = @_;
    my %l;
    for my $f (@{ $d->{files} }) {
        for my $fn (@{ $f->{functions} }) {
            for my $x (@{ $fn->{lines} }) {
                $l{ $f->{file} }{ $fn->{fn} }{ $x->{line} } = [map { $x->{counts}{$_} } @$events];
            }
        }
    }
    return \%l;
}

sub same_lines {
    my ($want, $got, $n) = @_;
    my (@missing, @wrong);
    for my $file (keys %$want) {
        for my $fn (keys %{ $want->{$file} }) {
            for my $line (keys %{ $want->{$file}{$fn} }) {
                my $w = $want->{$file}{$fn}{$line};
                my $g = $got->{$file}{$fn}{$line};
                if (!$g) { push @missing, "$file:$fn:$line"; next }
                push @wrong, "$file:$fn:$line" if grep { ($w->[$_] // 0) != $g->[$_] } 0 .. $n - 1;
            }
        }
    }
    my $extra = 0;
    for my $file (keys %$got) {
        for my $fn (keys %{ $got->{$file} }) {
            $extra += grep { !$want->{$file}{$fn}{$_} } keys %{ $got->{$file}{$fn} };
        }
    }
    return '' unless @missing || @wrong || $extra;
    return sprintf('%d missing (%s), %d wrong (%s), %d extra', scalar @missing,
                   join(' ', @missing[0 .. ($#missing < 2 ? $#missing : 2)]), scalar @wrong,
                   join(' ', @wrong[0 .. ($#wrong < 2 ? $#wrong : 2)]), $extra);
}

sub json_of {
    my (@args) = @_;
    my $r = annotate('--json', @args);
    my $d = eval { decode_json($r->{out}) };
    return ($d, $r);
}

# Round trip of one file: schema, totals = summary, lines = file, each
# function's counts = the sum of its lines
sub check_round_trip {
    my ($label, $path) = @_;
    my $p = read_profile($path);
    my ($d, $r) = json_of($path);
    ok($d, "$label: --json is one JSON document") or return diag($r->{err});
    is(schema_problem($d), '', "$label: it has the documented shape");
    my @ev = @{ $p->{events} };
    is_deeply([map { $d->{totals}{$_} } @ev], [map { $_ eq '.' ? 0 : 0 + $_ } @{ $p->{summary} }],
              "$label: totals = the summary line");
    is(same_lines($p->{lines}, json_lines($d, \@ev), scalar @ev), '',
       "$label: every line's counts = the file's");
    my $bad = 0;
    for my $f (@{ $d->{files} }) {
        for my $fn (@{ $f->{functions} }) {
            for my $e (@ev) {
                my $sum = 0;
                $sum += $_->{counts}{$e} for @{ $fn->{lines} };
                $bad++ if $sum != $fn->{counts}{$e};
            }
        }
    }
    is($bad, 0, "$label: each function's counts = the sum of its lines");
    return $d;
}

# --- Real profiles --------------------------------------------------------
my $progs = eval { build_progs() };
ok($progs, 'built the fixtures') or diag($@);

sub profile_of {
    my ($name, $opts, @args) = @_;
    my $res = run_ours($opts, [$progs->{$name}, @args], cpu => 0);
    my ($f) = grep { $_->{name} =~ /^cg\.out\.\d+\z/ } @{ $res->{files} };
    return undef unless $f;
    my $path = File::Spec->catfile($tmp, join('-', $name, @args, scalar(@$opts)) . '.out');
    spew($path, $f->{content});
    return $path;
}

my $branchy = profile_of('branches-O2', ['--branch-sim=yes']);
my $walk1   = profile_of('matrix_walk-O0', [], 1);
my $walk1b  = profile_of('matrix_walk-O0', [], 1);
my $walk2   = profile_of('matrix_walk-O0', [], 2);
ok($branchy && $walk1 && $walk1b && $walk2, 'ours profiled branches and matrix_walk');

SKIP: {
    skip('no profiles', 1) unless $branchy && $walk1 && $walk2;
    check_round_trip('branches-O2 (ours, branch-sim)', $branchy);
    check_round_trip('matrix_walk-O0 (ours)', $walk1);

    # --diff: new - old, line by line; two files: their sum
    my ($p1, $p2) = (read_profile($walk1), read_profile($walk2));
    my @ev = @{ $p1->{events} };
    my (%diff, %sum);
    for my $file (keys %{ $p2->{lines} }, keys %{ $p1->{lines} }) {
        for my $fn (keys %{ $p2->{lines}{$file} // {} }, keys %{ $p1->{lines}{$file} // {} }) {
            my %ls = map { $_ => 1 } keys %{ $p1->{lines}{$file}{$fn} // {} },
                                     keys %{ $p2->{lines}{$file}{$fn} // {} };
            for my $l (keys %ls) {
                my $a = $p1->{lines}{$file}{$fn}{$l} // [];
                my $b = $p2->{lines}{$file}{$fn}{$l} // [];
                $diff{$file}{$fn}{$l} = [map { ($b->[$_] // 0) - ($a->[$_] // 0) } 0 .. $#ev];
                $sum{$file}{$fn}{$l}  = [map { ($b->[$_] // 0) + ($a->[$_] // 0) } 0 .. $#ev];
            }
        }
    }
    my ($d) = json_of('--diff', $walk1, $walk2);
    ok($d && $d->{diff}, '--json --diff: a document marked diff');
    is(same_lines(\%diff, json_lines($d, \@ev), scalar @ev), '', '--json --diff: lines = new - old');
    is($d->{totals}{Ir}, $p2->{summary}[0] - $p1->{summary}[0], '--json --diff: totals = new - old');
    ($d) = json_of($walk1, $walk2);
    is(same_lines(\%sum, json_lines($d, \@ev), scalar @ev), '', '--json of two files: lines = their sum');

    # --mod-funcname renames before aggregating
    ($d) = json_of('--mod-funcname=s/^sum_by_columns$/SUM/', $walk1);
    my @names = map { $_->{fn} } map { @{ $_->{functions} } } @{ $d->{files} };
    ok((grep { $_ eq 'SUM' } @names) && !(grep { $_ eq 'sum_by_columns' } @names),
       '--json --mod-funcname: the renamed function');

    # --cycles in the document: the formula over every line
    ($d) = json_of('--cycles=iai', $walk1);
    my $bad = 0;
    for my $x (map { @{ $_->{lines} } } map { @{ $_->{functions} } } @{ $d->{files} }) {
        my %c = %{ $x->{counts} };
        my $want = $c{Ir} + $c{Dr} + $c{Dw} + 4 * ($c{I1mr} + $c{D1mr} + $c{D1mw})
                   + 30 * ($c{ILmr} + $c{DLmr} + $c{DLmw});
        $bad++ if $c{Cycles} != $want;
    }
    is($bad, 0, '--json --cycles=iai: Cycles = L1 hits + 5 LL hits + 35 RAM hits, every line');
    like($d->{cycles}, qr/^iai = Ir \+ 4 I1mr \+ 30 ILmr/, '--json --cycles: the formula written out');
}

# --- Golden inputs ---------------------------------------------------------
for my $name (qw(branchy-O2-bs sortsearch-O0 matrix-O2 negative bignum line0)) {
    my $path = File::Spec->catfile($GOLDEN, "$name.cgout");
    next unless -f $path;
    check_round_trip("golden $name", $path);
}

# --- The Cycles column -------------------------------------------------------
SKIP: {
    skip('no profile', 1) unless $branchy;
    my $p = read_profile($branchy);
    my @ev = @{ $p->{events} };
    my %fn_total;
    for my $file (keys %{ $p->{lines} }) {
        for my $fn (keys %{ $p->{lines}{$file} }) {
            for my $cc (values %{ $p->{lines}{$file}{$fn} }) {
                $fn_total{"$file:$fn"}[$_] += $cc->[$_] // 0 for 0 .. $#ev;
            }
        }
    }
    my %i;
    @i{@ev} = 0 .. $#ev;
    my $cest = sub {
        my ($c) = @_;
        my $v = $c->[ $i{Ir} ] + 10 * ($c->[ $i{Bcm} ] + $c->[ $i{Bim} ]);
        $v += 10 * $c->[ $i{$_} ] for qw(I1mr D1mr D1mw);
        $v += 100 * $c->[ $i{$_} ] for qw(ILmr DLmr DLmw);
        return $v;
    };
    my $r = annotate('--cycles', '--show=Ir,Cycles', '--show-percs=no', '--auto=no',
                     '--threshold=0', $branchy);
    is($r->{status}, 0, '--cycles: exit 0');
    like($r->{out}, qr/^Cycles:\s+CEst = Ir \+ 10 I1mr \+ 100 ILmr .* \+ 10 Bcm \+ 10 Bim$/m,
         '--cycles: the header writes CEst out');
    my ($rows, $bad) = (0, 0);
    for my $l (split /\n/, $r->{out}) {
        next unless $l =~ /^\s*([\d,]+)\s+([\d,]+)\s+(\S.*)$/;
        my ($ir, $cy, $name) = ($1, $2, $3);
        s/,//g for $ir, $cy;
        next unless $fn_total{$name};
        $rows++;
        $bad++ if $cy != $cest->($fn_total{$name}) || $ir != $fn_total{$name}[ $i{Ir} ];
    }
    ok($rows > 5, "--cycles: $rows function rows read");
    is($bad, 0, '--cycles: each row\'s Cycles = CEst of its counts');

    $r = annotate('--cycles', '--sort=Cycles', '--show=Cycles', '--show-percs=no', '--auto=no',
                  '--threshold=0', $branchy);
    my @col = map { (my $x = $_) =~ s/,//g; $x } $r->{out} =~ /^\s*([\d,]+)\s+\S+:\S+$/mg;
    ok(@col > 5 && !grep({ $col[$_] > $col[ $_ - 1 ] } 1 .. $#col), '--sort=Cycles: rows by Cycles, largest first');

    $r = annotate('--cycles=Ir + 2*(D1mr+D1mw) - Bcm/2', '--show=Cycles', '--auto=no', $branchy);
    like($r->{out}, qr/^Cycles:\s+Ir \+ 2 D1mr \+ 2 D1mw - 0\.5 Bcm$/m, 'a formula given: written out as parsed');

    for my $case (['Ir + 2*Nope', qr/^cg_annotate: --cycles: event `Nope' is not in the data file/],
                  ['Ir * D1mr', qr/^cg_annotate: --cycles: a product of two events is not linear/],
                  ['Ir + 3', qr/^cg_annotate: --cycles: a constant term/],
                  ['(Ir', qr/^cg_annotate: --cycles: a missing `\)'/]) {
        my $r2 = annotate("--cycles=$case->[0]", $branchy);
        ok($r2->{status} == 1 && $r2->{err} =~ $case->[1] && ($r2->{err} =~ tr/\n//) == 1,
           "--cycles='$case->[0]': refused in one line") or diag($r2->{err});
    }
    my $plain = profile_of('matrix_walk-O0', ['--cache-sim=no'], 1);
    my $r3 = annotate('--cycles=iai', $plain);
    like($r3->{err}, qr/--cycles: event `\w+' is not in the data file/,
         '--cycles=iai on a run without cache simulation: the missing event named');
}

# --- The gate ----------------------------------------------------------------
SKIP: {
    skip('no profiles', 1) unless $walk1 && $walk1b && $walk2;
    my $r = annotate('--diff', $walk1, $walk1b, '--fail-if=Ir>+1%,D1mr>+5%', '--fail-if-fn=Ir>+10%');
    is($r->{status}, 0, 'the same run twice: exit 0');
    like($r->{out}, qr/\A-{80}\n-- Regression check: .* passed\n/, 'and the check says passed first');

    $r = annotate('--diff', $walk1, $walk2, '--fail-if=Ir>+1%,Cycles>+2%,D1mr>+5%',
                  '--fail-if-fn=Ir>+10%');
    is($r->{status}, 3, 'two walks against one: exit 3');
    my @head = (split /\n/, $r->{out})[0 .. 7];
    like($head[1], qr/Regression check: .* FAILED$/, 'FAILED first');
    like($head[3], qr/^FAIL  total Ir > \+1%: [\d,]+ -> [\d,]+, \+[\d,]+ \(\+\d+\.\d\d%\)$/,
         'the offending total next, with its figures');
    like($r->{out}, qr/^FAIL  functions Ir > \+10% \(counts of 1,000 or more\): \d+ over\n\s+\S*matrix_walk\.c:(sum_by_columns|fill|diagonal_stride) /m,
         'the offending functions, largest change first');
    like($r->{out}, qr/^Cycles:\s+CEst = /m, 'a condition on Cycles turns CEst on');

    $r = annotate('--diff', $walk2, $walk1, '--fail-if=Ir>+1%');
    is($r->{status}, 0, 'a shrinking profile passes a growth condition');
    $r = annotate('--diff', $walk2, $walk1, '--fail-if=Ir<-10%');
    is($r->{status}, 3, 'and fails a shrinking one');
    $r = annotate('--diff', $walk1, $walk2, '--fail-if=Ir>+1000000000');
    is($r->{status}, 0, 'an absolute limit above the change passes');

    $r = annotate('--diff', $walk1, $walk2, '--fail-if=Ir>+1%', '--fail-if-fn=Ir>+10%',
                  '--format=markdown');
    is($r->{status}, 3, '--format=markdown: exit 3 too');
    like($r->{out}, qr/\A\*\*Cache profile check failed\*\*\n\n\| \| event \| old \| new \| change \| limit \|\n/,
         '--format=markdown: a title and the totals table');
    unlike($r->{out}, qr/PROGRAM TOTALS/, '--format=markdown: the table alone');

    for my $case ([['--fail-if=Ir>+1%', $walk1], qr/--fail-if and --fail-if-fn need --diff/],
                  [['--diff', '--fail-if=Ir>>1', $walk1, $walk2], qr/option --fail-if: `Ir>>1' is not/],
                  [['--diff', '--fail-if=Nope>+1%', $walk1, $walk2], qr/--fail-if: event `Nope' is not in the data files/],
                  [['--format=markdown', $walk1], qr/--format=markdown prints the --fail-if table/]) {
        my $r2 = annotate(@{ $case->[0] });
        ok($r2->{status} != 0 && $r2->{status} != 3 && $r2->{err} =~ $case->[1],
           "refused: @{ $case->[0] }[0 .. 1]") or diag($r2->{err});
    }
}

done_testing();
