/* cg_branch.h -- the conditional and indirect branch predictors
   (cg_branch.c). */

#ifndef CG_BRANCH_H
#define CG_BRANCH_H

#include "pub_tool_basics.h"
#include "cg_costs.h"

void cg_branch_init(void);
/* A conditional branch ran (taken is 0 or 1): update the predictor and
   count a misprediction in `cc` while events are being collected. */
VG_REGPARM(3) void cg_branch_cond(CostCentre* cc, UWord addr_part,
                                  UWord taken);
/* The same, under --toggle-collect (counts only while collecting). */
VG_REGPARM(3) void cg_branch_cond_toggled(CostCentre* cc, UWord addr_part,
                                          UWord taken);
/* Where the conditional predictor keeps its state, for group checkers
   (cg_checkers.c), which run the same update as cg_branch_cond:
     index   = (*shifted_history & history_mask) | address part;
     step    = step[counters[index] * 2 + taken];
     counters[index] = step;
     *shifted_history = *shifted_history << 1 | taken << history_shift;
     mispredicted = step >> mispredicted_shift. */
typedef struct {
   UWord*       shifted_history;
   UChar*       counters;
   const UChar* step;
   UWord        history_mask;
   Int          history_shift;
   Int          mispredicted_shift;
} CgCondPredictor;
const CgCondPredictor* cg_branch_cond_predictor(void);
/* The address part of a conditional branch's counter index. */
UWord cg_branch_cond_addr_part(Addr instr_addr);
/* The indirect predictor's slot for a branch. */
Addr* cg_branch_ind_slot(Addr instr_addr);

#endif /* CG_BRANCH_H */
