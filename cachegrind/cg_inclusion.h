/* cg_inclusion.h -- the hierarchy under --LL-inclusion=inclusive or
   exclusive (cg_inclusion.c).

   The rules, which the manual (5.9) states and tests/refmodel/cgref.c
   implements independently:
   - Every level starts empty, and a fill that takes a valid way's place
     evicts that way's line (the victim).
   - nine (the default, Cachegrind 3.19's): nothing more; cg_sim.c's own
     path, not this module, simulates it.
   - inclusive: whenever LL evicts a line, every line of I1, D1 and L2
     that lies in it is removed too, at once.
   - exclusive: LL is filled only with the victims of the level above it
     (L2, or without one the L1 the access went through): a look-up of
     LL that finds a line removes it from LL (a hit), one that does not
     is a miss and fills nothing; then each victim of that level's fills
     for this access, in order, is put in LL as a look-up would (a line
     already there is touched), LL's own victim being dropped.  LL's line
     size must equal that level's (the L1s' without L2). */

#ifndef CG_INCLUSION_H
#define CG_INCLUSION_H

#include "pub_tool_basics.h"
#include "cg_cache.h"
#include "cg_costs.h"
#include "cg_policy.h"

typedef enum {
   CG_INCLUSION_NINE,        /* non-inclusive non-exclusive: 3.19's */
   CG_INCLUSION_INCLUSIVE,
   CG_INCLUSION_EXCLUSIVE
} CgInclusion;

/* A level as the modes see it: its tags, and its policy (NULL: LRU). */
typedef struct {
   CacheLevel*  cache;
   PolicyLevel* policy;
} CgSimLevel;

/* The mode of a name (False if there is none), and a name's mode. */
Bool cg_inclusion_from_name(const HChar* name, CgInclusion* mode);
const HChar* cg_inclusion_name(CgInclusion mode);

/* Before any access; `l2` NULL without a middle level.  Starts every
   level empty. */
void cg_inclusion_init(CgInclusion mode, CgSimLevel i1, CgSimLevel d1,
                       const CgSimLevel* l2, CgSimLevel ll);
/* One access through `l1` (I1's or D1's cache) and the levels below,
   its misses counted as cg_sim.c's below_l1 counts them; returns 0 for
   an L1 hit, 1 for a hit below L1, 2 for an LL miss. */
UWord cg_inclusion_access(const CacheLevel* l1, CostCentre* cc, Addr addr,
                          UWord size, UWord first, UWord counted);

#endif /* CG_INCLUSION_H */
