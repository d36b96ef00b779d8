/* cg_lineuse.h -- line use (--cacheuse=yes, manual 5.13): how much of
   each line a level loads is used before it leaves (cg_lineuse.c).

   The rules, which tests/refmodel/cgref.c implements independently:
   - Tracked: I1 and D1 (events SpLoss1, AcCost1) and LL (SpLoss2,
     AcCost2); not a middle level.
   - A line's residency lasts from the miss that fills it (its loader,
     the access whose cost centre is charged) to its eviction or the
     end of the run.
   - Every access touching the line's bytes during residency uses it,
     hits included (at LL, whatever level the access hit).  The bytes
     used are the union of the bytes touched; a line of more than 64
     bytes is 64 equal chunks, each used whole once any byte is.
   - When a residency ends, the loader gets SpLoss += line size - bytes
     used, AcCost += 1000 / uses (rounded down). */

#ifndef CG_LINEUSE_H
#define CG_LINEUSE_H

#include "pub_tool_basics.h"
#include "cg_costs.h"

typedef enum { CG_USE_I1, CG_USE_D1, CG_USE_LL, CG_USE_N_LEVELS }
   CgUseLevel;

/* Before any access: each tracked level's geometry (line_bits, sets,
   assoc as the level has them) */
void cg_lineuse_init(CgUseLevel level, Int line_bits, UWord sets,
                     Int assoc);
/* `block` filled the level by a miss of `loader`'s access (NULL: an
   access not collected, charged to nobody); `victim` (CG_NO_BLOCK: an
   empty way) left it */
void cg_lineuse_fill(CgUseLevel level, UWord block, UWord victim,
                     CostCentre* loader);
/* An access of [addr, addr + size) uses the level's lines it touches
   that are resident (call after the fills of the access) */
void cg_lineuse_use(CgUseLevel level, Addr addr, UWord size);
/* The end of the run: every resident line leaves */
void cg_lineuse_finish(void);

#endif /* CG_LINEUSE_H */
