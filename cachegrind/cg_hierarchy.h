/* cg_hierarchy.h -- the general path through the cache hierarchy: the
   inclusion modes (--LL-inclusion=inclusive|exclusive) and the
   prefetchers (--D1-prefetch, --L2-prefetch, --LL-prefetch)
   (cg_hierarchy.c).  cg_sim.c's own path simulates everything else.

   The inclusion rules, which the manual (5.9) states and
   tests/refmodel/cgref.c implements independently:
   - Under inclusive or exclusive every level starts empty, and a fill
     that takes a valid way's place evicts that way's line (the victim).
   - nine (the default, Cachegrind 3.19's): nothing more.
   - inclusive: whenever LL evicts a line, every line of I1, D1 and L2
     that lies in it is removed too, at once.
   - exclusive: LL is filled only with the victims of the level above it
     (L2, or without one the L1 the access went through): a look-up of
     LL that finds a line removes it from LL (a hit), one that does not
     is a miss and fills nothing; then each victim of that level's fills
     for this access, in order, is put in LL as a look-up would (a line
     already there is touched), LL's own victim being dropped.  LL's line
     size must equal that level's (the L1s' without L2).
   The prefetchers' (manual 5.10; which lines: cg_prefetch.h), under
   nine only:
   - After an access is done at every level it reached, each of those
     levels that has a prefetcher, from the top down, fetches the lines
     its prefetcher names, in order.
   - A line already in the level is not fetched.  Else the prefetch is
     issued (the level's pf event, charged to the access's line): the
     line fills the level, marked, and the block holding its first byte
     is looked up in the levels below, down to the first that has it
     (a miss fills it, unmarked, no miss counted; a hit touches it and
     ends the pass).
   - A demand access that hits a marked line takes the mark off and
     counts the level's pfu event (a useful prefetch).
   Write-backs (--simulate-wb, manual 5.12; under nine only):
   - A write or a modify makes its D1 line(s) dirty (L1s write back and
     allocate on a write); a line comes in clean otherwise.
   - A look-up that evicts a dirty line writes it back at once: into
     the level below (L2, else LL), looked up there as a prefetch's pass
     is, making the line dirty; from LL, to memory.  Each counts a
     write-back of the level it left.
   - A demand access's LL miss whose fill evicted a dirty line counts
     ILdmr, DLdmr or DLdmw (by the access's kind).
   Line use (--cacheuse, manual 5.13; under nine, no prefetchers): the
   L1s' and LL's fills and victims, and every access's use of its lines
   there, go to cg_lineuse.c. */

#ifndef CG_HIERARCHY_H
#define CG_HIERARCHY_H

#include "pub_tool_basics.h"
#include "cg_cache.h"
#include "cg_costs.h"
#include "cg_policy.h"
#include "cg_prefetch.h"

typedef enum {
   CG_INCLUSION_NINE,        /* non-inclusive non-exclusive: 3.19's */
   CG_INCLUSION_INCLUSIVE,
   CG_INCLUSION_EXCLUSIVE
} CgInclusion;

/* A level as the general path sees it: its tags, its policy (NULL:
   LRU) and its prefetcher. */
typedef struct {
   CacheLevel*    cache;
   PolicyLevel*   policy;
   CgPrefetchKind prefetch;
} CgSimLevel;

/* The mode of a name (False if there is none). */
Bool cg_inclusion_from_name(const HChar* name, CgInclusion* mode);

/* Before any access; `l2` NULL without a middle level.  The inclusion
   modes start every level empty. */
/* `write_back`: --simulate-wb (dirty lines, write-backs; under nine).
   `line_use`: --cacheuse (cg_lineuse.h; under nine, no prefetchers) */
void cg_hierarchy_init(CgInclusion mode, CgSimLevel i1, CgSimLevel d1,
                       const CgSimLevel* l2, CgSimLevel ll, Bool write_back,
                       Bool line_use);
/* One access through `l1` (I1's or D1's cache) and the levels below,
   its misses counted as cg_sim.c's below_l1 counts them; returns 0 for
   an L1 hit, 1 for a hit below L1, 2 for an LL miss.  `pc`: the
   access's instruction (a stride prefetcher's index), or 0. */
UWord cg_hierarchy_access(const CacheLevel* l1, CostCentre* cc, Addr addr,
                          UWord size, UWord first, UWord counted, Bool write,
                          Addr pc);
/* The same for an access that missed its L1 (counted by the caller),
   from the level below it: under nine, when only levels below the L1s
   have prefetchers, none of them stride.  Returns 1 or 2. */
UWord cg_hierarchy_below_l1(CostCentre* cc, Addr addr, UWord size,
                            UWord first, UWord counted);

/* The split (cg_sim.c, design.md 2.14): an access's look-ups in its L1
   (cg_hierarchy_l1_stage, in the client thread at a chunk's hand-over)
   and below it (cg_hierarchy_below_stage, in the simulator thread,
   later), the first telling the second what to do in CG_SPLIT_* bits:
   whether the L1 missed (counted by the first), and which lines of the
   L1's next-line prefetcher filled it (each passed down by the second).
   Possible when cg_hierarchy_can_split: under nine, without write-backs
   or line use, and with no L1 prefetcher other than D1's next-line. */
#define CG_SPLIT_MISSED          1
#define CG_SPLIT_PASS_NEXT       2   /* the L1 line after the first's */
#define CG_SPLIT_PASS_AFTER_NEXT 4   /* the one after that */
Bool  cg_hierarchy_can_split(void);
UWord cg_hierarchy_l1_stage(const CacheLevel* l1, CostCentre* cc, Addr addr,
                            UWord size, UWord first);
void  cg_hierarchy_below_stage(const CacheLevel* l1, CostCentre* cc,
                               Addr addr, UWord size, UWord first,
                               UWord flags);
/* --simulate-wb: lines written back from level 0 I1, 1 D1, 2 L2, 3 LL
   (to memory) */
ULong cg_hierarchy_write_backs(Int level);

#endif /* CG_HIERARCHY_H */
