/* cg_branch.c -- the simulated branch predictors.

   Owns: the conditional predictor (a table of two-bit saturating
   counters indexed by global history and branch address) and the
   indirect predictor (a table of last-seen targets indexed by branch
   address): their state, its layout and its update rules.
   Must not: count anything.

   Every conditional and indirect branch updates a predictor, so the
   update is compiled inline (cg_deliver.c) rather than called; this
   file describes the state to it (CgBranchLayout) and keeps the rules
   in one place:
     conditional: index = (history & 0x7F) << 7 | (address & 0x7F);
                  predicted taken = counter >= 2;
                  counter = cond_next[counter * 2 + taken];
                  history = history << 1 | taken
     indirect:    slot = targets[address & 0x1FF];
                  mispredicted = slot != target; slot = target
   (addresses shifted right first on architectures whose instruction
   addresses have always-zero low bits). */

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

/* In the tool's static data, so compiled code reaches them with 32-bit
   addresses. */
static UChar cond_counters[COND_TABLE_SIZE];  /* 0..3; >= 2 predicts taken */
static UWord cond_history;                    /* 1 bit per branch, newest low */
static Addr  ind_targets[IND_TABLE_SIZE];

/* A two-bit counter's next value, indexed by counter * 2 + taken:
   saturating increment when taken, decrement otherwise.  A table
   because compiled code can apply it with one load and no branch. */
static const UChar cond_next[8] = { 0, 1,  0, 2,  1, 3,  2, 3 };

static CgBranchLayout layout;

void cg_branch_init(void)
{
   VG_(memset)(cond_counters, 0, sizeof cond_counters);
   VG_(memset)(ind_targets, 0, sizeof ind_targets);
   cond_history = 0;

   layout.cond_counters = cond_counters;
   layout.cond_history  = &cond_history;
   layout.cond_next     = cond_next;
   layout.history_mask  = (1 << COND_HISTORY_BITS) - 1;
   layout.addr_bits     = COND_ADDR_BITS;
   layout.ind_targets   = ind_targets;
}

const CgBranchLayout* cg_branch_layout(void)
{
   return &layout;
}

UWord cg_branch_cond_addr_part(Addr instr_addr)
{
   return (instr_addr >> INSTR_ADDR_SHIFT) & ((1 << COND_ADDR_BITS) - 1);
}

Addr* cg_branch_ind_slot(Addr instr_addr)
{
   return &ind_targets[(instr_addr >> INSTR_ADDR_SHIFT)
                       & (IND_TABLE_SIZE - 1)];
}
