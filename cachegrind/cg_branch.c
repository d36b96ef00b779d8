/* cg_branch.c -- the simulated branch predictors.

   Owns: the conditional predictor (a table of two-bit saturating
   counters indexed by global history and branch address) and the
   indirect predictor (a table of last-seen targets indexed by branch
   address).  Must not: count anything; callers add the result to a
   cost centre. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "cg_tool.h"

/* Instruction addresses have this many always-zero low bits on the
   guest architecture; they carry no information, so they are dropped
   before indexing. */
#if defined(VGA_ppc32) || defined(VGA_ppc64be) || defined(VGA_ppc64le) \
    || defined(VGA_mips32) || defined(VGA_mips64) || defined(VGA_arm64) \
    || defined(VGA_nanomips)
#  define INSTR_ADDR_SHIFT 2
#elif defined(VGA_arm) || defined(VGA_s390x)
#  define INSTR_ADDR_SHIFT 1
#else
#  define INSTR_ADDR_SHIFT 0
#endif

#define COND_HISTORY_BITS 7
#define COND_ADDR_BITS    7
#define COND_TABLE_SIZE   (1 << (COND_HISTORY_BITS + COND_ADDR_BITS))
#define IND_TABLE_SIZE    512

static UChar cond_counters[COND_TABLE_SIZE];  /* 0..3; >= 2 predicts taken */
static UWord cond_history;                    /* 1 bit per branch, newest low */
static Addr  ind_targets[IND_TABLE_SIZE];

void cg_branch_init(void)
{
   VG_(memset)(cond_counters, 0, sizeof cond_counters);
   VG_(memset)(ind_targets, 0, sizeof ind_targets);
   cond_history = 0;
}

UWord cg_branch_cond_mispredicted(Addr instr_addr, Bool taken)
{
   UWord addr_part = (instr_addr >> INSTR_ADDR_SHIFT)
                     & ((1 << COND_ADDR_BITS) - 1);
   UWord hist_part = cond_history & ((1 << COND_HISTORY_BITS) - 1);
   UChar* counter  = &cond_counters[(hist_part << COND_ADDR_BITS)
                                    | addr_part];
   Bool predicted_taken = *counter >= 2;

   cond_history = (cond_history << 1) | (taken ? 1 : 0);
   if (taken) {
      if (*counter < 3)
         (*counter)++;
   } else {
      if (*counter > 0)
         (*counter)--;
   }
   return predicted_taken != taken ? 1 : 0;
}

UWord cg_branch_ind_mispredicted(Addr instr_addr, Addr target)
{
   Addr* slot = &ind_targets[(instr_addr >> INSTR_ADDR_SHIFT)
                             & (IND_TABLE_SIZE - 1)];
   UWord missed = *slot != target ? 1 : 0;

   *slot = target;
   return missed;
}
