/* cg_vexpasses.c -- which of VEX's checking and cleanup passes run.

   Owns: the wrappers the linker puts between VEX's LibVEX_Translate
   and three of VEX's passes (Makefile.am links the tool with
   -Wl,--wrap=<pass>, which redirects only the calls made from other
   object files), and what --vex-checks (cg_options.c) asks of them.
   Must not: change what a pass does when it runs.  No count depends
   on these passes: the sanity checks only assert, and events are made
   from the IR the instrumentation receives, before the cleanup.

   Why: for every block, VEX checks the IR its front end made (a full
   sanity check), optimises it, hands it to the tool, and then runs on
   the tool's output a cleanup (dead-code removal, constant propagation,
   dead-code removal again) and a second full sanity check.  None of
   that changes what our blocks compute, and on ours the cleanup has
   little to do: the program's own statements come from VEX's optimiser,
   and ours are flat and use constants directly; what it still finds is
   the optimiser's leftover copies of temporaries and no-ops (about 1 %
   more host code without it).  But where translation weighs, the three
   passes are several per cent of the run (cc1 of bench/run's gcc
   workload, AMD EPYC, 2026-11-25: 0.6 s of 10).  So by default all are skipped.

   Which calls arrive here: in VEX 3.19's libvex only main_main.o calls
   these functions (ir_opt.c's own calls to cprop_BB and do_deadcode_BB,
   in the optimiser before instrumentation, stay inside ir_opt.o and
   are not redirected).  From main_main.o, cprop_BB and do_deadcode_BB
   are called only by the post-instrumentation cleanup, and
   sanityCheckIRSB twice per block: on the front end's IR (not flat)
   and last, on the cleaned-up instrumented IR (flat).  Were a later
   VEX to call them before instrumentation, skipping them would change
   the IR we count, which the differential tests would show at once.

   --vex-checks=yes runs them all, as the core does for other tools: a
   debugging aid, and how the tests check that the IR we emit is well
   formed (a malformed block stops the run with VEX's panic). */

#include "pub_tool_basics.h"
#include "pub_tool_libcprint.h"
#include "libvex_ir.h"
#include "cg_vexpasses.h"
#include "cg_options.h"

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

/* For --stats=yes. */
static ULong n_blocks_checked, n_blocks_skipped, n_front_end_checks;

IRSB* __wrap_cprop_BB(IRSB* bb)
{
   return cg_clo.vex_checks ? __real_cprop_BB(bb) : bb;
}

void __wrap_do_deadcode_BB(IRSB* bb)
{
   if (cg_clo.vex_checks)
      __real_do_deadcode_BB(bb);
}

void __wrap_sanityCheckIRSB(const IRSB* bb, const HChar* caller,
                            Bool require_flatness, IRType guest_word_ty)
{
   if (!cg_clo.vex_checks) {
      n_blocks_skipped += require_flatness;
      return;
   }
   if (require_flatness)
      n_blocks_checked++;
   else
      n_front_end_checks++;
   __real_sanityCheckIRSB(bb, caller, require_flatness, guest_word_ty);
}

void cg_vexpasses_print_stats(void)
{
   VG_(dmsg)("VEX IR checks and cleanup: run on %llu blocks (%llu front-end "
             "checks), skipped on %llu\n", n_blocks_checked,
             n_front_end_checks, n_blocks_skipped);
}
