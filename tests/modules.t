#!/usr/bin/perl
# modules.t -- the tool's modules stay in layers: each module's
# interface is the header beside it, and no chain of includes leads
# back to where it started (scripts/module-graph).
use strict;
use warnings;
use FindBin;
use File::Temp qw(tempdir);
use Test::More;

my $top = "$FindBin::Bin/..";
my $graph_script = "$top/scripts/module-graph";
my $src = "$top/cachegrind";

sub graph_of {
    my ($dir) = @_;
    my $out = `'$graph_script' '$dir' 2>&1`;
    return ($? >> 8, $out);
}

my ($status, $out) = graph_of($src);
is($status, 0, 'the import graph of cachegrind/ has no cycle')
    or diag($out);
like($out, qr/^sim: .*\bcache\b/m, 'the graph lists the simulator on the cache level');
unlike($out, qr/^(config|log_entry|file|tool|vgcompat): (?!vgcompat$)\S/m,
       'the bottom layer (geometry, log entry format, file writer, events, Valgrind release differences) imports no module but vgcompat');
like($out, qr/^cache: config vgcompat$/m, 'a cache level knows only its geometry (and how to get memory)');

opendir(my $dh, $src) or die "$src: $!";
my @modules = sort map { /^(cg_\w+)\.c$/ ? $1 : () } readdir($dh);
closedir($dh);
for my $m (grep { $_ ne 'cg_main' } @modules) {
    ok(-f "$src/$m.h", "$m.c has its interface beside it, $m.h");
}

# The check itself: a cycle made on purpose is found and named.
my $tmp = tempdir(CLEANUP => 1);
for my $f (['cg_a.c', qq{#include "cg_a.h"\n#include "cg_b.h"\n}],
           ['cg_a.h', ''],
           ['cg_b.c', qq{#include "cg_b.h"\n}],
           ['cg_b.h', qq{#include "cg_c.h"\n}],
           ['cg_c.h', qq{#include "cg_a.h"\n}]) {
    open(my $fh, '>', "$tmp/$f->[0]") or die "$tmp/$f->[0]: $!";
    print $fh $f->[1];
    close($fh);
}
($status, $out) = graph_of($tmp);
is($status, 1, 'a cycle of includes fails the check');
like($out, qr/cycle: a -> b -> c -> a/, 'and the error names it');

done_testing();
