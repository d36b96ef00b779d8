/* cg_cache.h -- one level of a simulated cache (used for I1, D1, LL).

   Owns: the tag arrays and the LRU replacement of one level.
   Must not: know about cost centres, counters or output; the caller
   decides what a miss means.

   Model: sets = size / (line * assoc); block = addr >> log2(line);
   set = block & (sets - 1); the tag kept is the whole block number.
   Each set is an array of `assoc` tags, most recently used first, all
   zero at start.  Write-allocate, no dirty state: reads and writes are
   simulated the same way.  The lookup is inline because it runs for
   every simulated access. */

#ifndef CG_CACHE_H
#define CG_CACHE_H

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "cg_tool.h"

typedef struct _CacheLevel {
   UWord*       tags;       /* n_sets * assoc block numbers, or NULL */
   UInt*        narrow;     /* or the same in half the memory (see below) */
   Bool         narrow_mapped;  /* `narrow` is an anonymous mapping */
   UWord*       mru;        /* n_sets: a copy of each set's first tag,
                               or NULL if compiled code never reads it */
   UWord        set_mask;   /* n_sets - 1 (n_sets is a power of two) */
   Int          set_bits;   /* log2(n_sets) */
   Int          line_bits;  /* log2(line size) */
   Int          assoc;
   Bool         sim_writes_mru;  /* else whoever reads `mru` keeps it */
   const HChar* name;
} CacheLevel;

/* `mirrored`: keep the MRU mirror that compiled code reads (the L1s;
   LL is only ever reached through the simulator).  `addr_bits`: the
   addresses simulated have at most this many bits (0: any). */
void cg_cache_level_init(CacheLevel* level, const CacheGeometry* geom,
                         const HChar* name, Bool mirrored, Int addr_bits);

/* A new all-zero array of one word per set (the state of a cold
   level's MRU lines), at an address compiled code reaches cheaply. */
UWord* cg_cache_new_mirror(const CacheLevel* level);

/* Where the MRU tag of `block`'s set is mirrored.  The mirror array
   never moves and has one word per set, so compiled code can find a
   set's MRU tag with a shift and a mask (no multiply by the
   associativity). */
static inline UWord* cg_cache_mru_slot(const CacheLevel* level, UWord block)
{
   return level->mru + (block & level->set_mask);
}

/* A large LL keeps its tags in 32 bits: the block number without its
   set-index bits, plus one, so that 0 means "no block" -- every set but
   set 0 starts with no block, set 0 with block 0, which is what all-zero
   block numbers mean.  A block too high to encode (far above any user
   address) converts the level to full-width tags for good. */
Bool cg_cache_narrow_block_missed(CacheLevel* level, UWord block);

/* Touch one block; True if it was not present.  A hit on the MRU way
   changes nothing, so it returns before any loop or store: most
   accesses end there. */
static inline Bool cg_cache_block_missed(CacheLevel* level, UWord block)
{
   UWord set_index = block & level->set_mask;
   UWord* set;
   Int way, k;

   if (level->narrow != NULL)
      return cg_cache_narrow_block_missed(level, block);
   set = level->tags + set_index * level->assoc;
   if (LIKELY(set[0] == block))
      return False;
   if (level->sim_writes_mru)
      level->mru[set_index] = block;
   for (way = 1; way < level->assoc; way++) {
      if (set[way] == block) {
         for (k = way; k > 0; k--)
            set[k] = set[k - 1];
         set[0] = block;
         return False;
      }
   }
   for (k = level->assoc - 1; k > 0; k--)
      set[k] = set[k - 1];
   set[0] = block;
   return True;
}

/* Reference `size` bytes at `addr`.  The size is an 8-bit quantity,
   as in the model we reproduce.  An access that straddles two lines
   touches both (both keep their LRU update) and counts as one miss if
   either missed. */
static inline Bool cg_cache_ref_missed(CacheLevel* level, Addr addr,
                                       UChar size)
{
   UWord first = addr >> level->line_bits;
   UWord last  = (addr + size - 1) >> level->line_bits;

   if (LIKELY(first == last))
      return cg_cache_block_missed(level, first);
   if (last == first + 1) {
      Bool first_missed = cg_cache_block_missed(level, first);
      Bool last_missed  = cg_cache_block_missed(level, last);
      return first_missed || last_missed;
   }
   VG_(tool_panic)("item straddles more than two cache sets");
   return True; /* not reached */
}

#endif /* CG_CACHE_H */
