/* cg_inclusion.c -- the hierarchy under --LL-inclusion=inclusive or
   exclusive (cg_inclusion.h states the rules).

   Owns: the levels' victims and the removals the modes make, and the
   MRU mirrors of the L1s when it removes a line they show.
   Must not: run for the default mode (nine), which cg_sim.c simulates
   on its own fast path.

   Why it is shaped so: the modes are options for modelling.  An access
   takes one plain path through every level, victims included, and
   cg_sim.c reaches it by the branch it already takes for an L1 under a
   policy.  inclusive runs without the access log (cg_main.c): a removal
   from an L1 changes what compiled code's MRU filter may skip, and only
   a model that keeps the mirror itself can tell it (a removed MRU line's
   slot gets CG_NO_BLOCK's value, which no access matches). */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "cg_inclusion.h"
#include "cg_tool.h"

enum { LEVEL_I1, LEVEL_D1, LEVEL_L2, LEVEL_LL, N_LEVELS };

static CgInclusion mode;
static CgSimLevel levels[N_LEVELS];
static Bool has_l2;

static const HChar* const mode_names[] = { "nine", "inclusive", "exclusive" };

Bool cg_inclusion_from_name(const HChar* name, CgInclusion* out)
{
   UInt i;

   for (i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++)
      if (VG_(strcmp)(name, mode_names[i]) == 0) {
         *out = (CgInclusion)i;
         return True;
      }
   return False;
}

const HChar* cg_inclusion_name(CgInclusion m)
{
   return mode_names[m];
}

void cg_inclusion_init(CgInclusion m, CgSimLevel i1, CgSimLevel d1,
                       const CgSimLevel* l2, CgSimLevel ll)
{
   Int i;

   tl_assert(m != CG_INCLUSION_NINE);
   mode = m;
   levels[LEVEL_I1] = i1;
   levels[LEVEL_D1] = d1;
   levels[LEVEL_LL] = ll;
   has_l2 = l2 != NULL;
   if (has_l2)
      levels[LEVEL_L2] = *l2;
   for (i = 0; i < N_LEVELS; i++)
      if (i != LEVEL_L2 || has_l2)
         /* A policy level is empty already (cg_policy_init) */
         if (levels[i].policy == NULL)
            cg_cache_level_start_empty(levels[i].cache);
}

/*------------------------------------------------------------*/
/*--- One level                                            ---*/
/*------------------------------------------------------------*/

static Bool block_lookup(CgSimLevel* l, UWord block, UWord* victim)
{
   CacheLevel* c = l->cache;
   Bool missed = l->policy != NULL
                 ? cg_policy_block_lookup(l->policy, block, victim)
                 : cg_cache_block_lookup(c, block, victim);

   /* Without the log the model keeps the mirror: the line just
      accessed is what compiled code may skip next (cg_cache.h) */
   if (c->sim_writes_mru)
      *cg_cache_mru_slot(c, block) = cg_cache_mru_value(c, block);
   return missed;
}

static Bool block_remove(CgSimLevel* l, UWord block)
{
   CacheLevel* c = l->cache;
   Bool removed = l->policy != NULL
                  ? cg_policy_block_invalidate(l->policy, block)
                  : cg_cache_block_invalidate(c, block);

   if (removed && c->sim_writes_mru
       && *cg_cache_mru_slot(c, block) == cg_cache_mru_value(c, block))
      *cg_cache_mru_slot(c, block) = cg_cache_mru_value(c, CG_NO_BLOCK);
   return removed;
}

/* The blocks of [addr, addr + size) in `l`'s lines: one, or two for a
   straddle (sizes are 8-bit, as in cg_cache_ref_missed). */
static Int blocks_of(const CgSimLevel* l, Addr addr, UWord size,
                     UWord blocks[2])
{
   Int bits = l->cache->line_bits;

   blocks[0] = addr >> bits;
   blocks[1] = (addr + (UChar)size - 1) >> bits;
   if (blocks[1] == blocks[0])
      return 1;
   if (blocks[1] != blocks[0] + 1)
      VG_(tool_panic)("item straddles more than two cache sets");
   return 2;
}

/* A look-up of the access's blocks; True if either missed.  The valid
   victims go to `victims` (at most two). */
static Bool access_level(CgSimLevel* l, Addr addr, UWord size,
                         UWord victims[2], Int* n_victims)
{
   UWord blocks[2], victim;
   Int n = blocks_of(l, addr, size, blocks), i;
   Bool missed = False;

   *n_victims = 0;
   for (i = 0; i < n; i++) {
      if (block_lookup(l, blocks[i], &victim)) {
         missed = True;
         if (victim != CG_NO_BLOCK)
            victims[(*n_victims)++] = victim;
      }
   }
   return missed;
}

/*------------------------------------------------------------*/
/*--- LL under each mode                                   ---*/
/*------------------------------------------------------------*/

/* inclusive: the lines of every upper level inside LL's line `block` */
static void remove_from_upper_levels(UWord ll_block)
{
   Int ll_bits = levels[LEVEL_LL].cache->line_bits;
   Int i;

   for (i = LEVEL_I1; i <= LEVEL_L2; i++) {
      CgSimLevel* l = &levels[i];
      Int bits;
      UWord b, from, to;

      if (i == LEVEL_L2 && !has_l2)
         continue;
      bits = l->cache->line_bits;
      if (bits <= ll_bits) {
         from = ll_block << (ll_bits - bits);
         to = (ll_block + 1) << (ll_bits - bits);
      } else {
         from = ll_block >> (bits - ll_bits);
         to = from + 1;
      }
      for (b = from; b < to; b++)
         block_remove(l, b);
   }
}

static Bool ll_inclusive(Addr addr, UWord size)
{
   CgSimLevel* ll = &levels[LEVEL_LL];
   UWord blocks[2], victim;
   Int n = blocks_of(ll, addr, size, blocks), i;
   Bool missed = False;

   for (i = 0; i < n; i++)
      if (block_lookup(ll, blocks[i], &victim)) {
         missed = True;
         if (victim != CG_NO_BLOCK)
            remove_from_upper_levels(victim);
      }
   return missed;
}

/* exclusive: found lines leave LL; then the upper level's victims come
   in (a look-up each, whose own victim is dropped) */
static Bool ll_exclusive(Addr addr, UWord size, const UWord* victims,
                         Int n_victims)
{
   CgSimLevel* ll = &levels[LEVEL_LL];
   UWord blocks[2], dropped;
   Int n = blocks_of(ll, addr, size, blocks), i;
   Bool missed = False;

   for (i = 0; i < n; i++)
      if (!block_remove(ll, blocks[i]))
         missed = True;
   for (i = 0; i < n_victims; i++)
      block_lookup(ll, victims[i], &dropped);
   return missed;
}

UWord cg_inclusion_access(const CacheLevel* l1_cache, CostCentre* cc,
                          Addr addr, UWord size, UWord first, UWord counted)
{
   CgSimLevel* l1 = l1_cache == levels[LEVEL_I1].cache ? &levels[LEVEL_I1]
                                                        : &levels[LEVEL_D1];
   UWord victims[2];
   Int n_victims;
   Bool ll_missed;

   if (!access_level(l1, addr, size, victims, &n_victims))
      return 0;
   cc->count[first + 1] += counted;
   if (has_l2) {
      if (!access_level(&levels[LEVEL_L2], addr, size, victims, &n_victims))
         return 1;
      cc->count[cg_l2_miss_event(first)] += counted;
   }
   ll_missed = mode == CG_INCLUSION_INCLUSIVE
               ? ll_inclusive(addr, size)
               : ll_exclusive(addr, size, victims, n_victims);
   if (!ll_missed)
      return 1;
   cc->count[first + 2] += counted;
   return 2;
}
