/* cg_hierarchy.c -- the general path through the cache hierarchy
   (cg_hierarchy.h states the rules): the inclusion modes and the
   prefetchers.

   Owns: the levels' victims, removals, prefetch fills and marks, and the
   MRU mirrors of the L1s when it changes a set behind compiled code's
   back.
   Must not: run for 3.19's model, which cg_sim.c simulates on its own
   fast path.

   Why it is shaped so: these are options for modelling.  An access
   takes one plain path through every level, victims and marks included,
   and cg_sim.c reaches it by the branch it already takes for an L1
   under a policy (or, with prefetchers below the L1s only, by the one
   it takes below L1 for a middle level).  Compiled code's MRU filter
   skips an access to its set's last-accessed line; whatever else
   changes an L1 set must be seen by it: such runs have no access log
   (cg_main.c), and the model writes a changed set's mirror slot with
   CG_NO_BLOCK's value, which no access matches (a removed MRU line
   under inclusive, a prefetch fill into D1). */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "cg_hierarchy.h"
#include "cg_lineuse.h"
#include "cg_tool.h"

enum { LEVEL_I1, LEVEL_D1, LEVEL_L2, LEVEL_LL, N_LEVELS };

/* A line of its own each: the simulator thread writes L2's stream
   prefetcher state at every L2 access, which sat on the line of D1's
   pf_event that the client thread reads at every D1 prefetch under
   --sim-split (a quarter of that thread's time on matrix_walk). */
typedef struct {
   CacheLevel*  cache;
   PolicyLevel* policy;        /* NULL: LRU */
   Bool         has_prefetcher;
   UInt         pf_event;      /* its issued prefetches; useful ones + 1 */
   CgPrefetcher prefetcher;
} CG_OWN_LINE Level;

/* What one access did at a level, for its prefetcher */
typedef struct {
   Int   level;
   UWord triggers[2];          /* blocks that missed or hit a marked line */
   Int   n_triggers;
} Step;

static CgInclusion mode;
static Level levels[N_LEVELS];
static Bool has_l2;
/* --simulate-wb: dirty lines written back, per level (LL's go to
   memory) */
static Bool write_back;
static ULong write_backs[N_LEVELS];
/* --cacheuse: each level's cg_lineuse.c level, or -1 (L2: untracked) */
static Bool line_use;
static const Int use_level_of[N_LEVELS] = {
   CG_USE_I1, CG_USE_D1, -1, CG_USE_LL
};

static const HChar* const mode_names[] = { "nine", "inclusive", "exclusive" };

Bool cg_inclusion_from_name(const HChar* name, CgInclusion* out)
{
   Int i = cg_name_index(mode_names,
                         sizeof mode_names / sizeof mode_names[0], name);

   if (i < 0)
      return False;
   *out = (CgInclusion)i;
   return True;
}

static void set_level(Int i, CgSimLevel l, UInt pf_event)
{
   levels[i].cache = l.cache;
   levels[i].policy = l.policy;
   levels[i].pf_event = pf_event;
   levels[i].has_prefetcher = l.prefetch != CG_PREFETCH_NONE;
   cg_prefetch_init(&levels[i].prefetcher, l.prefetch, l.cache->line_bits);
   /* Victims and marks need full tags (a policy's are already); the
      inclusion modes start every level empty */
   if (l.policy == NULL) {
      if (mode != CG_INCLUSION_NINE)
         cg_cache_level_start_empty(l.cache);
      else
         cg_cache_level_use_full_tags(l.cache);
   }
}

static void track_use(Int i)
{
   const CacheLevel* c = levels[i].cache;

   cg_lineuse_init(use_level_of[i], c->line_bits, c->set_mask + 1,
                   c->assoc);
}

void cg_hierarchy_init(CgInclusion m, CgSimLevel i1, CgSimLevel d1,
                       const CgSimLevel* l2, CgSimLevel ll, Bool wb,
                       Bool use)
{
   mode = m;
   write_back = wb;
   line_use = use;
   has_l2 = l2 != NULL;
   set_level(LEVEL_I1, i1, 0);
   set_level(LEVEL_D1, d1, EV_D1_PF);
   if (has_l2)
      set_level(LEVEL_L2, *l2, EV_L2_PF);
   set_level(LEVEL_LL, ll, EV_LL_PF);
   if (line_use) {
      track_use(LEVEL_I1);
      track_use(LEVEL_D1);
      track_use(LEVEL_LL);
   }
}

/*------------------------------------------------------------*/
/*--- One level                                            ---*/
/*------------------------------------------------------------*/

static void write_back_from(Level* l, UWord block);

/* block_lookup, blocks_of, demand, prefetch and run_prefetchers are
   inlined into access_from: as calls within calls they were a quarter
   of matrix_walk's time under --cpu=generic (2.29 -> 1.60 s with the
   policies' inlined searches, design.md 2.14). */

/* A look-up; `write` makes the line dirty.  A dirty line it evicts is
   written back at once (CG_LOOKUP_VICTIM_DIRTY says so). */
static inline __attribute__((always_inline))
UInt block_lookup(Level* l, UWord block, CgLookupKind kind, Bool write,
                  UWord* victim)
{
   CacheLevel* c = l->cache;
   UInt outcome = l->policy != NULL
                  ? cg_policy_block_lookup(l->policy, block, kind, write,
                                           victim)
                  : cg_cache_block_lookup(c, block, kind, write, victim);

   if (outcome & CG_LOOKUP_VICTIM_DIRTY)
      write_back_from(l, *victim);

   /* Without the log the model keeps the mirror: after a demand access,
      its line is what compiled code may skip next (cg_cache.h); after a
      prefetch fill, nothing in the set may be skipped */
   if (c->sim_writes_mru && !(outcome & CG_LOOKUP_PRESENT))
      *cg_cache_mru_slot(c, block)
         = cg_cache_mru_value(c, kind == CG_LOOKUP_DEMAND ? block
                                                          : CG_NO_BLOCK);
   return outcome;
}

/* A dirty line leaves `l`: it is written into the level below (a look-up
   that makes it dirty there, as a prefetch's pass does: no miss is
   counted), or from LL to memory. */
static void write_back_from(Level* l, UWord block)
{
   Int i = (Int)(l - levels), below;
   UWord victim;
   Level* b;

   write_backs[i]++;
   if (i == LEVEL_LL)
      return;
   below = i < LEVEL_L2 && has_l2 ? LEVEL_L2 : LEVEL_LL;
   b = &levels[below];
   block_lookup(b, (block << l->cache->line_bits) >> b->cache->line_bits,
                CG_LOOKUP_PASS, True, &victim);
}

ULong cg_hierarchy_write_backs(Int level)
{
   return write_backs[level];
}

static Bool block_remove(Level* l, UWord block)
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
static inline __attribute__((always_inline))
Int blocks_of(const Level* l, Addr addr, UWord size, UWord blocks[2])
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

/* A demand look-up of the access's blocks in level `i`; True if either
   missed.  Victims go to `victims` (at most two), and what the level's
   prefetcher needs to `step`; a hit on a marked line counts as a useful
   prefetch. */
static inline __attribute__((always_inline))
Bool demand(Int i, CostCentre* cc, UWord counted, Addr addr, UWord size,
            Bool write, UWord first, UWord victims[2], Int* n_victims,
            Step* step)
{
   Level* l = &levels[i];
   UWord blocks[2], victim;
   Int n = blocks_of(l, addr, size, blocks), k;
   Bool missed = False, wrote_back = False;

   *n_victims = 0;
   step->level = i;
   step->n_triggers = 0;
   for (k = 0; k < n; k++) {
      UInt outcome = block_lookup(l, blocks[k], CG_LOOKUP_DEMAND, write,
                                  &victim);
      if (outcome & CG_LOOKUP_MISSED) {
         missed = True;
         if (victim != CG_NO_BLOCK)
            victims[(*n_victims)++] = victim;
         if (line_use && use_level_of[i] >= 0)
            cg_lineuse_fill(use_level_of[i], blocks[k], victim,
                            counted ? cc : NULL);
      }
      wrote_back |= (outcome & CG_LOOKUP_VICTIM_DIRTY) != 0;
      if (outcome & CG_LOOKUP_WAS_MARKED)
         cc->count[l->pf_event + 1] += counted;
      if (outcome & (CG_LOOKUP_MISSED | CG_LOOKUP_WAS_MARKED))
         step->triggers[step->n_triggers++] = blocks[k];
   }
   /* An LL miss whose fills wrote a dirty line back to memory: one
      count an access */
   if (i == LEVEL_LL && wrote_back)
      cc->count[cg_ll_dirty_miss_event(first)] += counted;
   return missed;
}

/*------------------------------------------------------------*/
/*--- LL under each inclusion mode                         ---*/
/*------------------------------------------------------------*/

/* inclusive: the lines of every upper level inside LL's line `block` */
static void remove_from_upper_levels(UWord ll_block)
{
   Int ll_bits = levels[LEVEL_LL].cache->line_bits;
   Int i;

   for (i = LEVEL_I1; i <= LEVEL_L2; i++) {
      Level* l = &levels[i];
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
   Level* ll = &levels[LEVEL_LL];
   UWord blocks[2], victim;
   Int n = blocks_of(ll, addr, size, blocks), i;
   Bool missed = False;

   for (i = 0; i < n; i++)
      if (block_lookup(ll, blocks[i], CG_LOOKUP_DEMAND, False, &victim)
          & CG_LOOKUP_MISSED) {
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
   Level* ll = &levels[LEVEL_LL];
   UWord blocks[2], dropped;
   Int n = blocks_of(ll, addr, size, blocks), i;
   Bool missed = False;

   for (i = 0; i < n; i++)
      if (!block_remove(ll, blocks[i]))
         missed = True;
   for (i = 0; i < n_victims; i++)
      block_lookup(ll, victims[i], CG_LOOKUP_DEMAND, False, &dropped);
   return missed;
}

/*------------------------------------------------------------*/
/*--- Prefetches                                           ---*/
/*------------------------------------------------------------*/

/* A prefetch of level `i`'s line `block` that filled it: the levels
   below it, down to the first that has the line */
static inline __attribute__((always_inline))
void prefetch_pass(Int i, UWord block)
{
   Addr addr = block << levels[i].cache->line_bits;
   UWord victim;
   Int below;

   for (below = i < LEVEL_L2 ? LEVEL_L2 : i + 1; below <= LEVEL_LL; below++) {
      Level* b = &levels[below];
      if (below == LEVEL_L2 && !has_l2)
         continue;
      /* The line comes from the nearest level that has it, as a demand
         miss's does: the levels below that one are not disturbed (and
         not looked at: for a large LL that look-up is what costs) */
      if (!(block_lookup(b, addr >> b->cache->line_bits, CG_LOOKUP_PASS,
                         False, &victim) & CG_LOOKUP_MISSED))
         break;
   }
}

/* One look-up: it finds the line (no prefetch; False) or fills it */
static inline __attribute__((always_inline))
Bool prefetch_fill(Int i, UWord block, CostCentre* cc, UWord counted)
{
   Level* l = &levels[i];
   UWord victim;

   if (block_lookup(l, block, CG_LOOKUP_PREFETCH, False, &victim)
       & CG_LOOKUP_PRESENT)
      return False;
   cc->count[l->pf_event] += counted;
   return True;
}

static inline __attribute__((always_inline))
void prefetch(Int i, UWord block, CostCentre* cc, UWord counted)
{
   if (prefetch_fill(i, block, cc, counted))
      prefetch_pass(i, block);
}

static inline __attribute__((always_inline))
void run_prefetchers(const Step* steps, Int n_steps, Addr addr, Addr pc,
                     CostCentre* cc, UWord counted)
{
   Int s;

   for (s = 0; s < n_steps; s++) {
      Level* l = &levels[steps[s].level];
      UWord lines[2];
      Int n, k;

      if (!l->has_prefetcher)
         continue;
      n = cg_prefetch_lines(&l->prefetcher, addr, pc, steps[s].triggers,
                            steps[s].n_triggers, lines);
      for (k = 0; k < n; k++)
         prefetch(steps[s].level, lines[k], cc, counted);
   }
}

/*------------------------------------------------------------*/
/*--- An access                                            ---*/
/*------------------------------------------------------------*/

/* From level `top` (an L1, or below one whose miss is counted) down;
   `write`: the access writes (a write or a modify: it dirties its L1
   line under --simulate-wb); `pc`: its instruction's address, for a
   stride prefetcher (0 where none needs it) */
/* The demand look-ups below the L1s of an access that missed its L1
   (counted): L2, then LL; returns 1 or 2 as access_from.  `victims`
   holds the L1's, if any. */
static inline __attribute__((always_inline))
UWord demand_below_l1(CostCentre* cc, Addr addr, UWord size, UWord first,
                      UWord counted, UWord victims[2], Int* n_victims,
                      Step* steps, Int* n_steps)
{
   Bool ll_missed;

   if (has_l2) {
      if (!demand(LEVEL_L2, cc, counted, addr, size, False, first, victims,
                  n_victims, &steps[(*n_steps)++]))
         return 1;
      cc->count[cg_l2_miss_event(first)] += counted;
   }
   switch (mode) {
   case CG_INCLUSION_INCLUSIVE:
      ll_missed = ll_inclusive(addr, size);
      break;
   case CG_INCLUSION_EXCLUSIVE:
      ll_missed = ll_exclusive(addr, size, victims, *n_victims);
      break;
   default:
      ll_missed = demand(LEVEL_LL, cc, counted, addr, size, False, first,
                         victims, n_victims, &steps[(*n_steps)++]);
      break;
   }
   if (ll_missed) {
      cc->count[first + 2] += counted;
      return 2;
   }
   return 1;
}

static UWord access_from(Int top, CostCentre* cc, Addr addr, UWord size,
                         UWord first, UWord counted, Bool write, Addr pc)
{
   Step steps[N_LEVELS];
   Int n_steps = 0, n_victims = 0;
   UWord victims[2];
   UWord outcome = 0;

   if (top <= LEVEL_D1) {
      if (!demand(top, cc, counted, addr, size, write && write_back, first,
                  victims, &n_victims, &steps[n_steps++]))
         goto done;
      cc->count[first + 1] += counted;
   }
   outcome = demand_below_l1(cc, addr, size, first, counted, victims,
                             &n_victims, steps, &n_steps);
done:
   /* Every access uses its lines in its L1 and in LL, whichever level
      it hit (cg_lineuse.c ignores a line LL does not hold) */
   if (line_use && top <= LEVEL_D1) {
      cg_lineuse_use(use_level_of[top], addr, size);
      cg_lineuse_use(CG_USE_LL, addr, size);
   }
   run_prefetchers(steps, n_steps, addr, pc, cc, counted);
   return outcome;
}

/* --cacheuse: every access comes here, most of them to the line their
   LRU L1 set used last.  Such a hit changes nothing in the caches (no
   marks or dirty bits: line use runs without prefetchers and
   write-backs), so only its uses are recorded. */
static Bool line_use_mru_hit(Int top, Addr addr, UWord size)
{
   const Level* l = &levels[top];
   const CacheLevel* c = l->cache;
   UWord block = addr >> c->line_bits;

   if (l->policy != NULL
       || ((addr + (UChar)size - 1) >> c->line_bits) != block
       || c->tags[(block & c->set_mask) * c->assoc] != block)
      return False;
   cg_lineuse_use(use_level_of[top], addr, size);
   cg_lineuse_use(CG_USE_LL, addr, size);
   return True;
}

UWord cg_hierarchy_access(const CacheLevel* l1, CostCentre* cc, Addr addr,
                          UWord size, UWord first, UWord counted, Bool write,
                          Addr pc)
{
   Int top = l1 == levels[LEVEL_I1].cache ? LEVEL_I1 : LEVEL_D1;

   if (line_use && line_use_mru_hit(top, addr, size))
      return 0;
   return access_from(top, cc, addr, size, first, counted, write, pc);
}

UWord cg_hierarchy_below_l1(CostCentre* cc, Addr addr, UWord size,
                            UWord first, UWord counted)
{
   return access_from(has_l2 ? LEVEL_L2 : LEVEL_LL, cc, addr, size, first,
                      counted, False, 0);
}

/*------------------------------------------------------------*/
/*--- The split: the L1s in one thread, the rest in another ---*/
/*------------------------------------------------------------*/

/* Per level, the order of look-ups is access_from's: at the L1, the
   demand then the prefetcher's fills; below, the demand, then the
   passes of the L1's fills, then the lower levels' prefetchers.  Only
   the order across levels differs, and levels under nine share no
   state. */
Bool cg_hierarchy_can_split(void)
{
   return mode == CG_INCLUSION_NINE && !write_back && !line_use
          && levels[LEVEL_I1].prefetcher.kind == CG_PREFETCH_NONE
          && (levels[LEVEL_D1].prefetcher.kind == CG_PREFETCH_NONE
              || levels[LEVEL_D1].prefetcher.kind == CG_PREFETCH_NEXT_LINE);
}

#if defined(VGA_amd64)
/* The stage of an LRU L1 whose sets are looked up with AVX2 (8, 12 or
   16 ways: every preset's), its look-ups inline: through demand and
   prefetch, calls within calls to the vector code took half of the
   client thread's time on matrix_walk. */
static inline __attribute__((always_inline)) CG_AVX2
UWord lru_l1_stage(Level* l, CostCentre* cc, Addr addr, UWord size,
                   UWord first, Int vectors)
{
   CacheLevel* c = l->cache;
   UWord blocks[2], victim, flags = 0;
   UInt triggered = 0;            /* bit k: blocks[k] missed or was marked */
   Int n = blocks_of(l, addr, size, blocks), k;

   for (k = 0; k < n; k++) {
      UInt outcome = cg_cache_lru_lookup_vectors(
                        c->tags + (blocks[k] & c->set_mask) * c->assoc,
                        vectors, blocks[k], CG_LOOKUP_DEMAND, False, &victim);
      if (outcome & CG_LOOKUP_MISSED)
         flags = CG_SPLIT_MISSED;
      if (outcome & CG_LOOKUP_WAS_MARKED)
         cc->count[l->pf_event + 1]++;
      if (outcome & (CG_LOOKUP_MISSED | CG_LOOKUP_WAS_MARKED))
         triggered |= 1u << k;
   }
   if (flags != 0)
      cc->count[first + 1]++;
   if (!l->has_prefetcher)
      return flags;
   /* next-line: the line after each trigger, in order */
   for (k = 0; k < n; k++) {
      UWord line = blocks[k] + 1;
      if (!(triggered & (1u << k))
          || (cg_cache_lru_lookup_vectors(
                 c->tags + (line & c->set_mask) * c->assoc, vectors, line,
                 CG_LOOKUP_PREFETCH, False, &victim) & CG_LOOKUP_PRESENT))
         continue;
      cc->count[l->pf_event]++;
      flags |= k == 0 ? CG_SPLIT_PASS_NEXT : CG_SPLIT_PASS_AFTER_NEXT;
   }
   return flags;
}

static CG_AVX2 __attribute__((noinline))
UWord lru_l1_stage_any(Level* l, CostCentre* cc, Addr addr, UWord size,
                       UWord first)
{
   switch (l->cache->search_vectors) {
   case 2:  return lru_l1_stage(l, cc, addr, size, first, 2);
   case 3:  return lru_l1_stage(l, cc, addr, size, first, 3);
   default: return lru_l1_stage(l, cc, addr, size, first, 4);
   }
}
#endif

UWord cg_hierarchy_l1_stage(const CacheLevel* l1, CostCentre* cc, Addr addr,
                            UWord size, UWord first)
{
   Int top = l1 == levels[LEVEL_I1].cache ? LEVEL_I1 : LEVEL_D1;
   Level* l = &levels[top];
   UWord victims[2], lines[2], flags = 0;
   UWord block = addr >> l->cache->line_bits;
   Int n_victims, n, k;
   Step step;

#if defined(VGA_amd64)
   if (l->policy == NULL && l->cache->search_vectors != 0)
      return lru_l1_stage_any(l, cc, addr, size, first);
#endif

   if (demand(top, cc, 1, addr, size, False, first, victims, &n_victims,
              &step)) {
      cc->count[first + 1]++;
      flags = CG_SPLIT_MISSED;
   }
   if (!l->has_prefetcher)
      return flags;
   /* next-line: the lines after the access's one or two */
   n = cg_prefetch_lines(&l->prefetcher, addr, 0, step.triggers,
                         step.n_triggers, lines);
   for (k = 0; k < n; k++)
      if (prefetch_fill(top, lines[k], cc, 1))
         flags |= lines[k] == block + 1 ? CG_SPLIT_PASS_NEXT
                                        : CG_SPLIT_PASS_AFTER_NEXT;
   return flags;
}

void cg_hierarchy_below_stage(const CacheLevel* l1, CostCentre* cc,
                              Addr addr, UWord size, UWord first,
                              UWord flags)
{
   Int top = l1 == levels[LEVEL_I1].cache ? LEVEL_I1 : LEVEL_D1;
   UWord block = addr >> levels[top].cache->line_bits;
   Step steps[N_LEVELS];
   Int n_steps = 0, n_victims = 0;
   UWord victims[2];

   if (flags & CG_SPLIT_MISSED)
      demand_below_l1(cc, addr, size, first, 1, victims, &n_victims, steps,
                      &n_steps);
   if (flags & CG_SPLIT_PASS_NEXT)
      prefetch_pass(top, block + 1);
   if (flags & CG_SPLIT_PASS_AFTER_NEXT)
      prefetch_pass(top, block + 2);
   run_prefetchers(steps, n_steps, addr, 0, cc, 1);
}
