/* cg_sharing_file.c -- the sharing profile's file,
   cachegrind.sharing.<pid> (--sharing-out-file): written at exit from
   the lines cg_sharing.c reports.

   Owns: the file's format (below; the manual's section 10.6 and
   cg_annotate(1) document it; cg_annotate --sharing reads it).
   Must not: record or classify (cg_sharing.c does). */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"
#include "cg_sharing_file.h"
#include "cg_sharing.h"
#include "cg_file.h"
#include "cg_options.h"
#include "cg_tool.h"

/* Format (fields after the keyword separated by tabs):
     # comment
     version: 1
     creator: cachegrind-ng <version>
     pid: <pid>
     cmd: <program> <arg>...
     line-size: <bytes>
     granule: <bytes a mask bit covers>
     lines-touched: <n>
     lines-shared: <n>                   touched by two threads or more
   then per reported line, highest estimate first:
     line<TAB><0xaddress><TAB>false|true<TAB><estimate><TAB><moves>
     global<TAB><first>-<last><TAB><symbol><TAB><offset of first in it>
     object<TAB><kind><TAB><name><TAB><the line's offset in the block>
     site<TAB><file><TAB><fn><TAB><line>  the object's, innermost first
     thread<TAB><n><TAB><reads><TAB><writes><TAB><initial writer: 0|1>
           <TAB><bytes read><TAB><bytes written>
     early<TAB><reads><TAB><writes><TAB><last read's file><TAB><fn><TAB><line>
          <TAB><last write's file><TAB><fn><TAB><line>
     src<TAB><file><TAB><fn><TAB><line><TAB><reads><TAB><writes>
   (global and object when known; a thread's early and src records
   follow it: early for the line's first thread, its accesses before a
   second thread touched it and its last reading and writing
   instructions then (a file, function and line "-" when there was
   none); src its later ones, per source line, most accesses first;
   byte lists are ranges "0-7,16-23", or "-")
   and last:
     totals<TAB><lines><TAB><estimate><TAB><moves> */

static const HChar* const kind_names[DATA_N_KINDS] = {
   "heap", "mmap", "global", "stack", "other"
};

static void write_header(CgFile* f)
{
   cg_file_put_str(f, "# cachegrind-ng sharing profile: cg_annotate "
                   "--sharing reads it\nversion: 1\ncreator: cachegrind-ng "
                   CG_PACKAGE_VERSION "\n");
   cg_file_printf(f, "pid: %d\n", VG_(getpid)());
   cg_file_put_command(f);
   cg_file_printf(f, "line-size: %d\ngranule: %d\nlines-touched: %llu\n"
                  "lines-shared: %llu\n", cg_sharing_line_size(),
                  1 << cg_sharing_granule_bits(), cg_sharing_lines_touched(),
                  cg_sharing_lines_shared());
}

/* The bytes a mask covers, as ranges */
static void put_bytes(CgFile* f, ULong mask)
{
   Int g = cg_sharing_granule_bits(), bit = 0;
   Bool first = True;

   if (mask == 0) {
      cg_file_put_str(f, "-");
      return;
   }
   while (bit < 64) {
      Int end;
      if (!((mask >> bit) & 1)) {
         bit++;
         continue;
      }
      for (end = bit; end + 1 < 64 && ((mask >> (end + 1)) & 1); end++)
         ;
      cg_file_printf(f, "%s%d-%d", first ? "" : ",", bit << g,
                     ((end + 1) << g) - 1);
      first = False;
      bit = end + 1;
   }
}

/* The globals in the line's touched bytes, looked up now: a record per
   symbol with the bytes of it the threads touched (first to last) and
   the offset of the first in the symbol */
static void write_globals(CgFile* f, const SharedLine* line)
{
   Int g = cg_sharing_granule_bits(), bit, n_bits = cg_sharing_line_size() >> g;
   const SharingSide* side;
   ULong touched = 0;
   const HChar* run_name = NULL;
   PtrdiffT run_offset = 0;
   Int run_first = 0, run_last = 0;

   for (side = line->sides; side != NULL; side = side->next)
      touched |= side->read_bytes | side->write_bytes;
   for (bit = 0; bit <= n_bits; bit++) {
      const HChar* name = NULL;
      PtrdiffT offset = 0;
      if (bit < n_bits && ((touched >> bit) & 1)
          && !VG_(get_datasym_and_offset)(VG_(current_DiEpoch)(),
                                          line->addr + ((Addr)bit << g),
                                          &name, &offset))
         name = NULL;
      if (bit < n_bits && !((touched >> bit) & 1))
         continue;
      if (run_name != NULL
          && (name == NULL || VG_(strcmp)(name, run_name) != 0)) {
         cg_file_printf(f, "global\t%d-%d\t%s\t%ld\n", run_first << g,
                        ((run_last + 1) << g) - 1, run_name,
                        (Word)run_offset);
         VG_(free)((HChar*)run_name);
         run_name = NULL;
      }
      if (name != NULL) {
         if (run_name == NULL) {
            /* The name is the core's buffer: copied for the next look-up */
            run_name = VG_(strdup)("cg.sharing.name", name);
            run_offset = offset;
            run_first = bit;
         }
         run_last = bit;
      }
   }
}

static void write_holder(CgFile* f, const SharedLine* line)
{
   const DataObject* o = line->object;
   UInt k;

   write_globals(f, line);
   if (o == NULL)
      return;
   if (o->name != NULL)
      cg_file_printf(f, "object\t%s\t%s\t%lld\n", kind_names[o->kind],
                     o->name, line->object_offset);
   else if (o->n_frames > 0)
      cg_file_printf(f, "object\t%s\t%s (%s:%d)\t%lld\n",
                     kind_names[o->kind], o->site[0].fn, o->site[0].file,
                     o->site[0].line, line->object_offset);
   else
      cg_file_printf(f, "object\t%s\t(no stack)\t%lld\n",
                     kind_names[o->kind], line->object_offset);
   for (k = 0; k < o->n_frames; k++)
      cg_file_printf(f, "site\t%s\t%s\t%d\n", o->site[k].file,
                     o->site[k].fn, o->site[k].line);
}

static Int cmp_sources(const void* pa, const void* pb)
{
   const SharingSource* a = *(const SharingSource* const*)pa;
   const SharingSource* b = *(const SharingSource* const*)pb;
   ULong na = a->reads + a->writes, nb = b->reads + b->writes;

   if (na != nb)
      return na > nb ? -1 : 1;
   if (a->cc->index != b->cc->index)
      return a->cc->index < b->cc->index ? -1 : 1;
   return 0;
}

static void write_sources(CgFile* f, const SharingSide* side)
{
   const SharingSource* s;
   const SharingSource** sorted;
   UWord n = 0, i;

   for (s = side->sources; s != NULL; s = s->next)
      n++;
   if (n == 0)
      return;
   sorted = VG_(malloc)("cg.sharing.sorted", n * sizeof *sorted);
   n = 0;
   for (s = side->sources; s != NULL; s = s->next)
      sorted[n++] = s;
   VG_(ssort)(sorted, n, sizeof *sorted, cmp_sources);
   for (i = 0; i < n; i++)
      cg_file_printf(f, "src\t%s\t%s\t%d\t%llu\t%llu\n", sorted[i]->cc->file,
                     sorted[i]->cc->fn, sorted[i]->cc->line, sorted[i]->reads,
                     sorted[i]->writes);
   VG_(free)(sorted);
}

static void put_place(CgFile* f, const CostCentre* cc)
{
   if (cc == NULL)
      cg_file_put_str(f, "\t-\t-\t-");
   else
      cg_file_printf(f, "\t%s\t%s\t%d", cc->file, cc->fn, cc->line);
}

static void write_early(CgFile* f, const SharingSide* side)
{
   cg_file_printf(f, "early\t%llu\t%llu", side->early_reads,
                  side->early_writes);
   put_place(f, side->early_read_cc);
   put_place(f, side->early_write_cc);
   cg_file_put_str(f, "\n");
}

static void write_line(CgFile* f, const SharedLine* line)
{
   const SharingSide* side;

   cg_file_printf(f, "line\t0x%lx\t%s\t%llu\t%llu\n", (UWord)line->addr,
                  line->false_sharing ? "false" : "true", line->estimate,
                  line->moves);
   write_holder(f, line);
   for (side = line->sides; side != NULL; side = side->next) {
      cg_file_printf(f, "thread\t%u\t%llu\t%llu\t%d\t", side->tid,
                     side->reads, side->writes, side->initial ? 1 : 0);
      put_bytes(f, side->read_bytes);
      cg_file_put_str(f, "\t");
      put_bytes(f, side->write_bytes);
      cg_file_put_str(f, "\n");
      if (side->early_read_cc != NULL || side->early_write_cc != NULL)
         write_early(f, side);
      write_sources(f, side);
   }
}

void cg_sharing_file_expect(void)
{
   if (cg_sharing_enabled())
      cg_file_expect("--sharing-out-file", cg_clo.sharing_out_file, False);
}

void cg_sharing_file_write(void)
{
   SharedLine** lines;
   ULong estimate = 0, moves = 0;
   UWord n, i;
   CgFile* f;

   if (!cg_sharing_enabled())
      return;
   lines = cg_sharing_finish(&n);
   f = cg_file_open("--sharing-out-file", cg_clo.sharing_out_file, NULL,
                    VKI_S_IRUSR | VKI_S_IWUSR);
   if (!cg_file_opened(f)) {
      VG_(umsg)("error: cannot create the sharing profile file %s\n",
                cg_file_name(f));
      cg_file_forget(f);
      VG_(free)(lines);
      return;
   }
   write_header(f);
   for (i = 0; i < n; i++) {
      write_line(f, lines[i]);
      estimate += lines[i]->estimate;
      moves += lines[i]->moves;
   }
   cg_file_printf(f, "totals\t%lu\t%llu\t%llu\n", n, estimate, moves);
   cg_file_commit(f);
   VG_(free)(lines);
}
