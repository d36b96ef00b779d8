/* cg_policy.c -- replacement policies other than LRU (cg_policy.h
   states the rules).

   Owns: the per-way state of a level under plru, srrip, brrip or
   random, its generator, victim choice and update on hit and fill.
   Must not: count anything (the caller does) or touch LRU levels.

   Why it is shaped so: a policy is an option for modelling, not the
   default: a plain loop over the ways (LL is looked up only on an L1
   miss, an L1 only for what compiled code's MRU filter did not settle)
   keeps it simple, and LRU levels keep cg_cache.h's inline search,
   untouched.  The L1s take only plru and random, under which that
   filter stays exact (cg_sim.c, manual 5.7). */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cg_policy.h"
#include "cg_tool.h"

/* A way's tag holds its block + 1 in the low bits, so that zeroed tags
   (untouched pages of a large LL) are empty ways, and the way's state in
   the top four: the search of a set reads the tags alone, and a hit
   finds its state in the tag it compared, where a state byte apart had
   to be loaded once the way was known (15 % of the look-up's time on
   pointer_chase under --cpu=generic).  Blocks are below 2^60 (2^28 on a
   32-bit host: lines of 16 bytes or more); only the last line of the
   address space would reach the state bits. */
#define WORD_BITS   (8 * (Int)sizeof(UWord))
#define EMPTY_WAY   0
#define TAG_MARKED  ((UWord)1 << (WORD_BITS - 1))  /* prefetched, not yet
                                                      hit by a demand access */
#define TAG_DIRTY   ((UWord)1 << (WORD_BITS - 2))  /* written since it came
                                                      in (--simulate-wb) */
#define RRPV_SHIFT  (WORD_BITS - 4)   /* srrip and brrip's value, 0 to 3 */
#define TAG_RRPV    ((UWord)3 << RRPV_SHIFT)
#define TAG_STATE   (TAG_MARKED | TAG_DIRTY | TAG_RRPV)
#define RRPV_DISTANT 3
#define RRPV_LONG    2

static const HChar* const policy_names[] = {
   "lru", "plru", "srrip", "brrip", "random"
};

Bool cg_policy_from_name(const HChar* name, CgPolicy* policy)
{
   Int i = cg_name_index(policy_names,
                         sizeof policy_names / sizeof policy_names[0], name);

   if (i < 0)
      return False;
   *policy = (CgPolicy)i;
   return True;
}

const HChar* cg_policy_unsupported(CgPolicy policy, Int assoc)
{
   if (policy == CG_POLICY_PLRU
       && (assoc & (assoc - 1)) != 0)
      return "plru needs a power-of-two associativity";
   if (policy == CG_POLICY_PLRU && assoc > (Int)(8 * sizeof(UWord)))
      return "plru needs at most 64 ways";
   return NULL;
}

static ULong draw(PolicyLevel* p)
{
   ULong x = p->rng;

   x ^= x << 13;
   x ^= x >> 7;
   x ^= x << 17;
   p->rng = x;
   return x;
}

/* plru: the path to `way` points away from it, as the bits an access
   to it clears and sets */
static void tree_path(Int assoc, Int way, UWord* clear, UWord* set)
{
   UWord node = 1;
   Int half;

   *clear = *set = 0;
   for (half = assoc / 2; half >= 1; half /= 2) {
      Bool upper = (way & half) != 0;
      if (upper)
         *clear |= (UWord)1 << node;      /* victim in the lower half */
      else
         *set |= (UWord)1 << node;        /* ... in the upper half */
      node = node * 2 + (upper ? 1 : 0);
   }
}

void cg_policy_init(PolicyLevel* p, CacheLevel* level, CgPolicy policy,
                    ULong seed)
{

   tl_assert(cg_policy_unsupported(policy, level->assoc) == NULL);
   cg_cache_level_use_full_tags(level);
   p->policy = policy;
   p->level = level;
   p->rng = seed * 0x9E3779B97F4A7C15ULL + 1;
   p->tree = NULL;
   p->touch_clear = p->touch_set = NULL;
   if (policy == CG_POLICY_PLRU) {
      Int way;
      p->tree = VG_(calloc)("cg.policy.tree", level->set_mask + 1,
                            sizeof(UWord));
      p->touch_clear = VG_(malloc)("cg.policy.touch", level->assoc
                                                      * sizeof(UWord));
      p->touch_set = VG_(malloc)("cg.policy.touch", level->assoc
                                                    * sizeof(UWord));
      for (way = 0; way < level->assoc; way++)
         tree_path(level->assoc, way, &p->touch_clear[way],
                   &p->touch_set[way]);
   }
}

static inline void tree_touch(const PolicyLevel* p, UWord* bits, Int way)
{
   *bits = (*bits & ~p->touch_clear[way]) | p->touch_set[way];
}

static Int tree_victim(UWord bits, Int assoc)
{
   UWord node = 1;
   Int way = 0, half;

   for (half = assoc / 2; half >= 1; half /= 2) {
      Bool upper = (bits >> node) & 1;
      if (upper)
         way += half;
      node = node * 2 + (upper ? 1 : 0);
   }
   return way;
}

/* The lowest way of the highest value, after adding to every way what
   brings that value to 3: the same as adding 1 to all until one is 3,
   in two passes (every way is full here) */
static Int rrip_victim(UWord* tags, Int assoc)
{
   Int way, victim = 0, highest = -1;

   for (way = 0; way < assoc; way++) {
      Int value = (Int)((tags[way] & TAG_RRPV) >> RRPV_SHIFT);
      if (value > highest) {
         highest = value;
         victim = way;
      }
   }
   if (highest < RRPV_DISTANT)
      for (way = 0; way < assoc; way++)   /* values stay <= 3 */
         tags[way] += (UWord)(RRPV_DISTANT - highest) << RRPV_SHIFT;
   return victim;
}

/* A look-up of one block (CG_LOOKUP_* bits, as cg_cache_block_lookup)
   once its set is searched: `way` holds the block (-1: none), `victim`
   is the set's lowest empty way (-1: none); on a miss, `*victim_block`
   is the block it evicted (CG_NO_BLOCK if it took an empty way).
   Inline in each search's copy below. */
static inline __attribute__((always_inline))
UInt settle(PolicyLevel* p, UWord block, UWord set_index, Int way,
            Int victim, CgLookupKind kind, Bool write, UWord* victim_block)
{
   CacheLevel* level = p->level;
   Int assoc = level->assoc;
   UWord* tags = level->tags + set_index * assoc;
   UInt victim_dirty = 0;
   UWord state = 0;

   *victim_block = CG_NO_BLOCK;
   if (way >= 0) {
      /* A hit; a prefetch's changes nothing */
      UInt outcome = 0;
      UWord tag = tags[way], updated = tag;
      if (kind == CG_LOOKUP_PREFETCH)
         return CG_LOOKUP_PRESENT;
      if (kind == CG_LOOKUP_DEMAND && (tag & TAG_MARKED)) {
         updated &= ~TAG_MARKED;
         outcome = CG_LOOKUP_WAS_MARKED;
      }
      if (p->policy == CG_POLICY_PLRU)
         tree_touch(p, &p->tree[set_index], way);
      else if (p->policy != CG_POLICY_RANDOM)
         updated &= ~TAG_RRPV;                           /* value 0 */
      if (write)
         updated |= TAG_DIRTY;
      /* Stored only if changed: a store into the set, then the next
         look-up's vector load of it, cannot be forwarded */
      if (updated != tag)
         tags[way] = updated;
      return outcome;
   }
   /* The lowest empty way, if any */
   if (victim < 0) {
      switch (p->policy) {
      case CG_POLICY_PLRU:
         victim = tree_victim(p->tree[set_index], assoc);
         break;
      case CG_POLICY_SRRIP:
      case CG_POLICY_BRRIP:
         victim = rrip_victim(tags, assoc);
         break;
      default:
         victim = (Int)(draw(p) % (ULong)assoc);
         break;
      }
      *victim_block = (tags[victim] & ~TAG_STATE) - 1;
      if (tags[victim] & TAG_DIRTY)
         victim_dirty = CG_LOOKUP_VICTIM_DIRTY;
   }
   switch (p->policy) {
   case CG_POLICY_PLRU:
      tree_touch(p, &p->tree[set_index], victim);
      break;
   case CG_POLICY_SRRIP:
      state = (UWord)RRPV_LONG << RRPV_SHIFT;
      break;
   case CG_POLICY_BRRIP:
      state = (UWord)(draw(p) % 32 == 0 ? RRPV_LONG : RRPV_DISTANT)
              << RRPV_SHIFT;
      break;
   default:
      break;
   }
   if (kind == CG_LOOKUP_PREFETCH)
      state |= TAG_MARKED;
   if (write)
      state |= TAG_DIRTY;
   tags[victim] = (block + 1) | state;
   return CG_LOOKUP_MISSED | victim_dirty;
}

static UInt block_lookup(PolicyLevel* p, UWord block, CgLookupKind kind,
                         Bool write, UWord* victim_block)
{
   CacheLevel* level = p->level;
   UWord set_index = block & level->set_mask;
   Int empty, way = cg_cache_find_way_or_empty(
                       level, level->tags + set_index * level->assoc,
                       block + 1, TAG_STATE, EMPTY_WAY, &empty);

   return settle(p, block, set_index, way, empty, kind, write, victim_block);
}

#if defined(VGA_amd64)
/* The same with the vector search inlined, a copy per count of vectors
   (the general path's look-ups of L2 and LL when every access misses
   D1: the calls from search to search were a fifth of their time) */
static inline __attribute__((always_inline)) CG_AVX2
UInt vector_lookup(PolicyLevel* p, UWord block, CgLookupKind kind,
                   Bool write, UWord* victim_block, Int vectors)
{
   CacheLevel* level = p->level;
   UWord set_index = block & level->set_mask;
   UWord empty_ways;
   UWord found = cg_cache_ways_of_two(level->tags + set_index * level->assoc,
                                      vectors, block + 1, TAG_STATE,
                                      EMPTY_WAY, &empty_ways);
   Int way = found != 0 ? (Int)__builtin_ctzl(found) : -1;
   Int empty = empty_ways != 0 ? (Int)__builtin_ctzl(empty_ways) : -1;

   return settle(p, block, set_index, way, empty, kind, write, victim_block);
}

static CG_AVX2 __attribute__((noinline))
UInt vector_lookup_any(PolicyLevel* p, UWord block, CgLookupKind kind,
                       Bool write, UWord* victim_block)
{
   switch (p->level->search_vectors) {
   case 2:  return vector_lookup(p, block, kind, write, victim_block, 2);
   case 3:  return vector_lookup(p, block, kind, write, victim_block, 3);
   default: return vector_lookup(p, block, kind, write, victim_block, 4);
   }
}
#endif

UInt cg_policy_block_lookup(PolicyLevel* p, UWord block, CgLookupKind kind,
                            Bool write, UWord* victim)
{
#if defined(VGA_amd64)
   if (p->level->search_vectors != 0)
      return vector_lookup_any(p, block, kind, write, victim);
#endif
   return block_lookup(p, block, kind, write, victim);
}

Bool cg_policy_block_invalidate(PolicyLevel* p, UWord block)
{
   CacheLevel* level = p->level;
   Int assoc = level->assoc, way;
   UWord set_index = block & level->set_mask;
   UWord* tags = level->tags + set_index * assoc;

   way = cg_cache_find_way(level, tags, block + 1, TAG_STATE);
   if (way < 0)
      return False;
   tags[way] = EMPTY_WAY;     /* plru's bits stay as they are */
   return True;
}

static Bool block_missed(PolicyLevel* p, UWord block)
{
   UWord victim;
   return cg_policy_block_lookup(p, block, CG_LOOKUP_DEMAND, False, &victim)
          & CG_LOOKUP_MISSED;
}

Bool cg_policy_ref_missed(PolicyLevel* p, Addr addr, UChar size)
{
   Int bits = p->level->line_bits;
   UWord first = addr >> bits;
   UWord last = (addr + size - 1) >> bits;

   if (LIKELY(first == last))
      return block_missed(p, first);
   if (last == first + 1) {
      Bool first_missed = block_missed(p, first);
      Bool last_missed = block_missed(p, last);
      return first_missed || last_missed;
   }
   VG_(tool_panic)("item straddles more than two cache sets");
   return True; /* not reached */
}
