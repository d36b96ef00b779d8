/* cg_trace.c -- --trace-out-file: every simulated access, in order
   (cg_trace.h has the format and the reason).

   Owns: the trace file.
   Must not: change anything the simulation sees; compiled code calls
   cg_trace_access before an event's own instrumentation, which is as it
   is without the option. */

#include "pub_tool_basics.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_vki.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcproc.h"
#include "cg_trace.h"
#include "cg_costs.h"
#include "cg_file.h"
#include "cg_options.h"

static CgFile* out;

static void before_fork(ThreadId tid)
{
   if (out != NULL)
      cg_file_suspend(out);
}

static void after_fork_in_parent(ThreadId tid)
{
   if (out != NULL && !cg_file_resume(out)) {
      cg_file_commit(out);
      out = NULL;
   }
}

/* A child's accesses are not traced: the file is its parent's */
static void after_fork_in_child(ThreadId tid)
{
   if (out != NULL) {
      cg_file_forget(out);
      out = NULL;
   }
}

void cg_trace_init(void)
{
   if (cg_clo.trace_out_file == NULL)
      return;
   cg_file_expect("--trace-out-file", cg_clo.trace_out_file, False);
   out = cg_file_open("--trace-out-file", cg_clo.trace_out_file, NULL,
                      VKI_S_IRUSR | VKI_S_IWUSR);
   if (!cg_file_opened(out)) {
      VG_(umsg)("error: can't open access trace '%s' for writing\n",
                cg_file_name(out));
      VG_(exit)(1);
   }
   VG_(atfork)(before_fork, after_fork_in_parent, after_fork_in_child);
}

Bool cg_trace_enabled(void)
{
   return cg_clo.trace_out_file != NULL;
}

VG_REGPARM(3) void cg_trace_access(UWord kind_size, Addr addr, UWord cc)
{
   static const HChar* const prefix[] = { "I  ", " L ", " S ", " M " };
   UWord kind = kind_size >> 16;

   if (out == NULL)
      return;
   cg_file_put_str(out, prefix[kind]);
   cg_file_put_hex(out, addr);
   cg_file_put_str(out, ",");
   cg_file_put_ulong(out, kind_size & 0xFFFF);
   if (kind == CG_TRACE_FETCH) {
      cg_file_put_str(out, " ");
      cg_file_put_ulong(out, cc);
   }
   cg_file_put_str(out, "\n");
}

static void write_cost_centre(CostCentre* cc, void* arg)
{
   cg_file_printf(out, "C %u %d\t%s\t%s\n", cc->index, cc->line, cc->file,
                  cc->fn);
}

void cg_trace_fini(void)
{
   if (out == NULL)
      return;
   cg_costs_for_each(write_cost_centre, NULL);
   cg_file_commit(out);
   out = NULL;
}
