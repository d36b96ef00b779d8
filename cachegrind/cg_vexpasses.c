/* cg_vexpasses.c -- which of VEX's checking and cleanup passes run.

   Owns: the wrappers the linker puts between VEX's LibVEX_Translate
   and three of VEX's passes (Makefile.am links the tool with
   -Wl,--wrap=<pass>, which redirects the calls made from other object
   files: in libvex those are only main_main.o's), and the option
   --vex-checks that lets them run.
   Must not: change what a pass does when it runs.  No count depends
   on these passes: the sanity checks only assert, and events are made
   from the IR the instrumentation receives, before the cleanup.

   Why: for every block, VEX checks the IR its front end made (a full
   sanity check), optimises it, hands it to the tool, and then runs on
   the tool's output a cleanup (dead-code removal, constant propagation,
   dead-code removal again) and a second full sanity check.  None of
   that changes what our blocks compute, and on ours the cleanup has
   little to do: the program's own statements come straight from VEX's
   optimiser, and ours are flat and use constants directly.  What it
   still finds is the optimiser's leftover copies of temporaries and
   no-ops (host code about 1 % larger without it: cc1 13.28 -> 13.40
   MB).  But where translation weighs, the three are several per cent
   of the run: without them the gcc workload's cc1 ran 0.6 s faster of
   10 (7 runs of 7), output byte-identical; the first check alone is
   0.13 s of 2.0 on a translation-bound cc1 run (13 runs of 15).  So by
   default all are skipped.

   --vex-checks=yes runs them all, as the core does for other tools: a
   debugging aid, and how the tests check that the IR we emit is well
   formed (a malformed block stops the run with VEX's panic). */

#include "pub_tool_basics.h"
#include "pub_tool_libcprint.h"
#include "libvex_ir.h"
#include "cg_tool.h"

/* The wrapped passes (ir_opt.c, ir_defs.c); cprop_BB and
   do_deadcode_BB are not in VEX's public headers. */
IRSB* __real_cprop_BB(IRSB* bb);
IRSB* __wrap_cprop_BB(IRSB* bb);
void  __real_do_deadcode_BB(IRSB* bb);
void  __wrap_do_deadcode_BB(IRSB* bb);
void  __real_sanityCheckIRSB(const IRSB* bb, const HChar* caller,
                             Bool require_flatness, IRType guest_word_ty);
void  __wrap_sanityCheckIRSB(const IRSB* bb, const HChar* caller,
                             Bool require_flatness, IRType guest_word_ty);

/* Set from our instrumentation's return to the end of that block's
   post-instrumentation passes (their last is the sanity check of flat
   IR).  The cleanup is skipped only inside this window, so a VEX that
   called these passes from elsewhere would still get them. */
static Bool after_instrumentation;
static ULong n_blocks_checked, n_blocks_skipped, n_front_end_checks;

void cg_vexpasses_block_instrumented(void)
{
   after_instrumentation = True;
}

static Bool skipping_cleanup(void)
{
   return after_instrumentation && !cg_clo.vex_checks;
}

IRSB* __wrap_cprop_BB(IRSB* bb)
{
   return skipping_cleanup() ? bb : __real_cprop_BB(bb);
}

void __wrap_do_deadcode_BB(IRSB* bb)
{
   if (!skipping_cleanup())
      __real_do_deadcode_BB(bb);
}

/* Called on the front end's IR (not flat) and, last of a block's
   passes, on the cleaned-up instrumented IR (flat). */
void __wrap_sanityCheckIRSB(const IRSB* bb, const HChar* caller,
                            Bool require_flatness, IRType guest_word_ty)
{
   if (require_flatness && after_instrumentation) {
      after_instrumentation = False;
      if (cg_clo.vex_checks)
         n_blocks_checked++;
      else
         n_blocks_skipped++;
   }
   if (!cg_clo.vex_checks)
      return;
   if (!require_flatness)
      n_front_end_checks++;
   __real_sanityCheckIRSB(bb, caller, require_flatness, guest_word_ty);
}

void cg_vexpasses_print_stats(void)
{
   VG_(dmsg)("VEX IR checks and cleanup: run on %llu blocks (%llu front-end "
             "checks), skipped on %llu\n", n_blocks_checked,
             n_front_end_checks, n_blocks_skipped);
}
