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
#include "cg_config.h"

typedef struct _CacheLevel {
   UWord*       tags;       /* n_sets * assoc block numbers, or NULL */
   UInt*        narrow;     /* or the same in half the memory (see below) */
   Bool         narrow_mapped;  /* `narrow` is an anonymous mapping */
   UInt*        narrow_first;   /* a copy of each set's first narrow tag,
                                   one per set (see cg_cache_block_missed) */
   Bool         narrow_first_mapped;
   UWord*       wide_spare; /* narrow tags' full-width array, reserved
                               (untouched) where widening must not
                               allocate, or NULL */
   UWord*       mru;        /* a copy of each set's first tag (see
                               cg_cache_mru_slot), or NULL if compiled
                               code never reads it */
   Int          mru_stride_bits; /* log2(bytes from one set's slot to
                                    the next) */
   Int          mru_value_shift; /* a slot holds block << this */
   UWord        set_mask;   /* n_sets - 1 (n_sets is a power of two) */
   Int          set_bits;   /* log2(n_sets) */
   Int          line_bits;  /* log2(line size) */
   Int          assoc;
   Bool         sim_writes_mru;  /* else whoever reads `mru` keeps it */
   Int          search_vectors;  /* cg_cache_find_way: AVX2 vectors of
                                    four ways a set, or 0 (scalar) */
   const HChar* name;
} CacheLevel;

/* The MRU mirror that compiled code reads, in one of two layouts
   chosen for the test compiled code makes against it:
   - MIRROR_BY_BLOCK (I1, whose tests compare with a constant): one word
     per set holding the block number, which fits a 32-bit immediate
     for far more addresses than a line address does;
   - MIRROR_BY_LINE_ADDR (D1, whose tests take a run-time address): the
     slot of a set is `line size` bytes after the previous one and holds
     the block's first byte address, so that the slot's byte offset is
     just the address's set-index bits (one AND, no shift) and one
     unsigned comparison of (address - slot) with line - size tests
     both "same line" and "no straddle" (see not_mru_access in
     cg_deliver.c). */
typedef enum { MIRROR_NONE, MIRROR_BY_BLOCK, MIRROR_BY_LINE_ADDR }
   MirrorLayout;

/* Whether mirrors of `bytes` in all still fit the tool's static data
   (else they are allocated on the heap, which compiled code's 32-bit
   absolute addresses need not reach). */
Bool cg_cache_static_mirror_fits(SizeT bytes);

/* `addr_bits`: the addresses simulated have at most this many bits
   (0: any). */
void cg_cache_level_init(CacheLevel* level, const CacheGeometry* geom,
                         const HChar* name, MirrorLayout mirror,
                         Int addr_bits);
/* Before any access: full-width tags, all zero (a replacement policy
   keeps its tags in place, cg_policy.c). */
void cg_cache_level_use_full_tags(CacheLevel* level);

/* Where the MRU tag of `block`'s set is mirrored.  The mirror never
   moves and has one slot per set, so compiled code finds a set's slot
   with a mask and at most a shift (no multiply by the associativity). */
static inline UWord* cg_cache_mru_slot(const CacheLevel* level, UWord block)
{
   return (UWord*)((UChar*)level->mru
                   + ((block & level->set_mask) << level->mru_stride_bits));
}

/* The MRU test of a level mirrored by line address (D1), in C, as
   compiled code makes it (not_mru_access in cg_deliver.c): whether
   [addr, addr + size) lies in one line, and that line is its set's MRU
   line.  Such an access changes no state. */
static inline Bool cg_cache_mru_hit_by_line_addr(const CacheLevel* level,
                                                 Addr addr, UWord size)
{
   UWord line_size = (UWord)1 << level->line_bits;
   UWord line_addr = *cg_cache_mru_slot(level, addr >> level->line_bits);

   return size <= line_size && addr - line_addr <= line_size - size;
}

/* The model's own MRU test (a level of full tags): whether
   [addr, addr + size) lies in one line, the MRU line of its set.  Such
   an access changes no state. */
static inline Bool cg_cache_model_mru_hit(const CacheLevel* level,
                                          Addr addr, UWord size)
{
   UWord block = addr >> level->line_bits;

   return block == (addr + size - 1) >> level->line_bits
          && level->tags[(block & level->set_mask) * (UWord)level->assoc]
             == block;
}

/* What the slot holds when `block` is its set's MRU block. */
static inline UWord cg_cache_mru_value(const CacheLevel* level, UWord block)
{
   return block << level->mru_value_shift;
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
   /* In a local: the stores below may alias the level (the tool is
      built without strict aliasing), so the loop would load it again on
      every way. */
   Int assoc = level->assoc;
   UWord* set;
   UWord displaced;
   Int way;

   if (level->narrow != NULL) {
      /* The MRU test inline, the rest out of line.  A block too high
         for a narrow tag has high + 1 >= 2^32, equal to no tag, so it
         takes the call, which widens the level.  The test reads the
         dense copy of the first ways (4 bytes a set), not the set: where
         a host-sized LL's look-ups mostly hit their sets' MRU lines, the
         sets' first cache lines (64 bytes a set touched) had crowded the
         program's own data out of the host's L2. */
      UWord high = block >> level->set_bits;
      if (LIKELY(level->narrow_first[set_index] == high + 1))
         return False;
      return cg_cache_narrow_block_missed(level, block);
   }
   set = level->tags + set_index * assoc;
   if (LIKELY(set[0] == block))
      return False;
   if (level->sim_writes_mru)
      *cg_cache_mru_slot(level, block) = cg_cache_mru_value(level, block);
   /* Search and move down in one pass: each way takes the block above
      it until the block is found (a hit) or falls off the end (a miss).
      One data-dependent branch per access instead of two loops'. */
   displaced = set[0];
   set[0] = block;
   /* Two ways a step: matrix_walk, whose every access misses D1 (and
      so walks all the ways), ran 9 % faster so with --sim-thread=no;
      four ways a step was 15 % slower than two, one branch for two
      ways 2 % slower. */
   for (way = 1; way + 1 < assoc; way += 2) {
      UWord here = set[way];
      UWord below = set[way + 1];
      set[way] = displaced;
      if (here == block)
         return False;
      set[way + 1] = here;
      if (below == block)
         return False;
      displaced = below;
   }
   if (way < assoc) {
      UWord here = set[way];
      set[way] = displaced;
      if (here == block)
         return False;
   }
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

/* Asks the host to load what the look-up of `addr` will read first:
   the set's tags, or (narrow tags) the dense copy of its first tag when
   that is `addr`'s block already; the model does not change.  A large
   LL's tags (17 MB of them for a 264 MB LL) are mostly not in the
   host's caches, and its look-up waited for memory at almost every L1
   miss: issued some accesses ahead, the load overlaps with the work
   between. */
static inline void cg_cache_prefetch_set(const CacheLevel* level, Addr addr)
{
   UWord set_index = (addr >> level->line_bits) & level->set_mask;

   if (level->narrow != NULL) {
      /* The set's first tag is loaded (it is 4 bytes of a dense array,
         mostly in the host's caches); only if it is not the block is
         the set wanted.  Chosen without a branch: which one it is
         depends on the data. */
      UWord high = (addr >> level->line_bits) >> level->set_bits;
      UWord first = (UWord)(level->narrow_first + set_index);
      UWord set = (UWord)(level->narrow + set_index * level->assoc);
      UWord is_first = -(UWord)(level->narrow_first[set_index] == high + 1);
      __builtin_prefetch((const void*)(set ^ ((set ^ first) & is_first)));
   } else
      __builtin_prefetch(level->tags + set_index * level->assoc);
}

/* For the inclusion modes (cg_hierarchy.c), on a level of full-width
   tags.  CG_NO_BLOCK is no block number (those are below 2^60): the tag
   of an empty way, and the mirror value of a set compiled code must not
   skip. */
#define CG_NO_BLOCK (~(UWord)0 >> 1)
/* Every way empty (and full-width tags): the modes start so. */
void cg_cache_level_start_empty(CacheLevel* level);
/* A line a prefetcher brought in and no demand access has hit yet
   carries a mark (CG_PREFETCH_MARK in the tag of an LRU level, a state
   bit under a policy), which a look-up treats as `kind` says. */
#define CG_PREFETCH_MARK ((UWord)1 << (sizeof(UWord) * 8 - 2))
/* A line written since it came in (--simulate-wb): the same way */
#define CG_DIRTY_MARK    ((UWord)1 << (sizeof(UWord) * 8 - 3))
typedef enum {
   CG_LOOKUP_DEMAND,    /* a hit takes the mark off, and says so */
   CG_LOOKUP_PREFETCH,  /* a fill puts the mark on; a hit keeps it */
   CG_LOOKUP_PASS       /* neither: a prefetch below its own level */
} CgLookupKind;
#define CG_LOOKUP_MISSED       1u
#define CG_LOOKUP_WAS_MARKED   2u   /* a demand hit on a marked line */
#define CG_LOOKUP_VICTIM_DIRTY 4u   /* the block that made room was dirty */
#define CG_LOOKUP_PRESENT      8u   /* a prefetch found the line: nothing
                                       changed */
/* An LRU level's tag carries these (full-width tags of the general
   path); a tag without them: */
#define CG_MARKS (CG_PREFETCH_MARK | CG_DIRTY_MARK)
static inline UWord cg_cache_unmarked(UWord tag)
{
   return tag == CG_NO_BLOCK ? CG_NO_BLOCK : tag & ~CG_MARKS;
}

/* As cg_cache_block_missed, but returning CG_LOOKUP_* bits, and on a
   miss the block that made room (CG_NO_BLOCK: an empty way); `write`
   makes the line dirty.  The mirror is the caller's. */
UInt cg_cache_block_lookup(CacheLevel* level, UWord block, CgLookupKind kind,
                           Bool write, UWord* victim);
/* Removes the block if present (the ways below it move up, an empty
   way goes last); True if it was. */
Bool cg_cache_block_invalidate(CacheLevel* level, UWord block);
/* The lowest way of a set of `level`'s full-width tags (`set`: its
   first) whose tag without the bits of `ignored` is `key`, or -1: the
   search of the general path's LRU levels and of the policies.  On a
   host with AVX2, after cg_cache_level_allow_vector_search, a set of 8,
   12 or 16 ways is searched with 2 to 4 vector compares: the scalar
   loop over the ways was most of the simulator's time when every access
   misses D1 (matrix_walk under --cpu=generic). */
Int cg_cache_find_way(const CacheLevel* level, const UWord* set, UWord key,
                      UWord ignored);
/* The scalar search for `key` in the tags without the bits of
   `ignored`, also giving the first way whose whole tag is `empty` (-1:
   none; not looked for once `key` is found): a policy's miss needs
   both, in one pass.  With vectors, cg_policy.c inlines
   cg_cache_ways_of_two instead. */
Int cg_cache_find_way_or_empty(const CacheLevel* level, const UWord* set,
                               UWord key, UWord ignored, UWord empty,
                               Int* empty_way);
void cg_cache_level_allow_vector_search(CacheLevel* level);

#if defined(VGA_amd64)
/* The same look-up with AVX2 for the usual L1 shapes (8, 12 or 16 ways
   of full tags), for the simulator's AVX2 copy of its loop (cg_sim.c).
   A set is two to four 32-byte vectors of four ways: one compare each
   finds the block's way (or none), and each vector is stored once,
   shifted down by one way up to that way and unchanged below it.  The
   scalar search moves the ways down one at a time, which is most of
   the simulator's time when every access misses D1 (matrix_walk, which
   walks a matrix by columns: 1.53 -> 1.16 s with a 12-way D1, the
   simulator thread setting the pace).  Loads and stores cover the same
   32 bytes, so the next look-up of the same set, often the next entry,
   reads what this one stored straight from the store buffer; a design
   that kept the tags in place and an LRU list per set was slower
   (1.49 -> 2.35 s), its stores' addresses depending on that list. */
#define CG_AVX2 __attribute__((target("avx2")))
/* aligned(8): a set need not start on 32 bytes (vmovdqu); may_alias:
   the tags are also read as UWords */
typedef ULong CgTagVector
   __attribute__((vector_size(32), aligned(8), may_alias));
typedef Long  CgTagMask   __attribute__((vector_size(32)));
typedef double CgTagMaskF __attribute__((vector_size(32)));

/* The ways of a set of `vectors` vectors holding `key` (in the tag
   without the bits of `ignored`) and `empty` (the whole tag), as bit
   masks, from one load of each vector: a policy's miss needs both
   (cg_policy.c) */
static inline __attribute__((always_inline)) CG_AVX2
UWord cg_cache_ways_of_two(const UWord* set, Int vectors, UWord key,
                           UWord ignored, UWord empty, UWord* empty_ways)
{
   const CgTagVector* v = (const CgTagVector*)set;
   CgTagVector wanted = (CgTagVector){ 0, 0, 0, 0 } + key;
   CgTagVector kept = (CgTagVector){ 0, 0, 0, 0 } + ~ignored;
   CgTagVector free_tag = (CgTagVector){ 0, 0, 0, 0 } + empty;
   UWord found = 0, free_ways = 0;
   Int k;

#pragma GCC unroll 4
   for (k = 0; k < vectors; k++) {
      CgTagVector tags = v[k];
      found |= (UWord)__builtin_ia32_movmskpd256(
                  (CgTagMaskF)((tags & kept) == wanted)) << (4 * k);
      free_ways |= (UWord)__builtin_ia32_movmskpd256(
                      (CgTagMaskF)(tags == free_tag)) << (4 * k);
   }
   *empty_ways = free_ways;
   return found;
}

/* cg_cache_block_lookup on an LRU set of 2 to 4 vectors (inline in
   cg_cache.c, and in cg_hierarchy.c's L1 stage): the search, and
   each vector stored once, its ways shifted down one up to the found
   way (all on a miss) and the new first way's tag put in.  Scalar
   stores of the moved ways, then the next look-up's vector loads of the
   same set, made each such load wait for the stores to reach the cache
   (store forwarding fails from several narrow stores to a wide load):
   most of the time of a D1 look-up when every access misses D1. */
static inline __attribute__((always_inline)) CG_AVX2
UInt cg_cache_lru_lookup_vectors(UWord* tags, Int vectors, UWord block,
                        CgLookupKind kind, Bool write, UWord* victim)
{
   CgTagVector* set = (CgTagVector*)tags;
   CgTagVector wanted = (CgTagVector){ 0, 0, 0, 0 } + block;
   CgTagVector kept = (CgTagVector){ 0, 0, 0, 0 } + ~CG_MARKS;
   CgTagVector old[4], above;
   UWord dirty = write ? CG_DIRTY_MARK : 0, found = 0, here, first;
   Long n_moved;
   UInt outcome;
   Int k;

#pragma GCC unroll 4
   for (k = 0; k < vectors; k++) {
      old[k] = set[k];
      found |= (UWord)__builtin_ia32_movmskpd256(
                  (CgTagMaskF)((old[k] & kept) == wanted)) << (4 * k);
   }
   *victim = CG_NO_BLOCK;
   if (found != 0) {
      Int way = (Int)__builtin_ctzl(found);
      /* A prefetch of a line already there changes nothing; a demand
         hit takes the prefetch mark off, and says so */
      if (kind == CG_LOOKUP_PREFETCH)
         return CG_LOOKUP_PRESENT;
      here = tags[way];
      outcome = 0;
      if (kind == CG_LOOKUP_DEMAND && (here & CG_PREFETCH_MARK)) {
         outcome = CG_LOOKUP_WAS_MARKED;
         here &= ~CG_PREFETCH_MARK;
      }
      first = here | dirty;
      n_moved = way + 1;
   } else {
      /* A miss: the last way's line falls off */
      here = tags[vectors * 4 - 1];
      outcome = CG_LOOKUP_MISSED;
      *victim = cg_cache_unmarked(here);
      if (here != CG_NO_BLOCK && (here & CG_DIRTY_MARK))
         outcome |= CG_LOOKUP_VICTIM_DIRTY;
      first = block | dirty
              | (kind == CG_LOOKUP_PREFETCH ? CG_PREFETCH_MARK : 0);
      n_moved = vectors * 4;
   }
   above = (CgTagVector){ 0, 0, 0, 0 } + first;
#pragma GCC unroll 4
   for (k = 0; k < vectors; k++) {
      CgTagVector shifted = __builtin_shuffle(above, old[k],
                                              (CgTagVector){ 3, 4, 5, 6 });
      CgTagMask way = (CgTagMask){ 0, 1, 2, 3 } + (Long)(4 * k);
      CgTagVector moves = (CgTagVector)((CgTagMask){ 0, 0, 0, 0 } + n_moved
                                        > way);
      CgTagVector result = (shifted & moves) | (old[k] & ~moves);
      /* A prefetch fill goes below the most recent line (way 1) */
      if (k == 0 && kind == CG_LOOKUP_PREFETCH)
         result = __builtin_shuffle(result, (CgTagVector){ 1, 0, 2, 3 });
      set[k] = result;
      above = old[k];
   }
   return outcome;
}

static inline __attribute__((always_inline)) CG_AVX2
Bool cg_cache_vector_block_missed(CacheLevel* level, UWord block,
                                  Int vectors)
{
   CgTagVector* set = (CgTagVector*)(level->tags
                      + (block & level->set_mask) * (UWord)(vectors * 4));
   CgTagVector wanted = (CgTagVector){ 0, 0, 0, 0 } + block;
   CgTagVector old[4];
   UWord found;
   Int k, groups_touched;

   if (LIKELY(((UWord*)set)[0] == block))
      return False;
   if (level->sim_writes_mru)
      *cg_cache_mru_slot(level, block) = cg_cache_mru_value(level, block);
   /* Most hits outside the MRU way are in the next three: then only
      the first vector is read and written (without this, sqlite3's
      simulation was slower than the scalar search's). */
   old[0] = set[0];
   found = (UWord)__builtin_ia32_movmskpd256((CgTagMaskF)(old[0] == wanted));
   groups_touched = 1;
   if (found == 0) {
#pragma GCC unroll 4
      for (k = 1; k < vectors; k++) {
         old[k] = set[k];
         found |= (UWord)__builtin_ia32_movmskpd256(
                     (CgTagMaskF)(old[k] == wanted)) << (4 * k);
      }
      groups_touched = vectors;
   }
   {
      /* Ways up to the found one (the last, on a miss) move down one.
         "n_moved > way" is one compare; "way <= found" took two, and
         the look-up 20 % longer. */
      CgTagMask n_moved = (CgTagMask){ 0, 0, 0, 0 }
         + (Long)(found != 0 ? (UWord)__builtin_ctzl(found) + 1
                             : (UWord)(vectors * 4));
      CgTagVector above = wanted;
      /* k < vectors, a constant, lets GCC unroll the loop fully */
#pragma GCC unroll 4
      for (k = 0; k < vectors && k < groups_touched; k++) {
         CgTagVector shifted = __builtin_shuffle(above, old[k],
                                                 (CgTagVector){ 3, 4, 5, 6 });
         CgTagMask way = (CgTagMask){ 0, 1, 2, 3 } + (Long)(4 * k);
         CgTagVector moves = (CgTagVector)(n_moved > way);
         set[k] = (shifted & moves) | (old[k] & ~moves);
         above = old[k];
      }
   }
   return found == 0;
}

/* Whether cg_cache_block_missed_avx2 looks `level` up with vectors */
static inline Bool cg_cache_has_vector_lookup(const CacheLevel* level)
{
   return level->tags != NULL
          && (level->assoc == 8 || level->assoc == 12 || level->assoc == 16);
}

static inline __attribute__((always_inline)) CG_AVX2
Bool cg_cache_block_missed_avx2(CacheLevel* level, UWord block)
{
   if (level->tags != NULL) {
      switch (level->assoc) {
      case 8:  return cg_cache_vector_block_missed(level, block, 2);
      case 12: return cg_cache_vector_block_missed(level, block, 3);
      case 16: return cg_cache_vector_block_missed(level, block, 4);
      default: break;
      }
   }
   return cg_cache_block_missed(level, block);
}

static inline __attribute__((always_inline)) CG_AVX2
Bool cg_cache_ref_missed_avx2(CacheLevel* level, Addr addr, UChar size)
{
   UWord first = addr >> level->line_bits;

   if (LIKELY(first == (addr + size - 1) >> level->line_bits))
      return cg_cache_block_missed_avx2(level, first);
   /* A straddle (rare): the scalar code, on the same tags */
   return cg_cache_ref_missed(level, addr, size);
}
#endif

#endif /* CG_CACHE_H */
