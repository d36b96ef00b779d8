/* cg_data_file.c -- the data profile's file, cachegrind.data.<pid>
   (--data-out-file): written at exit from the records cg_data.c made.

   Owns: the file's format (below; documented in the manual, 10.5, and
   read by cg_annotate --data) and the order of what it writes.
   Must not: count or classify (cg_data.c does). */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"
#include "cg_data_file.h"
#include "cg_data.h"
#include "cg_data_records.h"
#include "cg_file.h"
#include "cg_options.h"
#include "cg_tool.h"

/* Format (documented in the manual and cg_annotate(1); fields after
   the keyword are separated by tabs, counts within one by spaces):
     # comment
     version: 1
     creator: cachegrind-ng <version>
     pid: <pid>
     cmd: <program> <arg>...
     events: Dr D1mr DLmr Dw D1mw DLmw     (Dr Dw without --cache-sim)
     element: auto | <n>                   (--data-stride)
   then per object, in order of creation:
     object<TAB><kind><TAB><name>          kind: heap mmap global stack other
     objfile<TAB><path>                    global: its ELF object
     site<TAB><file><TAB><fn><TAB><line>   heap, mmap: innermost first
     blocks<TAB><n><TAB><bytes><TAB><element size, 0: none>
     counts<TAB><counts>                   the sum of its lines
     line<TAB><file><TAB><fn><TAB><line><TAB><counts>
     field<TAB><offset><TAB><counts>
   and last:
     totals<TAB><counts>                   every access: the summary's */

static const HChar* const kind_names[DATA_N_KINDS] = {
   "heap", "mmap", "global", "stack", "other"
};

static const HChar* const data_event_names[N_DATA_COUNTS] = {
   "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw"
};

static Bool count_written(UInt k)
{
   return cg_clo.cache_sim || k == READ_BASE || k == WRITE_BASE;
}

static void put_counts(CgFile* f, const ULong* count)
{
   UInt k;
   Bool first = True;

   for (k = 0; k < N_DATA_COUNTS; k++) {
      if (!count_written(k))
         continue;
      if (!first)
         cg_file_put_str(f, " ");
      cg_file_put_ulong(f, count[k]);
      first = False;
   }
   cg_file_put_str(f, "\n");
}

static Bool all_zero(const ULong* count)
{
   UInt k;

   for (k = 0; k < N_DATA_COUNTS; k++)
      if (count[k] != 0)
         return False;
   return True;
}

static void write_header(CgFile* f)
{
   UInt k;

   cg_file_put_str(f, "# cachegrind-ng data profile: cg_annotate --data "
                   "reads it\nversion: 1\ncreator: cachegrind-ng "
                   CG_PACKAGE_VERSION "\n");
   cg_file_printf(f, "pid: %d\n", VG_(getpid)());
   cg_file_put_command(f);
   cg_file_put_str(f, "events:");
   for (k = 0; k < N_DATA_COUNTS; k++)
      if (count_written(k))
         cg_file_printf(f, " %s", data_event_names[k]);
   if (cg_clo.data_stride > 0)
      cg_file_printf(f, "\nelement: %lld\n", cg_clo.data_stride);
   else
      cg_file_put_str(f, "\nelement: auto\n");
}

static const HChar* object_name(const DataObject* o, HChar* buf, SizeT n)
{
   if (o->name != NULL)
      return o->name;
   if (o->n_frames == 0)
      return "(no stack)";
   VG_(snprintf)(buf, n, "%s (%s:%d)", o->site[0].fn, o->site[0].file,
                 o->site[0].line);
   return buf;
}

static void write_object(CgFile* f, const DataObject* o, LineRec** lines,
                         UInt n_lines)
{
   HChar name[512];
   ULong total[N_DATA_COUNTS];
   const FieldRec* fr;
   UInt i, k;

   VG_(memset)(total, 0, sizeof total);
   for (i = 0; i < n_lines; i++)
      for (k = 0; k < N_DATA_COUNTS; k++)
         total[k] += lines[i]->count[k];
   cg_file_printf(f, "object\t%s\t%s\n", kind_names[o->kind],
                  object_name(o, name, sizeof name));
   if (o->objfile != NULL)
      cg_file_printf(f, "objfile\t%s\n", o->objfile);
   for (i = 0; i < o->n_frames; i++)
      cg_file_printf(f, "site\t%s\t%s\t%d\n", o->site[i].file,
                     o->site[i].fn, o->site[i].line);
   cg_file_printf(f, "blocks\t%llu\t%llu\t%lu\n", o->blocks, o->bytes,
                  o->has_fields ? o->stride : 0UL);
   cg_file_put_str(f, "counts\t");
   put_counts(f, total);
   for (i = 0; i < n_lines; i++) {
      const CostCentre* cc = lines[i]->cc;
      cg_file_printf(f, "line\t%s\t%s\t%d\t", cc->file, cc->fn, cc->line);
      put_counts(f, lines[i]->count);
   }
   for (fr = o->fields; fr != NULL; fr = fr->next_of_object) {
      if (all_zero(fr->count))
         continue;
      cg_file_printf(f, "field\t%lu\t", fr->offset);
      put_counts(f, fr->count);
   }
}

static Int line_order(const void* a, const void* b)
{
   return cg_costs_order((*(LineRec* const*)a)->cc,
                         (*(LineRec* const*)b)->cc);
}

/* Lines grouped by object (a count per object, then one pass), each
   object's in the main file's order of cost centres: the tables' order
   depends on addresses, which need not be the same from run to run. */
typedef struct {
   UInt*     n_of;      /* lines per object id */
   UInt*     at;        /* next free slot per object id */
   LineRec** sorted;
   ULong*    totals;
   Bool      placing;   /* second pass */
} Grouping;

static void group_line(LineRec* l, void* arg)
{
   Grouping* g = arg;
   UInt k;

   if (!g->placing) {
      g->n_of[l->obj->id]++;
      return;
   }
   g->sorted[g->at[l->obj->id]++] = l;
   for (k = 0; k < N_DATA_COUNTS; k++)
      g->totals[k] += l->count[k];
}

static void write_objects(CgFile* f, ULong* totals)
{
   UInt n_objects;
   DataObject* o = cg_data_objects(&n_objects);
   const DataObject* other = cg_data_other_object();
   DataObject** by_id = VG_(calloc)("cg.data.out", n_objects + 1,
                                    sizeof(DataObject*));
   Grouping g;
   UInt i;

   g.n_of = VG_(calloc)("cg.data.out", n_objects + 1, sizeof(UInt));
   g.at = VG_(calloc)("cg.data.out", n_objects + 1, sizeof(UInt));
   g.sorted = VG_(malloc)("cg.data.out",
                          (cg_data_n_lines() + 1) * sizeof(LineRec*));
   g.totals = totals;
   g.placing = False;
   cg_data_for_each_line(group_line, &g);
   for (i = 1; i <= n_objects; i++)
      g.at[i] = g.at[i - 1] + g.n_of[i - 1];
   g.placing = True;
   cg_data_for_each_line(group_line, &g);
   for (; o != NULL; o = o->next_created)
      by_id[o->id] = o;
   for (i = 0; i < n_objects; i++) {
      LineRec** first = g.sorted + g.at[i] - g.n_of[i];
      o = by_id[i];
      /* Objects never touched are left out (a site's blocks all
         unused, say); `other` is always there. */
      if (g.n_of[i] == 0 && o != other)
         continue;
      VG_(ssort)(first, g.n_of[i], sizeof(LineRec*), line_order);
      write_object(f, o, first, g.n_of[i]);
   }
   VG_(free)(g.n_of);
   VG_(free)(g.at);
   VG_(free)(g.sorted);
   VG_(free)(by_id);
}

void cg_data_file_expect(void)
{
   if (cg_data_enabled())
      cg_file_expect("--data-out-file", cg_clo.data_out_file, False);
}

void cg_data_file_write(void)
{
   ULong totals[N_DATA_COUNTS];
   CgFile* f;

   if (!cg_data_enabled())
      return;
   cg_data_finish();
   f = cg_file_open("--data-out-file", cg_clo.data_out_file, NULL,
                    VKI_S_IRUSR | VKI_S_IWUSR);
   if (!cg_file_opened(f)) {
      VG_(umsg)("error: cannot create the data profile file %s\n",
                cg_file_name(f));
      cg_file_forget(f);
      return;
   }
   VG_(memset)(totals, 0, sizeof totals);
   write_header(f);
   write_objects(f, totals);
   cg_file_put_str(f, "totals\t");
   put_counts(f, totals);
   cg_file_commit(f);
}
