/* cg_sim.c -- the helpers that run while the client runs.

   Owns: the three cache instances (I1, D1 and the shared LL).
   Each helper takes the InstrInfo of the instruction the event belongs
   to, feeds the models, and adds the outcome to its cost centre.
   Must not: print, allocate or look anything up; these run for every
   executed instruction, so they stay small and branch-light.

   Level chaining: an L1 miss sends the whole access (both lines of a
   straddle) to LL, which has its own line size. */

#include "pub_tool_basics.h"
#include "cg_tool.h"
#include "cg_cache.h"

static CacheLevel I1, D1, LL;

void cg_sim_init(const CacheGeometry* i1, const CacheGeometry* d1,
                 const CacheGeometry* ll)
{
   cg_cache_level_init(&I1, i1, "I1");
   cg_cache_level_init(&D1, d1, "D1");
   cg_cache_level_init(&LL, ll, "LL");
}

static inline void simulate_fetch(const InstrInfo* ii)
{
   CostCentre* cc = ii->cc;

   cc->count[EV_IR]++;
   if (UNLIKELY(cg_cache_ref_missed(&I1, ii->addr, (UChar)ii->len))) {
      cc->count[EV_I1_MISS]++;
      if (cg_cache_ref_missed(&LL, ii->addr, (UChar)ii->len))
         cc->count[EV_LLI_MISS]++;
   }
}

/* `first` is EV_DR or EV_DW; the two miss counters follow it. */
static inline void simulate_data(const InstrInfo* ii, Addr addr,
                                 UWord size, CgEvent first)
{
   CostCentre* cc = ii->cc;

   cc->count[first]++;
   if (UNLIKELY(cg_cache_ref_missed(&D1, addr, (UChar)size))) {
      cc->count[first + 1]++;
      if (cg_cache_ref_missed(&LL, addr, (UChar)size))
         cc->count[first + 2]++;
   }
}

/* --cache-sim=no: only the instruction count. */
VG_REGPARM(1) void cg_sim_ir_only(InstrInfo* ii)
{
   ii->cc->count[EV_IR]++;
}

VG_REGPARM(1) void cg_sim_ir(InstrInfo* ii)
{
   simulate_fetch(ii);
}

/* Two or three consecutive instructions without data accesses in one
   call: fewer calls for the same simulated stream. */
VG_REGPARM(2) void cg_sim_ir2(InstrInfo* ii1, InstrInfo* ii2)
{
   simulate_fetch(ii1);
   simulate_fetch(ii2);
}

VG_REGPARM(3) void cg_sim_ir3(InstrInfo* ii1, InstrInfo* ii2,
                              InstrInfo* ii3)
{
   simulate_fetch(ii1);
   simulate_fetch(ii2);
   simulate_fetch(ii3);
}

VG_REGPARM(3) void cg_sim_ir_read(InstrInfo* ii, Addr addr, UWord size)
{
   simulate_fetch(ii);
   simulate_data(ii, addr, size, EV_DR);
}

VG_REGPARM(3) void cg_sim_ir_write(InstrInfo* ii, Addr addr, UWord size)
{
   simulate_fetch(ii);
   simulate_data(ii, addr, size, EV_DW);
}

VG_REGPARM(3) void cg_sim_read(InstrInfo* ii, Addr addr, UWord size)
{
   simulate_data(ii, addr, size, EV_DR);
}

VG_REGPARM(3) void cg_sim_write(InstrInfo* ii, Addr addr, UWord size)
{
   simulate_data(ii, addr, size, EV_DW);
}

VG_REGPARM(2) void cg_sim_cond_branch(InstrInfo* ii, UWord taken)
{
   CostCentre* cc = ii->cc;

   cc->count[EV_BC]++;
   cc->count[EV_BC_MISPRED] += cg_branch_cond_mispredicted(ii->addr,
                                                           taken != 0);
}

VG_REGPARM(2) void cg_sim_ind_branch(InstrInfo* ii, UWord target)
{
   CostCentre* cc = ii->cc;

   cc->count[EV_BI]++;
   cc->count[EV_BI_MISPRED] += cg_branch_ind_mispredicted(ii->addr, target);
}
