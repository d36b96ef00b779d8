/* cg_branch.c -- the simulated branch predictors.

   Owns: the conditional predictor (a table of two-bit saturating
   counters indexed by global history and branch address) and the
   indirect predictor (a table of last-seen targets indexed by branch
   address): their state and its update rules.
   Must not: count anything but the misprediction of the branch it is
   told about.

   The conditional update runs as a helper (cg_branch_cond); the
   indirect one is compiled inline (cg_deliver.c), from the slot this
   file gives it.  The rules:
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

/* In the tool's static data, so compiled code reaches the indirect
   targets with 32-bit addresses. */
static UChar cond_counters[COND_TABLE_SIZE];  /* 0..3; >= 2 predicts taken */
static Addr  ind_targets[IND_TABLE_SIZE];

/* The outcomes, newest lowest, shifted left by COND_ADDR_BITS: the
   index takes its history part with one AND.  The next call reads this
   word straight after this one wrote it, through memory, so the steps
   between that load and that store (a shift and an OR) are the chain
   that links each conditional branch of the run to the one before.
   Outcomes older than COND_HISTORY_BITS are masked off, not cleared. */
#define HISTORY_IN_INDEX_MASK \
   ((((UWord)1 << COND_HISTORY_BITS) - 1) << COND_ADDR_BITS)
static UWord shifted_history;

/* A two-bit counter's next value, indexed by counter * 2 + taken:
   saturating increment when taken, decrement otherwise.  A table, so
   the update has no data-dependent branch. */
static const UChar cond_next[8] = { 0, 1,  0, 2,  1, 3,  2, 3 };

static const UWord* collecting;   /* 1, or 0 outside --toggle-collect */

void cg_branch_init(void)
{
   VG_(memset)(cond_counters, 0, sizeof cond_counters);
   VG_(memset)(ind_targets, 0, sizeof ind_targets);
   shifted_history = 0;
   collecting = cg_control_collecting_word();
}

/* Updates the predictor; returns 1 if it mispredicted the branch. */
static inline UWord predict_cond(UWord addr_part, UWord taken)
{
   UWord index = (shifted_history & HISTORY_IN_INDEX_MASK) | addr_part;
   UWord counter = cond_counters[index];

   cond_counters[index] = cond_next[counter * 2 + taken];
   shifted_history = (shifted_history << 1) | (taken << COND_ADDR_BITS);
   /* predicted taken = counter >= 2, i.e. counter >> 1 */
   return (counter >> 1) ^ taken;
}

VG_REGPARM(3) void cg_branch_cond(CostCentre* cc, UWord addr_part,
                                  UWord taken)
{
   cc->count[EV_BC_MISPRED] += predict_cond(addr_part, taken);
}

/* With --toggle-collect: the predictor learns all the time, but counts
   only while collecting. */
VG_REGPARM(3) void cg_branch_cond_toggled(CostCentre* cc, UWord addr_part,
                                          UWord taken)
{
   cc->count[EV_BC_MISPRED] += predict_cond(addr_part, taken) & *collecting;
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
