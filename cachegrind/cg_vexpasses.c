/* cg_vexpasses.c -- which of VEX's passes run on an instrumented block.

   Owns: the wrappers the linker puts between VEX's LibVEX_Translate
   and three of VEX's passes (Makefile.am links the tool with
   -Wl,--wrap=<pass>, which redirects the calls from other object
   files: in libvex those are only main_main.o's), and the option
   --vex-post-instr that lets them run.
   Must not: change what a pass does when it runs.  No count depends
   on these passes: events are made from the IR the instrumentation
   receives, before them.

   Why: after a tool's instrumentation VEX runs, on every block, a
   cleanup (dead-code removal, constant propagation, dead-code removal
   again) and a full sanity check of the IR.  On our blocks they have
   little to do: the program's own statements come straight from VEX's
   optimiser, and ours are flat and use constants directly.  What the
   cleanup still finds is the optimiser's leftover copies of temporaries
   and no-ops (host code about 1 % larger without it: cc1 13.28 ->
   13.40 MB).  But where translation weighs, they are several per cent
   of the run: the gcc workload's cc1 ran 0.6 s faster of 10 without
   them, 7 runs of 7, with byte-identical output.  So by default they
   are skipped; the check of the front end's IR, before the optimiser
   and the instrumentation, still runs as in the reference.

   --vex-post-instr=yes runs all three again, as the core does for
   other tools: a debugging aid for the instrumentation, and how the
   tests check that the IR we emit is well formed. */

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
   IR).  A pass is skipped only inside this window, so a VEX that
   called these passes from elsewhere would still get them. */
static Bool after_instrumentation;
static ULong n_blocks_skipped, n_blocks_run;

void cg_vexpasses_block_instrumented(void)
{
   after_instrumentation = True;
}

static Bool skipping(void)
{
   return after_instrumentation && !cg_clo.vex_post_instr;
}

IRSB* __wrap_cprop_BB(IRSB* bb)
{
   return skipping() ? bb : __real_cprop_BB(bb);
}

void __wrap_do_deadcode_BB(IRSB* bb)
{
   if (!skipping())
      __real_do_deadcode_BB(bb);
}

void __wrap_sanityCheckIRSB(const IRSB* bb, const HChar* caller,
                            Bool require_flatness, IRType guest_word_ty)
{
   /* The post-instrumentation check is the one on flat IR; the front
      end's output, checked first, is not flat. */
   if (require_flatness && after_instrumentation) {
      Bool skip = skipping();
      after_instrumentation = False;
      if (skip) {
         n_blocks_skipped++;
         return;
      }
      n_blocks_run++;
   }
   __real_sanityCheckIRSB(bb, caller, require_flatness, guest_word_ty);
}

void cg_vexpasses_print_stats(void)
{
   VG_(dmsg)("VEX post-instrumentation passes: run on %llu blocks, "
             "skipped on %llu\n", n_blocks_run, n_blocks_skipped);
}
