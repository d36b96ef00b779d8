/* cg_output.c -- the cachegrind.out file.

   Owns: the output file name, the file's format, and writing it so
   that it appears complete or not at all (a temporary name in the same
   directory, renamed at the end).
   Must not: change any counter; the totals it returns are sums of
   what it wrote.

   Format (every line ends in '\n', no blank lines):
     desc: I1 cache:         <size> B, <line> B, <assoc>-way associative
     desc: D1 cache:         ...
     desc: LL cache:         ...
     cmd: <program> <arg>...
     events: <event names>
     fl=<file>      when the file changes
     fn=<function>  when the function changes, or after every fl=
     <line> <count>...
     summary: <total>...                                               */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"
#include "cg_tool.h"

const HChar* const cg_event_names[CG_N_EVENTS] = {
   "Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw",
   "Bc", "Bcm", "Bi", "Bim"
};

/*------------------------------------------------------------*/
/*--- A small buffered writer that remembers failures      ---*/
/*------------------------------------------------------------*/

#define WRITER_BUF_SIZE 65536

typedef struct {
   Int   fd;
   Bool  failed;
   Int   used;
   HChar buf[WRITER_BUF_SIZE];
} Writer;

static void writer_flush(Writer* w)
{
   Int done = 0;

   while (!w->failed && done < w->used) {
      Int n = VG_(write)(w->fd, w->buf + done, w->used - done);
      if (n <= 0)
         w->failed = True;
      else
         done += n;
   }
   w->used = 0;
}

static void put_bytes(Writer* w, const HChar* s, SizeT len)
{
   while (len > 0) {
      SizeT room = WRITER_BUF_SIZE - w->used;
      SizeT chunk = len < room ? len : room;
      VG_(memcpy)(w->buf + w->used, s, chunk);
      w->used += chunk;
      s += chunk;
      len -= chunk;
      if (w->used == WRITER_BUF_SIZE)
         writer_flush(w);
   }
}

static void put_str(Writer* w, const HChar* s)
{
   put_bytes(w, s, VG_(strlen)(s));
}

/* Digits by hand: a large profile has hundreds of thousands of
   numbers, most of them 0, and VG_(sprintf) took about 35 ns each
   (two thirds of python's 17 ms of output writing). */
static void put_ulong(Writer* w, ULong n)
{
   HChar digits[20];
   Int at = sizeof digits;

   do {
      digits[--at] = (HChar)('0' + n % 10);
      n /= 10;
   } while (n != 0);
   put_bytes(w, digits + at, sizeof digits - at);
}

static void put_int(Writer* w, Int n)
{
   if (n < 0) {
      put_bytes(w, "-", 1);
      put_ulong(w, -(ULong)(Long)n);
   } else {
      put_ulong(w, (ULong)n);
   }
}

/*------------------------------------------------------------*/
/*--- Sections of the file                                 ---*/
/*------------------------------------------------------------*/

static void write_desc(Writer* w, const HChar* name, const CacheGeometry* g)
{
   put_str(w, "desc: ");
   put_str(w, name);
   put_str(w, " cache:         ");
   put_int(w, g->size);
   put_str(w, " B, ");
   put_int(w, g->line_size);
   put_str(w, " B, ");
   if (g->assoc == 1) {
      put_str(w, "direct-mapped\n");
   } else {
      put_int(w, g->assoc);
      put_str(w, "-way associative\n");
   }
}

/* The program and its arguments as given, unquoted. */
static void write_cmd(Writer* w)
{
   Word i, n = VG_(sizeXA)(VG_(args_for_client));

   put_str(w, "cmd: ");
   put_str(w, VG_(args_the_exename));
   for (i = 0; i < n; i++) {
      put_str(w, " ");
      put_str(w, *(HChar**)VG_(indexXA)(VG_(args_for_client), i));
   }
   put_str(w, "\n");
}

/* Which counters the file carries, in output order. */
Bool cg_output_event_selected(CgEvent ev)
{
   if (ev == EV_IR)
      return True;
   if (ev <= EV_LL_WRITE_MISS)
      return cg_clo.cache_sim;
   return cg_clo.branch_sim;
}

static void write_events(Writer* w)
{
   Int ev;

   put_str(w, "events:");
   for (ev = 0; ev < CG_N_EVENTS; ev++) {
      if (cg_output_event_selected(ev)) {
         put_str(w, " ");
         put_str(w, cg_event_names[ev]);
      }
   }
   /* The reference writes a trailing space after DLmw when the cache
      events end the line; readers rely on nothing else. */
   if (cg_clo.cache_sim && !cg_clo.branch_sim)
      put_str(w, " ");
   put_str(w, "\n");
}

static void write_counts(Writer* w, const ULong* count)
{
   Int ev;
   for (ev = 0; ev < CG_N_EVENTS; ev++) {
      if (cg_output_event_selected(ev)) {
         put_bytes(w, " ", 1);
         put_ulong(w, count[ev]);
      }
   }
   put_str(w, "\n");
}

static Bool all_zero(const ULong* count)
{
   Int ev;
   for (ev = 0; ev < CG_N_EVENTS; ev++)
      if (count[ev] != 0)
         return False;
   return True;
}

static void write_body(Writer* w, CgOutputResult* res)
{
   UInt n, i;
   CostCentre** all = cg_costs_sorted(&n);
   const HChar* file = NULL;
   const HChar* fn = NULL;
   Int ev;

   for (i = 0; i < n; i++) {
      const CostCentre* cc = all[i];
      Bool new_file = (file == NULL || cc->file != file);
      /* Code that ran only while nothing was collected would fill the
         file with zero lines; a full run never has any to skip. */
      if (cg_control_partial() && all_zero(cc->count))
         continue;
      if (new_file) {
         put_str(w, "fl=");
         put_str(w, cc->file);
         put_str(w, "\n");
         file = cc->file;
         res->n_files++;
      }
      if (new_file || cc->fn != fn) {
         put_str(w, "fn=");
         put_str(w, cc->fn);
         put_str(w, "\n");
         fn = cc->fn;
         res->n_fns++;
      }
      put_int(w, cc->line);
      write_counts(w, cc->count);
      res->n_lines++;
      for (ev = 0; ev < CG_N_EVENTS; ev++)
         res->total[ev] += cc->count[ev];
   }
   VG_(free)(all);
}

/*------------------------------------------------------------*/
/*--- Opening, writing, renaming                           ---*/
/*------------------------------------------------------------*/

/* Only a regular file (or a new one) is replaced by renaming: a device
   such as /dev/null must be written in place, never replaced, and so
   must a symbolic link (renaming would replace the link, not the file
   it names). */
static Bool may_replace_by_rename(const HChar* name)
{
   struct vg_stat st;
   HChar link_target[8];
   SysRes sr;

   if (VG_(readlink)(name, link_target, sizeof link_target) >= 0)
      return False;
   sr = VG_(stat)(name, &st);
   return sr_isError(sr) || VKI_S_ISREG(st.mode);
}

static Int open_for_writing(const HChar* name)
{
   SysRes sr = VG_(open)(name, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                         VKI_S_IRUSR | VKI_S_IWUSR);
   return sr_isError(sr) ? -1 : (Int)sr_Res(sr);
}

static void report_cannot_open(const HChar* name)
{
   VG_(umsg)("error: can't open cache simulation output file '%s'\n", name);
   VG_(umsg)("       ... so simulation results will be missing.\n");
}

void cg_output_write(const CacheGeometry* I1, const CacheGeometry* D1,
                     const CacheGeometry* LL, CgOutputResult* res)
{
   /* Expanded now, not at start-up: a forked child uses its own pid.
      A malformed name ends the run here, as it does in Cachegrind. */
   HChar* name = VG_(expand_file_name)("--cachegrind-out-file",
                                       cg_clo.out_file_format);
   HChar* temp = NULL;
   Writer* w;
   Int fd = -1;

   VG_(memset)(res, 0, sizeof *res);
   if (may_replace_by_rename(name)) {
      temp = VG_(malloc)("cg.output.temp", VG_(strlen)(name) + 32);
      VG_(sprintf)(temp, "%s.tmp.%d", name, VG_(getpid)());
      fd = open_for_writing(temp);
      if (fd < 0) {
         VG_(free)(temp);
         temp = NULL;
      }
   }
   if (fd < 0)
      fd = open_for_writing(name);
   if (fd < 0) {
      report_cannot_open(name);
      VG_(free)(name);
      return;
   }

   w = VG_(malloc)("cg.output.writer", sizeof(Writer));
   w->fd = fd;
   w->failed = False;
   w->used = 0;
   write_desc(w, "I1", I1);
   write_desc(w, "D1", D1);
   write_desc(w, "LL", LL);
   write_cmd(w);
   write_events(w);
   write_body(w, res);
   put_str(w, "summary:");
   write_counts(w, res->total);
   writer_flush(w);
   VG_(close)(fd);
   res->written = True;

   if (w->failed) {
      /* Only our own temporary file is removed: a name written in
         place may be a device or a link that is not ours to delete. */
      if (temp != NULL) {
         VG_(umsg)("error: writing '%s' failed (disk full?); "
                   "no output file was left.\n", name);
         VG_(unlink)(temp);
      } else {
         VG_(umsg)("error: writing '%s' failed (disk full?); "
                   "its contents are incomplete.\n", name);
      }
   } else if (temp != NULL && VG_(rename)(temp, name) != 0) {
      VG_(umsg)("error: can't rename '%s' to '%s'\n", temp, name);
      VG_(unlink)(temp);
   }
   VG_(free)(w);
   VG_(free)(temp);
   VG_(free)(name);
}
