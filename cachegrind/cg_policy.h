/* cg_policy.h -- replacement policies other than LRU for a cache level
   (cg_policy.c): --LL-policy=plru|srrip|brrip|random, and
   --I1-policy/--D1-policy=plru|random.

   A level under such a policy keeps its tags in place (full width),
   each with its way's state; it starts empty.  The rules, which the manual (5.7)
   states and tests/refmodel/cgref.c implements independently:
   - A look-up finds the block among the set's valid ways, or it misses
     and the block goes into a victim way: the lowest-numbered invalid
     way if there is one, else the policy's choice.
   - plru (tree pseudo-LRU; a power-of-two associativity): a bit per
     inner node of a binary tree over the ways says in which half the
     next victim is (0: the lower ways); an access to a way, hit or
     fill, sets the bits on its path to point away from it; the victim
     is found by following the bits from the root.
   - srrip (Jaleel et al., ISCA 2010, 2-bit re-reference prediction
     values): a hit sets the way's value to 0, a fill to 2; the victim is
     the lowest-numbered way whose value is 3, after adding 1 to every
     way's value as often as needed for one to reach 3.
   - brrip: as srrip, but a fill sets 3, except once in 32 fills (a
     draw of the generator below that is 0 modulo 32), when it sets 2.
   - random: the victim is the way given by a draw modulo the
     associativity.
   The generator, seeded by --seed=<n>: x = n * 0x9E3779B97F4A7C15 + 1
   (mod 2^64), and each draw x ^= x << 13, x ^= x >> 7, x ^= x << 17
   returns x.  Draws happen only where said above, so the counts are the
   same on every run. */

#ifndef CG_POLICY_H
#define CG_POLICY_H

#include "pub_tool_basics.h"
#include "cg_cache.h"

typedef enum {
   CG_POLICY_LRU,       /* cg_cache.h's own: tags kept in LRU order */
   CG_POLICY_PLRU,
   CG_POLICY_SRRIP,
   CG_POLICY_BRRIP,
   CG_POLICY_RANDOM
} CgPolicy;

typedef struct {
   CgPolicy     policy;
   CacheLevel*  level;      /* its tags, full width, each with its way's
                               state on top (cg_policy.c) */
   UWord*       tree;       /* plru: a word of node bits per set */
   /* plru: what an access to each way does to its set's word, cleared
      then set (a loop over the tree's levels, taken for every look-up,
      was a tenth of matrix_walk's time under --cpu=generic) */
   UWord*       touch_clear;
   UWord*       touch_set;
   ULong        rng;
} PolicyLevel;

/* The policy of a name (False if there is none). */
Bool cg_policy_from_name(const HChar* name, CgPolicy* policy);
/* NULL if `policy` can run on a level of `assoc` ways, else why not. */
const HChar* cg_policy_unsupported(CgPolicy policy, Int assoc);

/* Before any access: `level` is given full-width tags and starts empty. */
void cg_policy_init(PolicyLevel* p, CacheLevel* level, CgPolicy policy,
                    ULong seed);
/* As cg_cache_ref_missed: [addr, addr + size) looked up, a block or
   two; True if either missed. */
Bool cg_policy_ref_missed(PolicyLevel* p, Addr addr, UChar size);

/* For the general path (cg_hierarchy.c), as cg_cache.h's functions of
   the same names: one block looked up (CG_LOOKUP_* bits), and on a miss
   the block evicted (a prefetch's look-up of a block that is there
   changes nothing); a block removed (its way becomes empty), True if it
   was there. */
UInt cg_policy_block_lookup(PolicyLevel* p, UWord block, CgLookupKind kind,
                            Bool write, UWord* victim);
Bool cg_policy_block_invalidate(PolicyLevel* p, UWord block);

#endif /* CG_POLICY_H */
