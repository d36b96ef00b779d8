/* cg_output.c -- the cachegrind.out file.

   Owns: the file's format and what goes in it.  cg_file.c opens,
   writes and names it (complete or not at all).
   Must not: change any counter; the totals it returns are sums of
   what it wrote.

   Format (every line ends in '\n', no blank lines):
     desc: I1 cache:         <size> B, <line> B, <assoc>-way associative
     desc: D1 cache:         ...
     desc: L2 cache:         ...   (only with --L2)
     desc: LL cache:         ...   (built against 3.21 or later: only
                                     with --cache-sim=yes)
     desc: <I1|D1|L2|LL> policy:        <policy>[, seed <n>]  (not lru)
     desc: LL inclusion:     <inclusive|exclusive>   (not with nine)
     desc: <D1|L2|LL> prefetcher:    <name>         (not with none)
     desc: CPU:              <preset or host>       (only with --cpu)
     cmd: <program> <arg>...
     events: <event names>
     fl=<file>      when the file changes
     fn=<function>  when the function changes, or after every fl=
     <line> <count>...
     summary: <total>...                                               */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"
#include "cg_output.h"
#include "cg_control.h"
#include "cg_costs.h"
#include "cg_file.h"
#include "cg_options.h"
#include "cg_threads.h"
#include "cg_vgcompat.h"

const HChar* const cg_event_names[CG_N_EVENTS] = {
   "Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw",
   "Bc", "Bcm", "Bi", "Bim", "I2mr", "D2mr", "D2mw",
   "D1pf", "D1pfu", "L2pf", "L2pfu", "LLpf", "LLpfu",
   "ILdmr", "DLdmr", "DLdmw", "SpLoss1", "SpLoss2", "AcCost1", "AcCost2",
   "D1cm"
};

const CgEvent cg_event_output_order[CG_N_EVENTS] = {
   EV_IR, EV_I1_MISS, EV_I2_MISS, EV_LLI_MISS, EV_LL_DIRTY_FETCH_MISS,
   EV_DR, EV_D1_READ_MISS, EV_D2_READ_MISS, EV_LL_READ_MISS,
   EV_LL_DIRTY_READ_MISS,
   EV_DW, EV_D1_WRITE_MISS, EV_D2_WRITE_MISS, EV_LL_WRITE_MISS,
   EV_LL_DIRTY_WRITE_MISS,
   EV_D1_PF, EV_D1_PF_USEFUL, EV_L2_PF, EV_L2_PF_USEFUL,
   EV_LL_PF, EV_LL_PF_USEFUL,
   EV_BC, EV_BC_MISPRED, EV_BI, EV_BI_MISPRED,
   EV_L1_SPATIAL_LOSS, EV_LL_SPATIAL_LOSS, EV_L1_ACCESS_COST,
   EV_LL_ACCESS_COST, EV_D1_COHERENCE_MISS
};

/*------------------------------------------------------------*/
/*--- Sections of the file                                 ---*/
/*------------------------------------------------------------*/

/* Only for another policy than 3.19's: its files keep its three desc:
   lines. */
static void write_policy(CgFile* out, const HChar* level, const HChar* policy)
{
   if (VG_(strcmp)(policy, "lru") == 0)
      return;
   cg_file_put_str(out, "desc: ");
   cg_file_put_str(out, level);
   cg_file_put_str(out, " policy:        ");
   cg_file_put_str(out, policy);
   if (VG_(strcmp)(policy, "brrip") == 0 || VG_(strcmp)(policy, "random") == 0) {
      cg_file_put_str(out, ", seed ");
      cg_file_put_ulong(out, cg_clo.seed);
   }
   cg_file_put_str(out, "\n");
}

/* Only for a level that has one */
static void write_prefetcher(CgFile* out, const HChar* level,
                             const HChar* prefetcher)
{
   if (VG_(strcmp)(prefetcher, "none") == 0)
      return;
   cg_file_put_str(out, "desc: ");
   cg_file_put_str(out, level);
   cg_file_put_str(out, " prefetcher:    ");
   cg_file_put_str(out, prefetcher);
   cg_file_put_str(out, "\n");
}

static void write_desc(CgFile* out, const HChar* name, const CacheGeometry* g)
{
   cg_file_put_str(out, "desc: ");
   cg_file_put_str(out, name);
   cg_file_put_str(out, " cache:         ");
   cg_file_put_long(out, g->size);
   cg_file_put_str(out, " B, ");
   cg_file_put_long(out, g->line_size);
   cg_file_put_str(out, " B, ");
   if (g->assoc == 1) {
      cg_file_put_str(out, "direct-mapped\n");
   } else {
      cg_file_put_long(out, g->assoc);
      cg_file_put_str(out, "-way associative\n");
   }
}


/* Which counters the file carries. */
Bool cg_output_event_selected(CgEvent ev)
{
   if (ev == EV_IR)
      return True;
   if (ev <= EV_LL_WRITE_MISS)
      return cg_clo.cache_sim;
   if (!cg_clo.cache_sim && ev >= EV_I2_MISS)
      return False;
   switch (ev) {
   case EV_I2_MISS: case EV_D2_READ_MISS: case EV_D2_WRITE_MISS:
      return cg_clo.L2_given;
   case EV_D1_PF: case EV_D1_PF_USEFUL:
      return VG_(strcmp)(cg_clo.D1_prefetch, "none") != 0;
   case EV_L2_PF: case EV_L2_PF_USEFUL:
      return VG_(strcmp)(cg_clo.L2_prefetch, "none") != 0;
   case EV_LL_PF: case EV_LL_PF_USEFUL:
      return VG_(strcmp)(cg_clo.LL_prefetch, "none") != 0;
   case EV_LL_DIRTY_FETCH_MISS: case EV_LL_DIRTY_READ_MISS:
   case EV_LL_DIRTY_WRITE_MISS:
      return cg_clo.simulate_wb;
   case EV_L1_SPATIAL_LOSS: case EV_LL_SPATIAL_LOSS:
   case EV_L1_ACCESS_COST: case EV_LL_ACCESS_COST:
      return cg_clo.cacheuse;
   case EV_D1_COHERENCE_MISS:
      /* A program that never made a thread: the file is as without
         the option */
      return cg_clo.per_thread_caches && cg_threads_count() > 1;
   default:
      return cg_clo.branch_sim;
   }
}

static void write_events(CgFile* out)
{
   Int i;

   cg_file_put_str(out, "events:");
   for (i = 0; i < CG_N_EVENTS; i++) {
      CgEvent ev = cg_event_output_order[i];
      if (cg_output_event_selected(ev)) {
         cg_file_put_str(out, " ");
         cg_file_put_str(out, cg_event_names[ev]);
      }
   }
   /* The reference writes a trailing space after DLmw when the cache
      events end the line; readers rely on nothing else. */
   if (cg_clo.cache_sim && !cg_clo.branch_sim)
      cg_file_put_str(out, " ");
   cg_file_put_str(out, "\n");
}

static void write_counts(CgFile* out, const ULong* count)
{
   Int i;
   for (i = 0; i < CG_N_EVENTS; i++) {
      CgEvent ev = cg_event_output_order[i];
      if (cg_output_event_selected(ev)) {
         cg_file_put_bytes(out, " ", 1);
         cg_file_put_ulong(out, count[ev]);
      }
   }
   cg_file_put_str(out, "\n");
}

static Bool all_zero(const ULong* count)
{
   UInt ev, n = cg_costs_n_events();
   for (ev = 0; ev < n; ev++)
      if (count[ev] != 0)
         return False;
   return True;
}

static const ULong* own_counts(const CostCentre* cc, void* arg)
{
   return cc->count;
}

/* `counts_of` gives each cost centre's counts (its own, or one thread's
   share); `skip_zero`: lines with no count are left out */
static void write_body(CgFile* out, CgOutputResult* res,
                       CgCountsOf counts_of, void* arg, Bool skip_zero)
{
   UInt n, i;
   CostCentre** all = cg_costs_sorted(&n);
   const HChar* file = NULL;
   const HChar* fn = NULL;
   UInt ev, n_events = cg_costs_n_events();

   for (i = 0; i < n; i++) {
      const CostCentre* cc = all[i];
      const ULong* count = counts_of(cc, arg);
      Bool new_file = (file == NULL || cc->file != file);
      /* Code that ran only while nothing was collected would fill the
         file with zero lines; a full run never has any to skip. */
      if ((skip_zero || cg_control_partial()) && all_zero(count))
         continue;
      if (new_file) {
         cg_file_put_str(out, "fl=");
         cg_file_put_str(out, cc->file);
         cg_file_put_str(out, "\n");
         file = cc->file;
         res->n_files++;
      }
      if (new_file || cc->fn != fn) {
         cg_file_put_str(out, "fn=");
         cg_file_put_str(out, cc->fn);
         cg_file_put_str(out, "\n");
         fn = cc->fn;
         res->n_fns++;
      }
      cg_file_put_long(out, cc->line);
      write_counts(out, count);
      res->n_lines++;
      for (ev = 0; ev < n_events; ev++)
         res->total[ev] += count[ev];
   }
   VG_(free)(all);
}

/*------------------------------------------------------------*/
/*--- The whole file                                       ---*/
/*------------------------------------------------------------*/

static void report_cannot_open(const HChar* name)
{
   VG_(umsg)(CG_CANNOT_OPEN_OUTPUT_FMT, name);
}

void cg_output_expect_file(void)
{
   cg_file_expect("--cachegrind-out-file", cg_clo.out_file_format,
                  cg_clo.separate_threads);
}

static void write_file(const CacheGeometry* I1, const CacheGeometry* D1,
                       const CacheGeometry* L2, const CacheGeometry* LL,
                       const HChar* suffix, CgCountsOf counts_of, void* arg,
                       CgOutputResult* res)
{
   /* Named now, not at start-up: a forked child uses its own pid.  A
      malformed name ends the run here, as it does in Cachegrind. */
   CgFile* out = cg_file_open("--cachegrind-out-file",
                              cg_clo.out_file_format, suffix,
                              VKI_S_IRUSR | VKI_S_IWUSR);

   VG_(memset)(res, 0, sizeof *res);
   if (!cg_file_opened(out)) {
      report_cannot_open(cg_file_name(out));
      cg_file_forget(out);
      return;
   }
   if (cg_clo.cache_sim || !CG_CACHE_CONFIG_ONLY_IF_SIM) {
      write_desc(out, "I1", I1);
      write_desc(out, "D1", D1);
      if (L2 != NULL)
         write_desc(out, "L2", L2);
      write_desc(out, "LL", LL);
   }
   /* The models beyond 3.19's, only for a simulation that has them */
   if (cg_clo.cache_sim) {
      write_policy(out, "I1", cg_clo.I1_policy);
      write_policy(out, "D1", cg_clo.D1_policy);
      if (L2 != NULL)
         write_policy(out, "L2", cg_clo.L2_policy);
      write_policy(out, "LL", cg_clo.LL_policy);
      if (VG_(strcmp)(cg_clo.LL_inclusion, "nine") != 0) {
         cg_file_put_str(out, "desc: LL inclusion:     ");
         cg_file_put_str(out, cg_clo.LL_inclusion);
         cg_file_put_str(out, "\n");
      }
      write_prefetcher(out, "D1", cg_clo.D1_prefetch);
      write_prefetcher(out, "L2", cg_clo.L2_prefetch);
      write_prefetcher(out, "LL", cg_clo.LL_prefetch);
      if (cg_clo.cpu != NULL) {
         cg_file_put_str(out, "desc: CPU:              ");
         cg_file_put_str(out, cg_clo.cpu);
         cg_file_put_str(out, "\n");
      }
   }
   cg_file_put_command(out);
   write_events(out);
   write_body(out, res, counts_of, arg, suffix != NULL);
   cg_file_put_str(out, "summary:");
   write_counts(out, res->total);
   res->written = True;
   cg_file_commit(out);
}

void cg_output_write(const CacheGeometry* I1, const CacheGeometry* D1,
                     const CacheGeometry* L2, const CacheGeometry* LL,
                     CgOutputResult* res)
{
   write_file(I1, D1, L2, LL, NULL, own_counts, NULL, res);
}

void cg_output_write_part(const CacheGeometry* I1, const CacheGeometry* D1,
                          const CacheGeometry* L2, const CacheGeometry* LL,
                          const HChar* suffix, CgCountsOf counts_of,
                          void* arg, CgOutputResult* res)
{
   write_file(I1, D1, L2, LL, suffix, counts_of, arg, res);
}
