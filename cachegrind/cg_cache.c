/* cg_cache.c -- set-up of one simulated cache level.  The per-access
   lookup is inline in cg_cache.h. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cg_cache.h"

static Int log2_of_power_of_two(UInt x)
{
   Int bits = 0;
   tl_assert(x != 0 && (x & (x - 1)) == 0);
   while ((1u << bits) != x)
      bits++;
   return bits;
}

/* The MRU mirrors of the L1 caches are read by compiled code on every
   access.  In the tool's own static data they have a 32-bit address,
   which the code generator folds into the load instruction (a heap
   address costs an extra 64-bit constant load and an add). */
#define STATIC_MRU_WORDS (1 << 17)
static UWord static_mru_pool[STATIC_MRU_WORDS];
static UInt  static_mru_used;

static UWord* alloc_mru_mirror(UInt n_sets)
{
   UWord* mirror;

   if (static_mru_used + n_sets <= STATIC_MRU_WORDS) {
      mirror = static_mru_pool + static_mru_used;
      static_mru_used += n_sets;
   } else {
      mirror = VG_(malloc)("cg.cache.mru", n_sets * sizeof(UWord));
   }
   VG_(memset)(mirror, 0, n_sets * sizeof(UWord));
   return mirror;
}

void cg_cache_level_init(CacheLevel* level, const CacheGeometry* geom,
                         const HChar* name)
{
   UInt n_sets = (UInt)geom->size / ((UInt)geom->line_size * geom->assoc);
   SizeT n_tags = (SizeT)n_sets * geom->assoc;

   level->name      = name;
   level->assoc     = geom->assoc;
   level->line_bits = log2_of_power_of_two(geom->line_size);
   level->set_mask  = n_sets - 1;
   tl_assert((n_sets & (n_sets - 1)) == 0);
   level->tags = VG_(malloc)("cg.cache.tags", n_tags * sizeof(UWord));
   VG_(memset)(level->tags, 0, n_tags * sizeof(UWord));
   level->mru = alloc_mru_mirror(n_sets);
}
