/* cg_summary.c -- the end-of-run summary on stderr, and --stats.

   Owns: the layout of the summary (labels, column widths, rounding).
   The totals come from the output writer, so a file that could not be
   written gives an all-zero summary, as in the tool we match.
   Must not: compute anything the output file does not also show. */

#include "pub_tool_basics.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "cg_summary.h"
#include "cg_checkers.h"
#include "cg_costs.h"
#include "cg_data.h"
#include "cg_deliver.h"
#include "cg_hierarchy.h"
#include "cg_instrument.h"
#include "cg_log.h"
#include "cg_options.h"
#include "cg_sim.h"
#include "cg_tier.h"
#include "cg_tool.h"
#include "cg_vexpasses.h"
#include "cg_vgcompat.h"

/* Printed width of n with thousands separators. */
static Int grouped_width(ULong n)
{
   Int digits = 1;
   while (n >= 10) {
      n /= 10;
      digits++;
   }
   return digits + (digits - 1) / 3;
}

static ULong at_least_one(ULong n)
{
   return n == 0 ? 1 : n;
}

static Double percent(ULong part, ULong whole)
{
   return (Double)part * 100.0 / (Double)whole;
}

/* Column widths: total, read (or conditional), write (or indirect). */
typedef struct {
   Int total, first, second;
} Widths;

static void count_line(const HChar* label, ULong total, const Widths* w)
{
   VG_(umsg)("%s %'*llu\n", label, w->total, total);
}

static void split_count_line(const HChar* label, ULong total, ULong rd,
                             ULong wr, const Widths* w)
{
   VG_(umsg)("%s %'*llu  (%'*llu rd   + %'*llu wr)\n", label,
             w->total, total, w->first, rd, w->second, wr);
}

static void split_rate_line(const HChar* label, Double total, Double rd,
                            Double wr, const Widths* w)
{
   VG_(umsg)("%s%*.1f%% (%*.1f%%     + %*.1f%%  )\n", label,
             w->total, total, w->first, rd, w->second, wr);
}

/* "<level> refs", "misses" and "miss rate" of a level every L1 miss
   or, below a middle level, every L2 miss reaches: `miss` indexes its
   counters, which follow each first counter by the same step. */
static void print_unified_level(const HChar* refs_label,
                                const HChar* misses_label,
                                const HChar* rate_label, const ULong* t,
                                const ULong* refs, const ULong* misses,
                                const Widths* w)
{
   ULong ir = at_least_one(t[EV_IR]), dr = at_least_one(t[EV_DR]);
   ULong dw = at_least_one(t[EV_DW]);

   split_count_line(refs_label, refs[0] + refs[1] + refs[2],
                    refs[0] + refs[1], refs[2], w);
   split_count_line(misses_label, misses[0] + misses[1] + misses[2],
                    misses[0] + misses[1], misses[2], w);
   split_rate_line(rate_label,
                   percent(misses[0] + misses[1] + misses[2],
                           ir + at_least_one(t[EV_DR] + t[EV_DW])),
                   percent(misses[0] + misses[1], ir + dr),
                   percent(misses[2], dw), w);
}

/* A line for each level with a prefetcher (manual 5.10) */
static void print_prefetches(const ULong* t, const Widths* w)
{
   static const struct { CgEvent ev; const HChar* label; } levels[] = {
      { EV_D1_PF, "D1  prefetches: " }, { EV_L2_PF, "L2  prefetches: " },
      { EV_LL_PF, "LL  prefetches: " }
   };
   UInt i;
   Bool first = True;

   for (i = 0; i < sizeof levels / sizeof levels[0]; i++) {
      if (!cg_output_event_selected(levels[i].ev))
         continue;
      if (first)
         VG_(umsg)("\n");
      first = False;
      VG_(umsg)("%s%'*llu  (%'llu useful)\n", levels[i].label, w->total - 2,
                t[levels[i].ev], t[levels[i].ev + 1]);
   }
}

/* --simulate-wb: the lines each level wrote back (manual 5.12) */
static void print_write_backs(const Widths* w)
{
   if (!cg_clo.simulate_wb)
      return;
   VG_(umsg)("\n");
   VG_(umsg)("D1  write-backs: %'*llu\n", w->total - 2,
             cg_hierarchy_write_backs(1));
   if (cg_output_event_selected(EV_I2_MISS))
      VG_(umsg)("L2  write-backs: %'*llu\n", w->total - 2,
                cg_hierarchy_write_backs(2));
   VG_(umsg)("LL  write-backs: %'*llu  (to memory)\n", w->total - 2,
             cg_hierarchy_write_backs(3));
}

static void print_cache_summary(const ULong* t, const Widths* w)
{
   ULong ir = t[EV_IR], dr = t[EV_DR], dw = t[EV_DW];
   ULong d_refs = dr + dw;
   ULong d1_miss = t[EV_D1_READ_MISS] + t[EV_D1_WRITE_MISS];
   ULong d2_miss = t[EV_D2_READ_MISS] + t[EV_D2_WRITE_MISS];
   ULong dll_miss = t[EV_LL_READ_MISS] + t[EV_LL_WRITE_MISS];
   /* Per level, its fetch, read and write misses */
   ULong l1[3] = { t[EV_I1_MISS], t[EV_D1_READ_MISS], t[EV_D1_WRITE_MISS] };
   ULong l2[3] = { t[EV_I2_MISS], t[EV_D2_READ_MISS], t[EV_D2_WRITE_MISS] };
   ULong ll[3] = { t[EV_LLI_MISS], t[EV_LL_READ_MISS], t[EV_LL_WRITE_MISS] };
   Bool with_l2 = cg_output_event_selected(EV_I2_MISS);

   count_line("I1  misses:   ", t[EV_I1_MISS], w);
   if (with_l2)
      count_line("I2  misses:   ", t[EV_I2_MISS], w);
   count_line("LLi misses:   ", t[EV_LLI_MISS], w);
   VG_(umsg)("I1  miss rate: %*.2f%%\n", w->total,
             percent(t[EV_I1_MISS], at_least_one(ir)));
   if (with_l2)
      VG_(umsg)("I2  miss rate: %*.2f%%\n", w->total,
                percent(t[EV_I2_MISS], at_least_one(ir)));
   VG_(umsg)("LLi miss rate: %*.2f%%\n", w->total,
             percent(t[EV_LLI_MISS], at_least_one(ir)));
   VG_(umsg)("\n");

   split_count_line(CG_SUMMARY_LABEL_D_REFS, d_refs, dr, dw, w);
   split_count_line("D1  misses:   ", d1_miss, t[EV_D1_READ_MISS],
                    t[EV_D1_WRITE_MISS], w);
   if (with_l2)
      split_count_line("D2  misses:   ", d2_miss, t[EV_D2_READ_MISS],
                       t[EV_D2_WRITE_MISS], w);
   split_count_line("LLd misses:   ", dll_miss, t[EV_LL_READ_MISS],
                    t[EV_LL_WRITE_MISS], w);
   split_rate_line("D1  miss rate: ",
                   percent(d1_miss, at_least_one(d_refs)),
                   percent(t[EV_D1_READ_MISS], at_least_one(dr)),
                   percent(t[EV_D1_WRITE_MISS], at_least_one(dw)), w);
   if (with_l2)
      split_rate_line("D2  miss rate: ",
                      percent(d2_miss, at_least_one(d_refs)),
                      percent(t[EV_D2_READ_MISS], at_least_one(dr)),
                      percent(t[EV_D2_WRITE_MISS], at_least_one(dw)), w);
   split_rate_line("LLd miss rate: ",
                   percent(dll_miss, at_least_one(d_refs)),
                   percent(t[EV_LL_READ_MISS], at_least_one(dr)),
                   percent(t[EV_LL_WRITE_MISS], at_least_one(dw)), w);
   VG_(umsg)("\n");

   if (with_l2) {
      print_unified_level("L2 refs:      ", "L2 misses:    ",
                          "L2 miss rate:  ", t, l1, l2, w);
      VG_(umsg)("\n");
   }
   print_unified_level("LL refs:      ", "LL misses:    ", "LL miss rate:  ",
                       t, with_l2 ? l2 : l1, ll, w);
   print_prefetches(t, w);
   print_write_backs(w);
   /* --caches=per-thread, in a program that made threads */
   if (cg_output_event_selected(EV_D1_COHERENCE_MISS)) {
      VG_(umsg)("\n");
      VG_(umsg)("D1  coherence misses: %'*llu  (of the D1 misses)\n",
                w->total - 2, t[EV_D1_COHERENCE_MISS]);
   }
}

/* A run without conditional (or indirect) branches reports one: the
   divisor is bumped to 1 and the bumped value is what gets printed. */
static void print_branch_summary(const ULong* t, const Widths* w)
{
   ULong cond = at_least_one(t[EV_BC]), ind = at_least_one(t[EV_BI]);
   ULong cond_miss = t[EV_BC_MISPRED], ind_miss = t[EV_BI_MISPRED];

   VG_(umsg)("\n");
   VG_(umsg)("Branches:      %'*llu  (%'*llu cond + %'*llu ind)\n",
             w->total, cond + ind, w->first, cond, w->second, ind);
   VG_(umsg)("Mispredicts:   %'*llu  (%'*llu cond + %'*llu ind)\n",
             w->total, cond_miss + ind_miss, w->first, cond_miss,
             w->second, ind_miss);
   VG_(umsg)("Mispred rate:  %*.1f%% (%*.1f%%     + %*.1f%%   )\n",
             w->total, percent(cond_miss + ind_miss, cond + ind),
             w->first, percent(cond_miss, cond),
             w->second, percent(ind_miss, ind));
}

void cg_summary_print(const CgOutputResult* res)
{
   const ULong* t = res->total;
   Widths w;

   if (VG_(clo_verbosity) == 0)
      return;
   w.total  = grouped_width(t[EV_IR]);
   w.first  = grouped_width(t[EV_DR] > t[EV_BC] ? t[EV_DR] : t[EV_BC]);
   w.second = grouped_width(t[EV_DW] > t[EV_BI] ? t[EV_DW] : t[EV_BI]);

   count_line(CG_SUMMARY_LABEL_I_REFS, t[EV_IR], &w);
   if (cg_clo.cache_sim)
      print_cache_summary(t, &w);
   if (cg_clo.branch_sim)
      print_branch_summary(t, &w);
}

static void lookup_line(const HChar* label, ULong n, ULong all)
{
   VG_(dmsg)("cachegrind: with %s info:%6.1f%% (%llu)\n", label,
             percent(n, all), n);
}

void cg_summary_print_stats(const CgOutputResult* res)
{
   const CgLookupStats* ls = cg_costs_lookup_stats();
   const CgInstrumentStats* is = cg_instrument_stats();
   ULong lookups = ls->lookups_full + ls->lookups_file_line
                   + ls->lookups_fn + ls->lookups_none;

   if (!VG_(clo_stats) || VG_(clo_verbosity) == 0)
      return;
   VG_(dmsg)("\n");
   VG_(dmsg)("cachegrind: distinct files     : %u\n", res->n_files);
   VG_(dmsg)("cachegrind: distinct functions : %u\n", res->n_fns);
   VG_(dmsg)("cachegrind: distinct lines     : %u\n", res->n_lines);
   VG_(dmsg)("cachegrind: distinct instrs NoX: %llu\n", is->instrs_nox);
   VG_(dmsg)("cachegrind: distinct instrs Gen: %llu\n", is->instrs_gen);
   VG_(dmsg)("cachegrind: debug lookups      : %llu\n", lookups);
   lookup_line("full     ", ls->lookups_full, lookups);
   lookup_line("file/line", ls->lookups_file_line, lookups);
   lookup_line("fn name  ", ls->lookups_fn, lookups);
   lookup_line("zero     ", ls->lookups_none, lookups);
   VG_(dmsg)("cachegrind: string table size: %u\n", cg_costs_n_strings());
   VG_(dmsg)("cachegrind: CC table size: %u\n", cg_costs_n_centres());
   VG_(dmsg)("cachegrind: InstrInfo table size: %u\n",
             cg_costs_n_live_blocks()
             + cg_tier_n_pending_retranslations());
   cg_log_print_stats();
   if (cg_log_enabled())
      cg_sim_print_l1_lookups();
   cg_log_print_thread_stats();
   cg_deliver_print_stats();
   cg_data_print_stats();
   cg_vexpasses_print_stats();
   if (cg_log_enabled())
      cg_checkers_print_stats();
   cg_tier_print_stats();
}
