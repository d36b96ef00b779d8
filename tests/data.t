#!/usr/bin/perl
# data.t -- the data-centric profile (--data-profile=yes) end to end.
#
# The fixtures in tests/progs-data/ touch their heap blocks, mappings,
# globals and stack arrays only through volatile accesses in loops of
# known trip counts, each on a line of its own tagged "MARK: <name>", so
# the Dr and Dw every object must get are known by construction, and
# the source lines an allocation site must name are found by their
# marks (never hard-coded):
#   heap.c      three heap sites, two of them one helper called from two
#               lines (two objects: the site's second frame differs);
#               a global array; a stack array in `thread 1`; fields of
#               one-element blocks (< 256 bytes) and detected strides
#   list.c      a list of 64-byte nodes whose `next` misses in D1 and
#               whose `key` hardly does: fields, ranking by D1mr
#   realloc.c   realloc moving a block; a freed address reused by
#               another site; one site making many blocks
#   allocfns.c  calloc (its clearing is `other`), memalign,
#               aligned_alloc, posix_memalign, valloc, reallocarray,
#               anonymous mmap (kind mmap)
#   threads.c   three threads alive at once allocating in turn, each at
#               its own site; their stacks are `thread 2..4`
#   newdel.cc   C++ new, new[], delete, delete[]
#   sites.c     128 malloc calls (sites) making two blocks each
# Every data file, of these and of every program of tests/progs (the
# differential suite, run again with the option given to ours only), is
# checked for its structure: it parses, each object's counts are the sum
# of its line records (and of its field records), the objects add up to
# `totals`, and `totals` is the main file's summary (Dr D1mr DLmr Dw
# D1mw DLmw).  The main file itself must stay byte-identical to the
# system Cachegrind's run of the same program (the reference never gets
# the data options).  Every way the profile can run (the access log
# with and without the simulator thread, no log) gives the same data
# file, run after run.  Also: --data-stride,
# --data-callers, --data-out-file with %p, the default file name, and
# bad option values (and --cache-sim=no, which the profile needs on).
#
# Environment: as for every CgTest file (CG_JOBS, CG_ONLY, CG_KEEP_TMP).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Cwd qw(abs_path);
use File::Basename qw(basename);
use File::Spec;
use File::Temp qw(tempdir);
use Time::HiRes qw(time);
use Test::More;
use CgTest qw(:all);

require_tools();
simulate_caches();   # a test of the cache simulation, with any release's defaults

my $T0   = time;
my $SRC  = abs_path(File::Spec->catdir(tests_dir(), 'progs-data'));
my $BIN  = File::Spec->catdir(build_root(), 'progs-data');
my $CC   = defined $ENV{CC}  && $ENV{CC}  ne '' ? $ENV{CC}  : 'gcc';
my $CXX  = defined $ENV{CXX} && $ENV{CXX} ne '' ? $ENV{CXX} : 'g++';
my $SELF = abs_path(__FILE__);

# Fixed caches, the same for both tools: the D1 misses of list.c do not
# depend on the host.
my @CACHES = ('--I1=32768,8,64', '--D1=32768,8,64', '--LL=1048576,16,64');
# The data files are written here (absolute names), outside the runs'
# directories, so that ours leaves the same files there as the reference.
my $DATA_DIR = tempdir('cgdata-XXXXXXXX', TMPDIR => 1, CLEANUP => !$ENV{CG_KEEP_TMP});
note("data files in $DATA_DIR") if $ENV{CG_KEEP_TMP};

my @FULL  = qw(Dr D1mr DLmr Dw D1mw DLmw);

# ---------------------------------------------------------------------------
# Fixtures

my $have_cxx = defined which($CXX);

# build_fixture($source, $opt, @link) -> path of "<base>-<opt>"
sub build_fixture {
    my ($source, $opt, @link) = @_;
    my ($base, $ext) = $source =~ /^(\w+)\.(c|cc)$/ or die "bad fixture name $source\n";
    my $c   = File::Spec->catfile($SRC, $source);
    my $out = File::Spec->catfile($BIN, "$base-$opt");
    build_one($out, [$c, $SELF], $ext eq 'cc' ? $CXX : $CC,
              '-g', "-$opt", '-Wall', $c, @link);
    return $out;
}

# The "MARK: name" lines of a source: { name => line number }.
my %MARKS;
sub marks {
    my ($source) = @_;
    return $MARKS{$source} //= do {
        my $path = File::Spec->catfile($SRC, $source);
        open(my $fh, '<', $path) or die "$path: $!\n";
        my %m;
        while (my $l = <$fh>) {
            next unless $l =~ m{MARK: ([\w-]+)};
            die "$path: mark $1 twice\n" if $m{$1};
            $m{$1} = $.;
        }
        close $fh;
        \%m;
    };
}

my %bin;
my $built = eval {
    for my $opt (qw(O0 O2)) {
        $bin{"$_-$opt"} = build_fixture("$_.c", $opt) for qw(heap list realloc allocfns);
        $bin{"threads-$opt"} = build_fixture('threads.c', $opt, '-pthread');
        $bin{"newdel-$opt"}  = build_fixture('newdel.cc', $opt) if $have_cxx;
    }
    # -O2 only: at -O0 the 128 calls make one line-table entry of 8 KB,
    # which Valgrind's debug-info reader (the system Cachegrind's too)
    # cannot place: the sites would all be ???:0.
    $bin{'sites-O2'} = build_fixture('sites.c', 'O2');
    1;
};
ok($built, 'built the fixtures of tests/progs-data') or diag($@);
my $progs = eval { build_progs() };
ok($progs, 'built the fixtures of tests/progs') or diag($@);
BAIL_OUT('cannot build the fixtures') unless $built && $progs;

# ---------------------------------------------------------------------------
# The data file

# parse_data($text) -> { head => { key => value }, events => [..],
#   objects => [ { kind, name, objfile, site => [[file, fn, line]..],
#                  blocks => [n, bytes, element], counts => [..],
#                  lines => [ { file, fn, line, counts } ],
#                  fields => { offset => [..] } } ],
#   totals => [..], errors => [..] }
sub parse_data {
    my ($text) = @_;
    my %d = (head => {}, events => [], objects => [], totals => undef, errors => []);
    my $err = sub { push @{ $d{errors} }, $_[0] };
    my @lines = split /\n/, $text, -1;
    if (@lines && $lines[-1] eq '') { pop @lines } else { $err->('no final newline') }
    my ($obj, $body, $after_totals) = (undef, 0, 0);
    my $n = 0;
    for my $l (@lines) {
        $n++;
        next if $l =~ /^#/;
        $err->("line $n: after the totals line: $l") if $after_totals;
        if (!$body && $l =~ /^(version|creator|pid|cmd|events|element): ?(.*)$/) {
            $err->("line $n: $1 twice") if exists $d{head}{$1};
            $d{head}{$1} = $2;
            $d{events} = [ split ' ', $2 ] if $1 eq 'events';
            next;
        }
        $body = 1;
        my ($kw, @f) = split /\t/, $l, -1;
        my $counts = sub {
            my ($s) = @_;
            my @c = split / /, $s // '', -1;
            return \@c if @c == @{ $d{events} } && !grep { !/^\d+$/ } @c;
            $err->("line $n: counts '" . ($s // '') . "' do not fit the events line");
            return [ (0) x @{ $d{events} } ];
        };
        my $nf = sub {
            return 1 if @f == $_[0];
            $err->("line $n: $kw with " . scalar(@f) . " fields, not $_[0]: $l");
            return 0;
        };
        if ($kw eq 'object') {
            $nf->(2) or next;
            $err->("line $n: unknown kind $f[0]") unless $f[0] =~ /^(?:heap|mmap|global|stack|other)$/;
            $obj = { kind => $f[0], name => $f[1], site => [], lines => [], fields => {},
                     at => $n };
            push @{ $d{objects} }, $obj;
        } elsif ($kw eq 'totals') {
            $nf->(1) or next;
            $d{totals} = $counts->($f[0]);
            ($obj, $after_totals) = (undef, 1);
        } elsif (!$obj) {
            $err->("line $n: not in an object: $l");
        } elsif ($kw eq 'objfile') {
            $nf->(1) and $obj->{objfile} = $f[0];
        } elsif ($kw eq 'site') {
            $nf->(3) or next;
            $err->("line $n: site line '$f[2]'") unless $f[2] =~ /^\d+$/;
            push @{ $obj->{site} }, [@f];
        } elsif ($kw eq 'blocks') {
            $nf->(3) or next;
            $err->("line $n: blocks '@f'") if grep { !/^\d+$/ } @f;
            $obj->{blocks} = [@f];
        } elsif ($kw eq 'counts') {
            $nf->(1) and $obj->{counts} = $counts->($f[0]);
        } elsif ($kw eq 'line') {
            $nf->(4) or next;
            $err->("line $n: line number '$f[2]'") unless $f[2] =~ /^\d+$/;
            push @{ $obj->{lines} }, { file => $f[0], fn => $f[1], line => $f[2],
                                       counts => $counts->($f[3]) };
        } elsif ($kw eq 'field') {
            $nf->(2) or next;
            $err->("line $n: field offset '$f[0]'") unless $f[0] =~ /^\d+$/;
            $err->("line $n: field $f[0] twice") if exists $obj->{fields}{ $f[0] };
            $obj->{fields}{ $f[0] } = $counts->($f[1]);
        } else {
            $err->("line $n: unrecognised: $l");
        }
    }
    for my $o (@{ $d{objects} }) {
        $err->("object at line $o->{at} ($o->{name}) has no $_ line")
            for grep { !$o->{$_} } qw(blocks counts);
    }
    $err->('no totals line') unless $d{totals};
    return \%d;
}

sub vsum {
    my ($n, @vecs) = @_;
    my @s = (0) x $n;
    for my $v (@vecs) { $s[$_] += $v->[$_] for 0 .. $n - 1 }
    return \@s;
}

sub ev_index { my ($d, $name) = @_; my ($i) = grep { $d->{events}[$_] eq $name } 0 .. $#{ $d->{events} }; return $i }
sub ev       { my ($d, $c, $name) = @_; my $i = ev_index($d, $name); return defined $i ? $c->[$i] : undef }
sub rw       { my ($d, $c) = @_; return 'Dr ' . ev($d, $c, 'Dr') . ' Dw ' . ev($d, $c, 'Dw') }
sub obj_str {
    my ($o) = @_;
    my $s = "$o->{kind} '$o->{name}'";
    $s .= ' site ' . join(' < ', map { basename($_->[0]) . ":$_->[2] $_->[1]" } @{ $o->{site} })
        if @{ $o->{site} };
    return $s . ' counts ' . join(' ', @{ $o->{counts} || [] });
}

# check_data_file($d, $main_content, %o): the structure every data file
# has.  %o: events => [..], element => 'auto' | n, callers => n (most
# frames of a site), pid => n.
sub check_data_file {
    my ($d, $main, %o) = @_;
    my $ok = is_deeply($d->{errors}, [], 'the data file parses');
    my $main_prof = parse_cgout(\$main);
    my $h = $d->{head};
    is($h->{version}, 1, 'version: 1');
    like($h->{creator} // '', qr/^cachegrind-ng \S+$/, 'creator: cachegrind-ng <version>');
    is($h->{pid}, $o{pid}, "pid: the main file's") if defined $o{pid};
    is($h->{cmd}, $main_prof->{cmd}, "cmd: the main file's");
    is("@{ $d->{events} }", "@{ $o{events} }", "events: @{ $o{events} }");
    is($h->{element}, $o{element} // 'auto', 'element: ' . ($o{element} // 'auto'));
    my $nev = @{ $d->{events} };
    return unless $ok && $nev;

    my @objs = @{ $d->{objects} };
    my @other = grep { $_->{kind} eq 'other' } @objs;
    ok(@other == 1 && $other[0]{name} eq 'other', "one object of kind other, named 'other'")
        or diag('  ' . join("\n  ", map { obj_str($_) } @other));

    my (@bad_names, @bad_sites, @bad_objfile, @bad_sum, @bad_fields, @no_fields);
    for my $o (@objs) {
        my ($k, $site) = ($o->{kind}, $o->{site});
        if ($k eq 'heap' || $k eq 'mmap') {
            push @bad_sites, $o unless @$site >= 1 && @$site <= ($o{callers} // 4);
            push @bad_names, $o unless @$site && $o->{name} eq "$site->[0][1] ($site->[0][0]:$site->[0][2])";
        } else {
            push @bad_sites, $o if @$site;
            push @bad_names, $o if $k eq 'stack' && $o->{name} !~ /^thread [1-9]\d*$/;
        }
        push @bad_objfile, $o if ($k eq 'global') != defined $o->{objfile};
        my $lines = vsum($nev, map { $_->{counts} } @{ $o->{lines} });
        push @bad_sum, $o if "@$lines" ne "@{ $o->{counts} }";
        my $elem = $o->{blocks}[2];
        push @no_fields, $o if $elem == 0 && $k =~ /^(?:heap|mmap|global)$/;
        my @offs = keys %{ $o->{fields} };
        if ($elem == 0) {
            push @bad_fields, $o if @offs;
        } else {
            my $fsum = vsum($nev, values %{ $o->{fields} });
            push @bad_fields, $o if "@$fsum" ne "@{ $o->{counts} }" || grep { $_ >= $elem } @offs;
        }
    }
    my $list = sub {
        my @l = @_;
        splice(@l, 8) if @l > 8;
        return join("\n", map { '  ' . obj_str($_) . ' element ' . ($_->{blocks} ? $_->{blocks}[2] : '?') } @l);
    };
    ok(!@bad_names, 'object names: heap/mmap "fn (file:line)" of the first site frame, stacks "thread N"')
        or diag($list->(@bad_names));
    ok(!@bad_sites, 'heap/mmap objects have 1 to ' . ($o{callers} // 4) . ' site frames, others none')
        or diag($list->(@bad_sites));
    ok(!@bad_objfile, 'globals, and only they, name their objfile') or diag($list->(@bad_objfile));
    ok(!@bad_sum, "each object's counts are the sum of its line records")
        or diag($list->(@bad_sum));
    {
        ok(!@no_fields, 'heap, mmap and global objects have an element size (a field breakdown)')
            or diag(scalar(@no_fields) . " of them have none:\n" . $list->(@no_fields));
    }
    ok(!@bad_fields, "with an element size, an object's fields are below it and add up to its counts; without, none")
        or diag($list->(@bad_fields));

    # One object per thread stack.  (Not checked for heap sites: two
    # sites can differ in their addresses only, see sites.c.)
    my %seen;
    my @dups = grep { $seen{ $_->{name} }++ } grep { $_->{kind} eq 'stack' } @objs;
    ok(!@dups, 'no two stack objects of one thread') or diag($list->(@dups));

    my $objsum = vsum($nev, map { $_->{counts} } @objs);
    is("@{ $d->{totals} }", "@$objsum", 'totals: the sum of the objects');
    my %pos;
    @pos{ @{ $main_prof->{event_names} } } = 0 .. $#{ $main_prof->{event_names} };
    my @sum = split ' ', $main_prof->{summary} // '';
  SKIP: {
        # The system Cachegrind counts no data access without the cache
        # simulation (its events are then Ir alone), nor does our main file.
        skip "the main file has no @{ $d->{events} } events (@{ $main_prof->{event_names} })", 1
            if grep { !defined $pos{$_} } @{ $d->{events} };
        my $want = join ' ', map { $sum[ $pos{$_} ] // '?' } @{ $d->{events} };
        is("@{ $d->{totals} }", $want, "totals: the main file's summary (@{ $d->{events} })");
    }
    return;
}

# ---------------------------------------------------------------------------
# Expected objects

# site_matches($o, [[mark, fn], ..], $src): the object's first frames
# are these lines of the fixture source (fn: a name or a regex).
sub site_matches {
    my ($o, $want, $source) = @_;
    my $path = File::Spec->catfile($SRC, $source);
    return 0 if @{ $o->{site} } < @$want;
    for my $i (0 .. $#$want) {
        my ($mark, $fn) = @{ $want->[$i] };
        my $f = $o->{site}[$i];
        my $line = marks($source)->{$mark} // die "$source: no mark $mark\n";
        return 0 unless $f->[0] eq $path && $f->[2] == $line;
        return 0 if defined $fn && (ref $fn ? $f->[1] !~ $fn : $f->[1] ne $fn);
    }
    return 1;
}

# The counts ("Dr x Dw y") of an object's line records at a mark.
sub at_mark {
    my ($d, $o, $source, $mark) = @_;
    my $path = File::Spec->catfile($SRC, $source);
    my $line = marks($source)->{$mark} // die "$source: no mark $mark\n";
    my @recs = grep { $_->{file} eq $path && $_->{line} == $line } @{ $o->{lines} };
    return rw($d, vsum(scalar @{ $d->{events} }, map { $_->{counts} } @recs));
}

# The fields of an object against expect()'s fields and only_fields.
sub expect_fields {
    my ($d, $o, %e) = @_;
    my $f = $e{fields};
    my %got = map { ($_ => rw($d, $o->{fields}{$_})) } keys %{ $o->{fields} };
    my %want = map { ($_ => "Dr $f->{$_}[0] Dw $f->{$_}[1]") } keys %$f;
    %got = map { ($_ => $got{$_}) } grep { exists $want{$_} } keys %got unless $e{only_fields};
    my @bad = grep { ($got{$_} // '(none)') ne ($want{$_} // '(none)') }
              sort { $a <=> $b } keys %{ { %got, %want } };
    ok(!@bad, "$e{what}: fields" . ($e{only_fields} ? ' (and no others)' : ''))
        or diag(map { "  field $_: want " . ($want{$_} // '(none)') . ', got '
                      . ($got{$_} // '(none)') . "\n" } @bad[0 .. ($#bad < 9 ? $#bad : 9)]);
    return;
}

# expect($d, $source, %e): one object as described, and its counts.
#   what    label;  kind;  name (exact) and/or site => [[mark, fn], ..]
#   rw      => [Dr, Dw] of the whole object;  todo => reason for that
#   blocks, bytes, element, objfile
#   fields  => { offset => [Dr, Dw] };  only_fields => 1: no others
#   lines   => { mark => [Dr or undef, Dw or undef] }
# Returns the object (undef if not exactly one matched).
sub expect {
    my ($d, $source, %e) = @_;
    my @found = grep {
        $_->{kind} eq $e{kind}
        && (!defined $e{name} || $_->{name} eq $e{name})
        && (!$e{site} || site_matches($_, $e{site}, $source))
    } @{ $d->{objects} };
    if (!is(scalar @found, 1, "$e{what}: one object")) {
        diag('  matching: ' . join('; ', map { obj_str($_) } @found)) if @found;
        diag('  the file has: ' . join("\n    ", map { obj_str($_) }
                                           grep { $_->{kind} eq $e{kind} } @{ $d->{objects} }));
        return undef;
    }
    my $o = $found[0];
    if ($e{rw}) {
        my $got = rw($d, $o->{counts});
        is($got, "Dr $e{rw}[0] Dw $e{rw}[1]", "$e{what}: Dr and Dw exactly")
            or diag('  line records: ' . join("\n    ",
                    map { basename($_->{file}) . ":$_->{line} $_->{fn}: " . rw($d, $_->{counts}) }
                    @{ $o->{lines} }));
    }
    is($o->{blocks}[0], $e{blocks},  "$e{what}: blocks")  if defined $e{blocks};
    is($o->{blocks}[1], $e{bytes},   "$e{what}: bytes")   if defined $e{bytes};
    is($o->{objfile},   $e{objfile}, "$e{what}: objfile") if defined $e{objfile};
    if (defined $e{element} || $e{fields}) {
        is($o->{blocks}[2], $e{element}, "$e{what}: element size") if defined $e{element};
        expect_fields($d, $o, %e) if $e{fields};
    }
    for my $mark (sort keys %{ $e{lines} || {} }) {
        my ($r, $w) = @{ $e{lines}{$mark} };
        my $got = at_mark($d, $o, $source, $mark);
        my ($gr, $gw) = $got =~ /^Dr (\d+) Dw (\d+)$/;
        ok((!defined $r || $gr == $r) && (!defined $w || $gw == $w),
           "$e{what}: line records at $mark: " . (defined $r ? "Dr $r " : '') . (defined $w ? "Dw $w" : ''))
            or diag("  got $got");
    }
    return $o;
}

# { offset => [Dr, Dw] } for $n consecutive elements of $size bytes.
sub each_field {
    my ($n, $size, $r, $w) = @_;
    return { map { ($_ * $size => [$r, $w]) } 0 .. $n - 1 };
}

# ---------------------------------------------------------------------------
# Checks of the fixtures (by name; $d parsed, $run ours)

sub check_heap {
    my ($d, $run, %o) = @_;
    my $stride = $o{stride};
    my $c1 = $o{callers} && $o{callers} == 1;
    expect($d, 'heap.c', what => 'malloc in main (site-a)', kind => 'heap',
           site => [['site-a', 'main']], rw => [1024, 512], blocks => 1, bytes => 4096,
           element => $stride // 8,
           fields => $stride ? { 0 => [512, 256], 8 => [512, 256] } : { 0 => [1024, 512] },
           only_fields => 1,
           lines => { 'a-write' => [0, 512], 'a-read' => [1024, 0] });
    if ($c1) {
        # One frame: both helper blocks have the same site.
        expect($d, 'heap.c', what => 'the helper, one frame: both blocks', kind => 'heap',
               site => [['helper-malloc', 'helper_alloc']], rw => [137, 61],
               blocks => 2, bytes => 296);
    } else {
        expect($d, 'heap.c', what => 'helper_alloc from helper-call-1', kind => 'heap',
               site => [['helper-malloc', 'helper_alloc'], ['helper-call-1', 'main']],
               rw => [12, 36], blocks => 1, bytes => 96, element => $stride // 96,
               fields => $stride ? { 0 => [6, 18], 8 => [6, 18] } : each_field(12, 8, 1, 3),
               only_fields => 1,
               lines => { 'b-write' => [0, 36], 'b-read' => [12, 0] });
        expect($d, 'heap.c', what => 'helper_alloc from helper-call-2', kind => 'heap',
               site => [['helper-malloc', 'helper_alloc'], ['helper-call-2', 'main']],
               rw => [125, 25], blocks => 1, bytes => 200, element => $stride // 200,
               $stride ? () : (fields => each_field(25, 8, 5, 1), only_fields => 1),
               lines => { 'c-write' => [0, 25], 'c-read' => [125, 0] });
    }
    expect($d, 'heap.c', what => 'global garray', kind => 'global', name => 'garray',
           objfile => $run->{cmd}[0], rw => [3000, 1000], blocks => 1, bytes => 4000,
           element => $stride // 4,
           fields => $stride ? { map { ($_ => [750, 250]) } 0, 4, 8, 12 } : { 0 => [3000, 1000] },
           only_fields => 1);
    expect($d, 'heap.c', what => "main's stack array", kind => 'stack', name => 'thread 1',
           lines => { 's-write' => [undef, 256] });
    if ($stride) {
        my @other = grep { $_->{blocks}[2] != 0 && $_->{blocks}[2] != $stride } @{ $d->{objects} };
        ok(!@other, "every object with fields has the element size $stride")
            or diag('  ' . join("\n  ", map { obj_str($_) . " element $_->{blocks}[2]" } @other));
    }
    if ($o{callers}) {
        my @long = grep { @{ $_->{site} } > $o{callers} } @{ $d->{objects} };
        my ($a) = grep { site_matches($_, [['site-a']], 'heap.c') } @{ $d->{objects} };
        ok(!@long && $a && @{ $a->{site} } == $o{callers},
           "sites have $o{callers} frame(s) at most, main's malloc exactly $o{callers}")
            or diag('  ' . join("\n  ", map { obj_str($_) } @long, $a // ()));
    }
    return;
}

sub check_list {
    my ($d, $run) = @_;
    my ($nodes, $passes) = (4096, 8);
    my $sum = $nodes * ($nodes - 1) / 2;
    like($run->{stdout}, qr/^list @{[ $passes * $nodes ]} $sum$/m, 'the list fixture ran');
    my $o = expect($d, 'list.c', what => 'the list nodes', kind => 'heap',
                   site => [['node-malloc', 'new_node'], ['node-call', 'main']],
                   rw => [($passes + 2) * $nodes, 2 * $nodes],
                   blocks => $nodes, bytes => 64 * $nodes, element => 64,
                   fields => { 0 => [$nodes, $nodes], 8 => [($passes + 1) * $nodes, $nodes] },
                   only_fields => 1,
                   lines => { 'key-write' => [0, $nodes], 'next-write' => [0, $nodes],
                              'next-read' => [$passes * $nodes, 0], 'key-read' => [$nodes, 0],
                              'next-read-2' => [$nodes, 0] });
    return unless $o && defined ev_index($d, 'D1mr');
    my $next_miss = ev($d, $o->{fields}{8} || [], 'D1mr') // 0;
    my $key_miss  = ev($d, $o->{fields}{0} || [], 'D1mr') // 0;
    {
        ok($next_miss >= 0.9 * ($passes + 1) * $nodes,
           "next (offset 8) misses in D1 on (almost) every read: D1mr $next_miss of "
           . ($passes + 1) * $nodes);
        is($key_miss, 0, 'key (offset 0), read right after next, never misses: D1mr 0');
    }
    my @ranked = sort { ev($d, $b->{counts}, 'D1mr') <=> ev($d, $a->{counts}, 'D1mr') }
                 @{ $d->{objects} };
    ok($ranked[0] == $o, 'ranked by D1mr, the list nodes come first')
        or diag('  top: ' . join("\n    ", map { obj_str($_) } @ranked[0 .. 2]));
    return;
}

sub check_realloc {
    my ($d, $run) = @_;
    like($run->{stdout}, qr/^realloc moved$/m, 'the fixture: realloc moved the block');
    like($run->{stdout}, qr/^reuse same address$/m, 'the fixture: the freed address was reused');
    my $old = expect($d, 'realloc.c', what => 'the block before realloc (old-malloc)', kind => 'heap',
                     site => [['old-malloc', 'main']], rw => [256, 128],
                     blocks => 1, bytes => 1024,
                     lines => { 'old-write' => [0, 128], 'old-read' => [256, 0] });
    if ($old) {
        my $path = File::Spec->catfile($SRC, 'realloc.c');
        my @foreign = grep { $_->{file} ne $path } @{ $old->{lines} };
        ok(!@foreign, 'the old block: no access from outside the program (realloc\'s copy is other)')
            or diag('  ' . join("\n  ", map { "$_->{file}:$_->{line} $_->{fn}: " . rw($d, $_->{counts}) }
                                         @foreign[0 .. ($#foreign < 5 ? $#foreign : 5)]));
    }
    expect($d, 'realloc.c', what => 'the block realloc returned (realloc-site)', kind => 'heap',
           site => [['realloc-site', 'main']], rw => [3 * 8192, 8192], blocks => 1, bytes => 65536,
           element => 8, fields => { 0 => [3 * 8192, 8192] }, only_fields => 1);
    expect($d, 'realloc.c', what => 'the freed block (reuse-a)', kind => 'heap',
           site => [['reuse-a', 'main']], rw => [0, 50], blocks => 1, bytes => 200,
           element => 200, fields => each_field(25, 8, 0, 2), only_fields => 1);
    expect($d, 'realloc.c', what => 'the block at the same address (reuse-b)', kind => 'heap',
           site => [['reuse-b', 'main']], rw => [100, 25], blocks => 1, bytes => 200,
           element => 200, fields => each_field(25, 8, 4, 1), only_fields => 1);
    expect($d, 'realloc.c', what => '40 blocks of one site (loop-site)', kind => 'heap',
           site => [['loop-site', 'main']], rw => [0, 240], blocks => 40, bytes => 40 * 48,
           element => 48, fields => each_field(6, 8, 0, 40), only_fields => 1);
    return;
}

sub check_allocfns {
    my ($d, $run) = @_;
    like($run->{stdout}, qr/^calloc zeroed: yes$/m, 'the fixture: calloc cleared its block');
    like($run->{stdout}, qr/^aligned: 0 0 0 0$/m, 'the fixture: the aligned blocks are aligned');
    if ($run->{stdout} !~ /^calloc reused a dirty chunk$/m) {
        note('calloc got fresh memory here, so its clearing was not exercised');
    }
    expect($d, 'allocfns.c', what => '8 dirty blocks (dirty-site)', kind => 'heap',
           site => [['dirty-site', 'main']], rw => [0, 256], blocks => 8, bytes => 2048,
           element => 8, fields => { 0 => [0, 256] }, only_fields => 1);
    my @simple = (['calloc', 'calloc-site', 32, 7, 256],
                  ['memalign', 'memalign-site', 0, 11, 512],
                  ['aligned_alloc', 'aligned-alloc-site', 0, 13, 512],
                  ['posix_memalign', 'posix-memalign-site', 0, 17, 512],
                  ['valloc', 'valloc-site', 0, 19, 4096],
                  ['reallocarray', 'reallocarray-site', 0, 23, 320]);
    for my $s (@simple) {
        my ($fn, $mark, $r, $w, $bytes) = @$s;
        expect($d, 'allocfns.c', what => "$fn ($mark)", kind => 'heap', site => [[$mark, 'main']],
               rw => [$r, $w], blocks => 1, bytes => $bytes);
    }
    expect($d, 'allocfns.c', what => 'anonymous mmap (mmap-site)', kind => 'mmap',
           site => [['mmap-site', 'main']], rw => [31, 29], blocks => 1, bytes => 65536,
           element => 2048, fields => { 0 => [31, 29] }, only_fields => 1);
    return;
}

sub check_threads {
    my ($d, $run) = @_;
    like($run->{stdout}, qr/^threads done$/m, 'the threads fixture ran');
    my %w = (1 => 3, 2 => 5, 3 => 7);
    for my $k (1 .. 3) {
        expect($d, 'threads.c', what => "worker$k\'s blocks", kind => 'heap',
               site => [["worker$k-malloc", "worker$k"]], rw => [0, 300 * $w{$k}],
               blocks => 300, bytes => 300 * 64, element => 64,
               fields => each_field($w{$k}, 8, 0, 300), only_fields => 1);
        my $t = $k + 1;
        my $s = expect($d, 'threads.c', what => "worker$k\'s stack", kind => 'stack',
                       name => "thread $t", lines => { 'stack-write' => [undef, 32] });
        ok($s && grep({ $_->{fn} eq "worker$k" } @{ $s->{lines} }),
           "thread $t is worker$k\'s thread (its stack has worker$k\'s lines)");
    }
    my ($main) = grep { $_->{kind} eq 'stack' && $_->{name} eq 'thread 1' } @{ $d->{objects} };
    ok($main && !grep({ $_->{fn} =~ /^worker|^stack_work$/ } @{ $main->{lines} }),
       "no worker's stack access is in thread 1");
    return;
}

sub check_newdel {
    my ($d, $run) = @_;
    like($run->{stdout}, qr/^newdel 100 89700$/m, 'the C++ fixture ran');
    expect($d, 'newdel.cc', what => 'new Node in make_node', kind => 'heap',
           site => [['new-node', qr/^make_node\b/], ['make-call', 'main']],
           rw => [100, 200], blocks => 100, bytes => 6400, element => 64,
           fields => { 0 => [0, 100], 8 => [100, 100] }, only_fields => 1,
           lines => { 'key-write' => [0, 100], 'next-write' => [0, 100], 'next-read' => [100, 0] });
    expect($d, 'newdel.cc', what => 'new long[300] in main', kind => 'heap',
           site => [['new-array', 'main']], rw => [600, 300], blocks => 1, bytes => 2400,
           element => 8, fields => { 0 => [600, 300] }, only_fields => 1);
    return;
}

sub check_sites {
    my ($d, $run) = @_;
    my $n = 128;
    like($run->{stdout}, qr/^sites $n 0$/m, 'the sites fixture ran');
    my $path = File::Spec->catfile($SRC, 'sites.c');
    my @objs = grep { $_->{kind} eq 'heap' && site_matches($_, [['sites', 'make'], ['make-call', 'main']], 'sites.c') }
               @{ $d->{objects} };
    my $blocks = 0;
    $blocks += $_->{blocks}[0] for @objs;
    is($blocks, 2 * $n, "$n sites x 2 blocks, all at the sites line");
    is(rw($d, vsum(scalar @{ $d->{events} }, map { $_->{counts} } @objs)), 'Dr 0 Dw ' . 2 * $n,
       'their accesses: Dr 0, Dw ' . 2 * $n);
    is(scalar @objs, $n, "$n objects, one per malloc call");
    my @split = grep { $_->{blocks}[0] != 2 || rw($d, $_->{counts}) ne 'Dr 0 Dw 2' } @objs;
    ok(!@split, 'each has both blocks of its site: blocks 2, Dr 0 Dw 2')
        or diag('  ' . scalar(@split) . ' do not: ' . join(', ', map { "blocks $_->{blocks}[0] " . rw($d, $_->{counts}) }
                                                             @split[0 .. ($#split < 5 ? $#split : 5)]));
    return;
}

my %CHECK = (sites => \&check_sites, heap => \&check_heap, list => \&check_list, realloc => \&check_realloc,
             allocfns => \&check_allocfns, threads => \&check_threads, newdel => \&check_newdel);

# ---------------------------------------------------------------------------
# The cases

my @cases;
my $next_id = 0;

# A pair: the reference with @common, ours with @common and the data
# options (the data file named by its case id, in $DATA_DIR).
sub pair_case {
    my (%c) = @_;
    my $id = 'c' . $next_id++;
    my @data = ('--data-profile=yes', @{ $c{data_opts} || [] },
                "--data-out-file=$DATA_DIR/$id.%p");
    push @cases, {
        %c, id => $id, kind => 'pair',
        label => $c{label} // case_label($c{name}, [@{ $c{opts} }, @{ $c{data_opts} || [] }]),
        run => { ours_opts => \@data, %{ $c{run} || {} } },
    };
    return;
}

my @OPTS = (@CACHES);
for my $opt (qw(O0 O2)) {
    for my $name (qw(heap list realloc allocfns threads newdel)) {
        my $variant = "$name-$opt";
        if (!$bin{$variant}) {
            push @cases, { label => "data $variant", skip => "no C++ compiler ($CXX)" };
            next;
        }
        # Which thread runs when decides the cache state: threads.c passes
        # a token round so that the order is fixed, but a new thread's
        # start-up is still left to chance (as for progs/threads.c in
        # diff-progs.t): one CPU and a few attempts.
        my $threads = $name eq 'threads';
        pair_case(name => "data $variant", fixture => $name, opts => [@OPTS],
                  cmd => [ $bin{$variant} ],
                  $threads ? (run => { cpu => scalar(@cases), attempts => 6 }) : ());
    }
}
pair_case(name => 'data sites-O2', fixture => 'sites', opts => [@OPTS], cmd => [ $bin{'sites-O2'} ]);
# The x86 tool: the allocator's arguments are on the stack there (read
# by cg_alloc_enter), and its helpers take their arguments in registers
# by the regparm the IR gives.  Element sizes differ with 4-byte
# pointers, so only the file's structure, its totals and the main file.
{
    my $why32 = can_run_m32();   # undef: it can
    for my $name (qw(heap list realloc)) {
        if (defined $why32) {
            push @cases, { label => "data $name-m32", skip => $why32 };
            next;
        }
        my $c   = File::Spec->catfile($SRC, "$name.c");
        my $out = File::Spec->catfile($BIN, "$name-m32");
        my $b = eval { build_one($out, [$c, $SELF], $CC, '-g', '-O0', '-m32', $c) };
        if (!$b) {
            push @cases, { label => "data $name-m32", skip => "cannot build -m32: $@" };
            next;
        }
        pair_case(name => "data $name-m32", opts => [@OPTS], cmd => [ $b ]);
    }
}
# Options
pair_case(name => 'data heap-O2', fixture => 'heap', opts => [@OPTS],
          data_opts => ['--data-stride=16'], cmd => [ $bin{'heap-O2'} ], stride => 16);
pair_case(name => 'data heap-O0', fixture => 'heap', opts => [@OPTS],
          data_opts => ['--data-callers=1'], cmd => [ $bin{'heap-O0'} ], callers => 1);
pair_case(name => 'data heap-O2', fixture => 'heap', opts => [@OPTS],
          data_opts => ['--data-callers=2'], cmd => [ $bin{'heap-O2'} ], callers => 2);

# Ours alone: file names and option values.
push @cases, { kind => 'ours', label => 'data --data-out-file=dp.%p.txt (relative, %p)',
               opts => ['--data-profile=yes', '--data-out-file=dp.%p.txt'],
               cmd => [ $bin{'heap-O0'} ], check => 'pidname' };
# The client moves to /: relative default names still land where it started.
push @cases, { kind => 'ours', label => 'data chdir-O0 default file names',
               opts => ['--data-profile=yes'], cmd => [ $progs->{'chdir-O0'} ],
               run => { default_out => 1 }, check => 'default' };
# The data profile counts the cache simulation's accesses and misses:
# without it, an error naming the option it needs.
for my $bad ('--data-callers=0', '--data-stride=0', '--data-callers=x', '--data-stride=-8',
             '--cache-sim=no') {
    push @cases, { kind => 'ours', label => "data bad value $bad", check => 'bad',
                   opts => ['--data-profile=yes', $bad], cmd => [ $bin{'heap-O0'} ], bad => $bad };
}

# The differential suite, with the data profile given to ours only.
# Every program is kept: segv's data file is written at the fatal
# signal like its main file, exec's pre-exec image writes neither,
# forker's two processes write one of each; threads needs one CPU and
# attempts like in diff-progs.t.
my %FILES  = (forker => 2, exec => 0);
my %STATUS = (segv => 'signal 11');
for my $variant (sort keys %$progs) {
    next if $variant =~ /\.so$/;
    (my $base = $variant) =~ s/-O[0-9s]$//;
    my @cmd = ($progs->{$variant});
    push @cmd, $progs->{'libhot.so'}, $progs->{'libhot2.so'} if $base eq 'dlopen_main';
    push @cmd, $progs->{'libswap1.so'}, $progs->{'libswap2.so'} if $base eq 'dlswap';
    pair_case(name => "progs $variant", opts => [], cmd => \@cmd, progs => 1, base => $base,
              files => $FILES{$base} // 1,
              $base eq 'threads' ? (run => { cpu => scalar(@cases), attempts => 6 }) : ());
}

# One program, run by ours in each way the data profile can run, must
# give the same data file to the byte (but its pid): twice with the
# access log and the simulator thread (the default: classification in
# the program's thread, counting in the simulator's, whose timing must
# not show), the log simulated in the program's thread
# (--sim-thread=no), and no log at all (--interval-size: each access
# classified, simulated and counted at once).  dlswap and dlopen_main
# discard translations, whose sites are freed and reused.
my @PATHS = ([], [], ['--sim-thread=no'], ['--interval-size=100k']);
for my $variant (qw(heap-O0 list-O2 realloc-O0 allocfns-O2 newdel-O2 sites-O2)) {
    if (!$bin{$variant}) {
        push @cases, { label => "data paths $variant", skip => "no C++ compiler ($CXX)" };
        next;
    }
    push @cases, { kind => 'paths', label => "data paths $variant", cmd => [ $bin{$variant} ] };
}
for my $variant (qw(dlswap-O2 dlopen_main-O2)) {
    (my $base = $variant) =~ s/-O2$//;
    my @cmd = ($progs->{$variant});
    push @cmd, $progs->{'libhot.so'}, $progs->{'libhot2.so'} if $base eq 'dlopen_main';
    push @cmd, $progs->{'libswap1.so'}, $progs->{'libswap2.so'} if $base eq 'dlswap';
    push @cases, { kind => 'paths', label => "data paths progs $variant", cmd => \@cmd };
}

# ---------------------------------------------------------------------------
# Running them

my $worker = sub {
    my ($c) = @_;
    return run_pair($c->{opts}, $c->{cmd}, %{ $c->{run} || {} }) if $c->{kind} eq 'pair';
    return { paths => [ map { run_ours([@CACHES, '--data-profile=yes', '--data-out-file=dp.%p.txt', @$_],
                                       $c->{cmd}) } @PATHS ] }
        if $c->{kind} eq 'paths';
    return { ours => run_ours($c->{opts}, $c->{cmd}, %{ $c->{run} || {} }) };
};

my ($n_data, $identical) = (0, 0);

sub check_pair {
    my ($c, $r) = @_;
    my ($ref, $ours) = ($r->{ref}, $r->{ours});
    note("$c->{label}: matched on attempt $r->{attempts}") if $r->{attempts} > 1 && $r->{matched};
    my $same = compare_runs($ref, $ours, $c->{label}, expect_files => $c->{files} // 1);
    $identical++ if $same;
    is(status_str($ref->{status}), $STATUS{ $c->{base} } // 'exit 0', 'reference exit status')
        if $c->{progs};

    my @mains = @{ $ours->{files} };
    my @datas = glob("$DATA_DIR/$c->{id}.*");
    # exec: the image that execs writes neither file.
    is(scalar @datas, 0, 'no data file either') if !@mains && $r->{attempts} == 1;
    # The data files of the run kept (attempts may have made others).
    my %by_pid = map { /\.(\d+)$/ ? ($1 => $_) : () } @datas;
    is(scalar(grep { defined $_->{pid} && $by_pid{ $_->{pid} } } @mains), scalar(@mains),
       'one data file beside each main file (same pid)')
        or diag("  main: @{[ map { $_->{name} } @mains ]}; data: @{[ map { basename($_) } @datas ]}");
    for my $m (@mains) {
        my $path = defined $m->{pid} ? $by_pid{ $m->{pid} } : undef;
        next unless $path;
        my $text = slurp($path);
        my $d = parse_data($text);
        $n_data++;
        subtest "data file of pid $m->{pid}" => sub {
            check_data_file($d, $m->{content}, events => $c->{events} // \@FULL,
                            pid => $m->{pid}, callers => $c->{callers} // 4,
                            element => $c->{stride} // 'auto');
        };
        if ($c->{fixture} && $m == $mains[0]) {
            subtest "$c->{fixture}: the objects known by construction" => sub {
                $CHECK{ $c->{fixture} }->($d, $ours, stride => $c->{stride}, callers => $c->{callers});
            } or keep_evidence("$c->{label} data",
                               { which => 'ours', stdout => $ours->{stdout}, stderr => $ours->{stderr},
                                 files => [ { name => basename($path), content => $text } ] });
        }
    }
    return;
}

sub check_paths {
    my ($c, $r) = @_;
    my @texts;
    for my $i (0 .. $#PATHS) {
        my $o = $r->{paths}[$i];
        my $how = @{ $PATHS[$i] } ? "@{ $PATHS[$i] }" : 'default';
        is($o->{exit_code}, 0, "$how: exit status 0") or diag("  stderr: $o->{stderr}");
        my ($data) = grep { $_->{name} =~ /^dp\.\d+\.txt$/ } @{ $o->{files} };
        ok($data, "$how: a data file") or return;
        (my $text = $data->{content}) =~ s/^pid: \d+\n//m;
        push @texts, $text;
        $n_data++;
    }
    for my $i (1 .. $#PATHS) {
        my $how = @{ $PATHS[$i] } ? "@{ $PATHS[$i] }" : 'default, again';
        ok($texts[$i] eq $texts[0], "$how: the same data file as the default run")
            or keep_evidence("$c->{label} $how",
                             { which => 'ours', stdout => '', stderr => '',
                               files => [ { name => 'default', content => $texts[0] },
                                          { name => 'other', content => $texts[$i] } ] });
    }
    return;
}

sub check_ours {
    my ($c, $r) = @_;
    my $o = $r->{ours};
    check_banner($o, $c->{label}, 'ours') unless $c->{check} eq 'bad';
    if ($c->{check} eq 'bad') {
        (my $opt = $c->{bad}) =~ s/=.*//;
        isnt($o->{status}, 0, "$c->{bad}: non-zero exit status");
        like($o->{stderr}, qr/\Q$opt\E/, "$c->{bad}: the message names $opt")
            or diag("  stderr: $o->{stderr}");
        is(scalar @{ $o->{files} }, 0, "$c->{bad}: no output file");
        return;
    }
    is($o->{exit_code}, 0, 'exit status 0') or diag("  stderr: $o->{stderr}");
    my ($main) = grep { $_->{name} =~ /^(?:cg|cachegrind)\.out\.\d+$/ } @{ $o->{files} };
    ok($main, 'the main file is written') or return;
    my $want = $c->{check} eq 'pidname' ? "dp.$main->{pid}.txt" : "cachegrind.data.$main->{pid}";
    my ($data) = grep { $_->{name} eq $want } @{ $o->{files} };
    ok($data, "the data file is $want (%p: the main file's pid $main->{pid})")
        or diag('  files: ' . join(' ', map { $_->{name} } @{ $o->{files} }));
    is(scalar @{ $o->{files} }, 2, 'no other file');
    if ($c->{check} eq 'default') {
        my $stray = "/cachegrind.data.$main->{pid}";
        ok(!-e $stray, 'nothing written where the client moved to (/)');
        unlink $stray;
    }
    return unless $data;
    my $d = parse_data($data->{content});
    $n_data++;
    check_data_file($d, $main->{content}, events => \@FULL, pid => $main->{pid});
    return;
}

my $n = run_cases(\@cases, sub {
    my ($c, $r) = @_;
    return check_pair($c, $r) if $c->{kind} eq 'pair';
    return check_paths($c, $r) if $c->{kind} eq 'paths';
    return check_ours($c, $r);
}, $worker);

my $pairs = grep { ($_->{kind} // '') eq 'pair' } @cases;
diag(sprintf('%d cases (%d compared with the reference, %d main files identical), '
             . '%d data files checked, %.0fs', $n, $pairs, $identical, $n_data, time - $T0));

# The help text lists the options.
my $help = run_ours(['--help'], ['/bin/true']);
like($help->{stdout}, qr/--data-profile=.*--data-out-file=.*--data-callers=.*--data-stride=/s,
     '--help lists the data profile options');

done_testing();
