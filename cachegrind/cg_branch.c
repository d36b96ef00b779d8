/* cg_branch.c -- the simulated branch predictors.

   Owns: the conditional predictor (a table of two-bit saturating
   counters indexed by global history and branch address) and the
   indirect predictor (a table of last-seen targets indexed by branch
   address): their state and its update rules.
   Must not: count anything but the misprediction of the branch it is
   told about.

   The conditional update runs in hot translations' group checkers
   (cg_checkers.c), from the state this file lays out, and elsewhere as
   a helper (cg_branch_cond); the indirect one is compiled inline
   (cg_deliver.c), from the slot this file gives it.  The rules:
     conditional: index = (history & 0x7F) << 7 | (address & 0x7F);
                  predicted taken = counter >= 2;
                  counter += taken ? 1 : -1, saturating at 0 and 3;
                  history = history << 1 | taken
     indirect:    slot = targets[address & 0x1FF];
                  mispredicted = slot != target; slot = target
   (addresses shifted right first on architectures whose instruction
   addresses have always-zero low bits). */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "cg_branch.h"
#include "cg_control.h"

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

/* In the tool's static data, so compiled code and group checkers reach
   them with 32-bit addresses.  A counter's byte holds the counter (0..3,
   >= 2 predicts taken) in its low two bits and, above them, whatever
   the last update left there (see cond_step). */
static UChar cond_counters[COND_TABLE_SIZE];
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

/* One step of a counter, indexed by its byte * 2 + taken: the next
   counter (saturating increment when taken, decrement otherwise) in the
   low bits, and 16 if the branch was mispredicted.  The byte stored
   back is the whole entry, so the table covers bytes with that bit set
   too: one load gives both results, with no data-dependent branch,
   here and in group checkers' machine code. */
#define COND_MISPREDICTED 16
static UChar cond_step[4 * COND_MISPREDICTED];

static const UWord* collecting;   /* 1, or 0 outside --toggle-collect */

void cg_branch_init(void)
{
   UWord byte, taken;

   for (byte = 0; byte < 2 * COND_MISPREDICTED; byte++)
      for (taken = 0; taken < 2; taken++) {
         UWord counter = byte & 3;
         UWord next = taken ? (counter == 3 ? 3 : counter + 1)
                            : (counter == 0 ? 0 : counter - 1);
         /* predicted taken = counter >= 2, i.e. counter >> 1 */
         UWord wrong = (counter >> 1) ^ taken;
         cond_step[byte * 2 + taken] = (UChar)(next | wrong * COND_MISPREDICTED);
      }
   VG_(memset)(cond_counters, 0, sizeof cond_counters);
   VG_(memset)(ind_targets, 0, sizeof ind_targets);
   shifted_history = 0;
   collecting = cg_control_collecting_word();
}

/* Updates the predictor; returns 1 if it mispredicted the branch. */
static inline UWord predict_cond(UWord addr_part, UWord taken)
{
   UWord index = (shifted_history & HISTORY_IN_INDEX_MASK) | addr_part;
   UWord step = cond_step[cond_counters[index] * 2 + taken];

   cond_counters[index] = (UChar)step;
   shifted_history = (shifted_history << 1) | (taken << COND_ADDR_BITS);
   return step / COND_MISPREDICTED;
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

const CgCondPredictor* cg_branch_cond_predictor(void)
{
   static CgCondPredictor layout;

   layout.shifted_history = &shifted_history;
   layout.counters = cond_counters;
   layout.step = cond_step;
   layout.history_mask = HISTORY_IN_INDEX_MASK;
   layout.history_shift = COND_ADDR_BITS;
   layout.mispredicted_shift = 4;
   tl_assert(COND_MISPREDICTED == 1 << layout.mispredicted_shift);
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
