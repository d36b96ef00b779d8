/* cg_cache.c -- set-up of one simulated cache level.  The per-access
   lookup is inline in cg_cache.h. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "cg_cache.h"
#include "cg_vgcompat.h"

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
#define STATIC_MRU_WORDS (1 << 14)   /* 128 KiB: the default L1s fit */
static UWord static_mru_pool[STATIC_MRU_WORDS];
static UInt  static_mru_used;

static UWord* alloc_mru_mirror(SizeT n_bytes)
{
   SizeT n_words = n_bytes / sizeof(UWord);
   UWord* mirror;

   if (static_mru_used + n_words <= STATIC_MRU_WORDS) {
      mirror = static_mru_pool + static_mru_used;
      static_mru_used += n_words;
   } else {
      mirror = VG_(malloc)("cg.cache.mru", n_bytes);
   }
   VG_(memset)(mirror, 0, n_bytes);
   return mirror;
}

Bool cg_cache_static_mirror_fits(SizeT bytes)
{
   return static_mru_used * sizeof(UWord) + bytes
          <= STATIC_MRU_WORDS * sizeof(UWord);
}

/* All slots zero: block 0 (address 0), as the all-zero tags say. */
static void init_mirror(CacheLevel* level, MirrorLayout layout)
{
   UInt n_sets = (UInt)level->set_mask + 1;

   switch (layout) {
   case MIRROR_NONE:
      level->mru = NULL;
      return;
   case MIRROR_BY_BLOCK:
      level->mru_stride_bits = sizeof(UWord) == 8 ? 3 : 2;
      level->mru_value_shift = 0;
      break;
   case MIRROR_BY_LINE_ADDR:
      /* Lines are at least 16 bytes (cg_config.c): slots never overlap. */
      level->mru_stride_bits = level->line_bits;
      level->mru_value_shift = level->line_bits;
      break;
   }
   level->mru = alloc_mru_mirror((SizeT)n_sets << level->mru_stride_bits);
}

/* Narrow tags only pay where the tag array is big, and only levels that
   compiled code never reads may use them. */
#define NARROW_TAGS_FROM (1 << 16)

#define NO_BLOCK 0u

/* An all-zero tag array.  A large one (the LL of a host with a big L3
   can need 32 MB or more) is fresh anonymous memory, which the kernel
   zeroes a page at a time when it is first touched: a program that
   touches few sets pays for few pages, instead of a memset of the whole
   array at start-up (20 ms and 32 MB of resident memory for every run
   on a host whose LL is 512 MB). */
#define ZERO_PAGES_FROM (1 << 20)

/* Linux's madvise(2) advice, which the core's headers do not name */
#define MADVICE_HUGEPAGE 14
#define HUGE_PAGE        ((SizeT)2 << 20)
#define HUGE_PAGES_FROM  ((SizeT)4 << 20)

/* Asks Linux to back the whole 2 MB pages inside a large mapped tag
   array with huge pages (where transparent huge pages are allowed "on
   madvise"; elsewhere nothing changes).  A host-sized LL's look-ups
   touch its sets at random, a TLB miss each with 4 KB pages, whose page
   walk the look-up (and its prefetch) waits for: pointer_chase 600 laps
   with a 264 MB LL, 2.08 -> 1.92 s CPU, medians of 7; python's peak RSS
   91.7 -> 92.8 MB (a touched set brings in 2 MB, not 4 KB). */
static void advise_huge_pages(void* mem, SizeT bytes)
{
   Addr from = ((Addr)mem + HUGE_PAGE - 1) & ~(Addr)(HUGE_PAGE - 1);
   Addr to = ((Addr)mem + bytes) & ~(Addr)(HUGE_PAGE - 1);

   if (bytes >= HUGE_PAGES_FROM && to > from)
      (void)VG_(do_syscall)(__NR_madvise, from, to - from, MADVICE_HUGEPAGE,
                            0, 0, 0, 0, 0);
}

static void* new_zeroed_tags(SizeT bytes, Bool* mapped)
{
   void* tags;

   *mapped = False;
   if (bytes >= ZERO_PAGES_FROM) {
      tags = cg_shadow_alloc(bytes);
      if (tags != NULL) {
         advise_huge_pages(tags, bytes);
         *mapped = True;
         return tags;
      }
   }
   tags = VG_(malloc)("cg.cache.tags", bytes);
   VG_(memset)(tags, 0, bytes);
   return tags;
}

/* A full-width array reserved for a narrow level's widening, or NULL */
static UWord* new_spare_tags(SizeT bytes)
{
   UWord* tags = cg_shadow_alloc(bytes);

   if (tags != NULL)
      advise_huge_pages(tags, bytes);
   return tags;
}

static void free_tags(void* tags, SizeT bytes, Bool mapped)
{
   if (mapped)
      VG_(am_munmap_valgrind)((Addr)tags, bytes);
   else
      VG_(free)(tags);
}

/* Narrow tags hold a block number without its set bits in 32 bits
   (0xFFFFFFFF and above widen the level).  Where addresses have a known
   width (addr_bits > 0: the log's, simulated in the simulator thread,
   which must not allocate), either every block fits, or the full-width
   array is reserved at the start for the widening (wide_spare: a fresh
   mapping, which costs no memory until it is touched). */
static Bool narrow_tags_allowed(const CacheLevel* level, Int addr_bits)
{
   return addr_bits == 0
          || addr_bits - level->line_bits - level->set_bits < 32;
}

void cg_cache_level_init(CacheLevel* level, const CacheGeometry* geom,
                         const HChar* name, MirrorLayout mirror,
                         Int addr_bits)
{
   Bool mirrored = mirror != MIRROR_NONE;
   UInt n_sets = (UInt)geom->size / ((UInt)geom->line_size * geom->assoc);
   SizeT n_tags = (SizeT)n_sets * geom->assoc;
   Bool mapped;
   Int way;

   level->name      = name;
   level->assoc     = geom->assoc;
   level->line_bits = log2_of_power_of_two(geom->line_size);
   level->set_bits  = log2_of_power_of_two(n_sets);
   level->set_mask  = n_sets - 1;
   init_mirror(level, mirror);
   level->sim_writes_mru = mirrored;
   level->search_vectors = 0;
   level->wide_spare = NULL;
   if (!mirrored && n_tags >= NARROW_TAGS_FROM
       && !narrow_tags_allowed(level, addr_bits))
      level->wide_spare = new_spare_tags(n_tags * sizeof(UWord));
   if (mirrored || n_tags < NARROW_TAGS_FROM
       || (!narrow_tags_allowed(level, addr_bits)
           && level->wide_spare == NULL)) {
      level->narrow = NULL;
      level->narrow_first = NULL;
      level->tags = new_zeroed_tags(n_tags * sizeof(UWord), &mapped);
      return;
   }
   level->tags = NULL;
   level->narrow = new_zeroed_tags(n_tags * sizeof(UInt),
                                   &level->narrow_mapped);
   level->narrow_first = new_zeroed_tags(n_sets * sizeof(UInt),
                                         &level->narrow_first_mapped);
   for (way = 0; way < level->assoc; way++)
      level->narrow[way] = 1;          /* set 0 holds block 0 */
   level->narrow_first[0] = 1;
}

static void free_narrow_tags(CacheLevel* level, SizeT n_tags)
{
   free_tags(level->narrow, n_tags * sizeof(UInt), level->narrow_mapped);
   free_tags(level->narrow_first, (level->set_mask + 1) * sizeof(UInt),
             level->narrow_first_mapped);
}

/* A narrow level's full-width array: the reserved one if there is one */
static UWord* new_full_tags(CacheLevel* level, SizeT n_tags)
{
   UWord* tags = level->wide_spare;
   Bool mapped;

   if (tags == NULL)
      return new_zeroed_tags(n_tags * sizeof(UWord), &mapped);
   level->wide_spare = NULL;
   return tags;
}

void cg_cache_level_use_full_tags(CacheLevel* level)
{
   SizeT n_tags = (level->set_mask + 1) * (SizeT)level->assoc;

   if (level->narrow == NULL)
      return;
   free_narrow_tags(level, n_tags);
   level->narrow = NULL;
   level->narrow_first = NULL;
   level->tags = new_full_tags(level, n_tags);
}

/* Full-width tags from here on; exact, because a narrow tag and its set
   index give back the block number. */
static void widen_tags(CacheLevel* level)
{
   SizeT n_tags = (level->set_mask + 1) * (SizeT)level->assoc;
   /* With a reserved array this may be the simulator thread, which must
      not unmap or free either: the narrow array is then left as it is */
   Bool in_any_thread = level->wide_spare != NULL;
   UWord* tags = new_full_tags(level, n_tags);
   SizeT i;

   for (i = 0; i < n_tags; i++) {
      UInt n = level->narrow[i];
      if (n != NO_BLOCK)   /* untouched pages stay untouched */
         tags[i] = ((UWord)(n - 1) << level->set_bits) | (i / level->assoc);
   }
   if (!in_any_thread)
      free_narrow_tags(level, n_tags);
   level->narrow = NULL;
   level->narrow_first = NULL;
   level->tags = tags;
}

Bool cg_cache_narrow_block_missed(CacheLevel* level, UWord block)
{
   UWord high = block >> level->set_bits;
   Int assoc = level->assoc;   /* in a local: see cg_cache_block_missed */
   UInt* set;
   UInt tag, displaced;
   Int way;

   if (high >= 0xFFFFFFFFul) {
      widen_tags(level);
      return cg_cache_block_missed(level, block);
   }
   tag = (UInt)high + 1;
   set = level->narrow + (block & level->set_mask) * assoc;
   /* Not first in its set (the caller tested the copy); hit or miss, it
      ends first */
   level->narrow_first[block & level->set_mask] = tag;
   /* As cg_cache_block_missed, but a way a step: LL misses are rarer
      (not measured) */
   displaced = set[0];
   set[0] = tag;
   for (way = 1; way < assoc; way++) {
      UInt here = set[way];
      set[way] = displaced;
      if (here == tag)
         return False;
      displaced = here;
   }
   return True;
}

/*------------------------------------------------------------*/
/*--- Victims and invalidation (--LL-inclusion)            ---*/
/*------------------------------------------------------------*/

/* These serve the inclusion modes (cg_hierarchy.c), which need to know
   what a fill evicted and to remove lines: plain loops over the ways,
   on full-width tags, as those modes are options for modelling and
   keep the default lookup above untouched. */

void cg_cache_level_start_empty(CacheLevel* level)
{
   SizeT n_tags = (level->set_mask + 1) * (SizeT)level->assoc;
   SizeT i;

   cg_cache_level_use_full_tags(level);
   for (i = 0; i < n_tags; i++)
      level->tags[i] = CG_NO_BLOCK;
}


/*------------------------------------------------------------*/
/*--- The search of a set of full-width tags               ---*/
/*------------------------------------------------------------*/

#if defined(VGA_amd64)
/* A bit per way whose tag without `ignored` is `key` */
static inline __attribute__((always_inline)) CG_AVX2
UWord ways_matching(const UWord* set, Int vectors, UWord key, UWord ignored)
{
   const CgTagVector* v = (const CgTagVector*)set;
   CgTagVector wanted = (CgTagVector){ 0, 0, 0, 0 } + key;
   CgTagVector kept = (CgTagVector){ 0, 0, 0, 0 } + ~ignored;
   UWord found = 0;
   Int k;

#pragma GCC unroll 4
   for (k = 0; k < vectors; k++)
      found |= (UWord)__builtin_ia32_movmskpd256(
                  (CgTagMaskF)((v[k] & kept) == wanted)) << (4 * k);
   return found;
}

/* Out of line: an AVX2 function is not inlined into plain code.  A
   constant count of vectors a case, so that each loop unrolls. */
static CG_AVX2 __attribute__((noinline))
Int find_way_avx2(const UWord* set, Int vectors, UWord key, UWord ignored)
{
   UWord found;

   switch (vectors) {
   case 2:  found = ways_matching(set, 2, key, ignored); break;
   case 3:  found = ways_matching(set, 3, key, ignored); break;
   default: found = ways_matching(set, 4, key, ignored); break;
   }
   return found != 0 ? (Int)__builtin_ctzl(found) : -1;
}
static CG_AVX2 __attribute__((noinline))
UInt lru_lookup_avx2(UWord* set, Int vectors, UWord block, CgLookupKind kind,
                     Bool write, UWord* victim)
{
   switch (vectors) {
   case 2:  return cg_cache_lru_lookup_vectors(set, 2, block, kind, write, victim);
   case 3:  return cg_cache_lru_lookup_vectors(set, 3, block, kind, write, victim);
   default: return cg_cache_lru_lookup_vectors(set, 4, block, kind, write, victim);
   }
}
#endif

void cg_cache_level_allow_vector_search(CacheLevel* level)
{
#if defined(VGA_amd64)
   if (level->assoc == 8 || level->assoc == 12 || level->assoc == 16)
      level->search_vectors = level->assoc / 4;
#endif
}

Int cg_cache_find_way(const CacheLevel* level, const UWord* set, UWord key,
                      UWord ignored)
{
   Int way;

#if defined(VGA_amd64)
   if (level->search_vectors != 0)
      return find_way_avx2(set, level->search_vectors, key, ignored);
#endif
   for (way = 0; way < level->assoc; way++)
      if ((set[way] & ~ignored) == key)
         return way;
   return -1;
}

Int cg_cache_find_way_or_empty(const CacheLevel* level, const UWord* set,
                               UWord key, UWord ignored, UWord empty,
                               Int* empty_way)
{
   Int way;

   *empty_way = -1;
   for (way = 0; way < level->assoc; way++) {
      if ((set[way] & ~ignored) == key)
         return way;
      if (set[way] == empty && *empty_way < 0)
         *empty_way = way;
   }
   return -1;
}

/* Ways top..until-1 move down one, to top+1..until (an LRU set's
   order: the way at `until` is overwritten) */
static inline void move_down(UWord* set, Int top, Int until)
{
   Int way;

   for (way = until; way > top; way--)
      set[way] = set[way - 1];
}

/* A demand or pass look-up without vectors: search and move down in
   one pass, as cg_cache_block_missed does (two passes, search then
   move, made matrix_walk under --cpu=generic --sim-vector=no 25 %
   slower) */
static UInt demand_lookup(UWord* set, Int assoc, UWord block,
                          CgLookupKind kind, Bool write, UWord* victim)
{
   UWord displaced = set[0], dirty = write ? CG_DIRTY_MARK : 0;
   UInt outcome;
   Int way;

   *victim = CG_NO_BLOCK;
   for (way = 0; ; way++) {
      UWord here = way == 0 ? displaced : set[way];
      if ((here & ~CG_MARKS) == block) {
         /* A demand hit takes the prefetch mark off, and says so */
         outcome = 0;
         if (kind == CG_LOOKUP_DEMAND && (here & CG_PREFETCH_MARK)) {
            outcome = CG_LOOKUP_WAS_MARKED;
            here &= ~CG_PREFETCH_MARK;
         }
         if (way > 0)
            set[way] = displaced;
         set[0] = here | dirty;
         return outcome;
      }
      if (way > 0) {
         set[way] = displaced;
         displaced = here;
      }
      if (way == assoc - 1)
         break;
   }
   /* A miss: the last way's line fell off */
   outcome = CG_LOOKUP_MISSED;
   *victim = cg_cache_unmarked(displaced);
   if (displaced != CG_NO_BLOCK && (displaced & CG_DIRTY_MARK))
      outcome |= CG_LOOKUP_VICTIM_DIRTY;
   set[0] = block | dirty;
   return outcome;
}

UInt cg_cache_block_lookup(CacheLevel* level, UWord block, CgLookupKind kind,
                           Bool write, UWord* victim)
{
   UWord* set = level->tags + (block & level->set_mask) * level->assoc;
   Int top, last = level->assoc - 1;
   UInt outcome = CG_LOOKUP_MISSED;

#if defined(VGA_amd64)
   if (level->search_vectors != 0)
      return lru_lookup_avx2(set, level->search_vectors, block, kind, write,
                             victim);
#endif
   if (kind != CG_LOOKUP_PREFETCH)
      return demand_lookup(set, level->assoc, block, kind, write, victim);
   /* A prefetch of a line already there is no prefetch: nothing changes
      (cg_hierarchy.c counts none).  CG_NO_BLOCK without the marks is no
      block either. */
   *victim = CG_NO_BLOCK;
   if (cg_cache_find_way(level, set, block, CG_MARKS) >= 0)
      return CG_LOOKUP_PRESENT;
   *victim = cg_cache_unmarked(set[last]);
   if (set[last] != CG_NO_BLOCK && (set[last] & CG_DIRTY_MARK))
      outcome |= CG_LOOKUP_VICTIM_DIRTY;
   /* The fill goes in below the most recent line (way 1), which stays
      where compiled code's MRU filter expects it */
   top = level->assoc > 1 ? 1 : 0;
   move_down(set, top, last);
   set[top] = block | CG_PREFETCH_MARK | (write ? CG_DIRTY_MARK : 0);
   return outcome;
}

Bool cg_cache_block_invalidate(CacheLevel* level, UWord block)
{
   UWord* set = level->tags + (block & level->set_mask) * level->assoc;
   Int last = level->assoc - 1;
   Int way = cg_cache_find_way(level, set, block, CG_MARKS);

   if (way < 0)
      return False;
   /* The ways below move up: the order of the rest is kept */
   for (; way < last; way++)
      set[way] = set[way + 1];
   set[last] = CG_NO_BLOCK;
   return True;
}
