/* cg_lineuse.c -- line use (--cacheuse=yes; cg_lineuse.h states the
   rules, manual 5.13 explains them).

   Owns: for each tracked level, a record per resident line: its
   block, its loader, the chunks used and the number of uses.
   Must not: decide hits and misses.  cg_hierarchy.c tells it which
   line filled which way's place; residency is only what it is told.

   Why it is shaped so: the records sit in a side array with a slot per
   way, unordered within their set and found by a search of the set,
   because LRU levels move their tags on every access and policies do
   not: one layout for both, and the level's own code stays untouched.
   Line use is an analysis option whose every access reaches the model
   anyway (a hit changes a line's use); a search of one set per access
   and level is its price. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cg_lineuse.h"
#include "cg_cache.h"
#include "cg_tool.h"
#include "cg_vgcompat.h"

#define CHUNKS_PER_LINE 64
#define ACCESS_COST_UNIT 1000

typedef struct {
   CostCentre* loader;
   ULong       chunks_used; /* bit i: chunk i touched */
   ULong       uses;
} LineRecord;

typedef struct {
   Bool        tracked;
   Int         line_bits;
   Int         chunk_bits;  /* log2 of the bytes a chunk bit stands for */
   UWord       set_mask;
   Int         assoc;
   UInt        spatial_loss_event, access_cost_event;
   /* assoc slots per set: the tags apart, so that a search reads only
      them (a 30-way set's 240 bytes, not its records' 720) */
   UWord*      tags;        /* block + 1; 0: a free slot */
   LineRecord* records;
   /* Each set's slots in use are its first `resident[set]`: a search
      stops there (a host-sized LL holds a line or two a set) */
   UShort*     resident;
   /* The slot found last: a fetch or a walk uses one line many times
      in a row */
   SizeT       last_slot;
} UseLevel;

static UseLevel use_levels[CG_USE_N_LEVELS];

/* A host-sized LL has millions of ways: fresh zero pages from the
   address space manager, touched only where lines come in, rather than
   a calloc that writes them all (285 MB resident for a 480 MB LL) */
static void* zeroed_array(SizeT n, SizeT size)
{
   SizeT bytes = n * size;
   void* array = bytes >= (1 << 20) ? cg_shadow_alloc(bytes) : NULL;

   if (array == NULL)
      array = VG_(calloc)("cg.lineuse.records", n, size);
   return array;
}

void cg_lineuse_init(CgUseLevel level, Int line_bits, UWord sets, Int assoc)
{
   UseLevel* u = &use_levels[level];

   u->tracked = True;
   u->line_bits = line_bits;
   u->chunk_bits = line_bits > 6 ? line_bits - 6 : 0;
   u->set_mask = sets - 1;
   u->assoc = assoc;
   u->spatial_loss_event = level == CG_USE_LL ? EV_LL_SPATIAL_LOSS
                                              : EV_L1_SPATIAL_LOSS;
   u->access_cost_event = level == CG_USE_LL ? EV_LL_ACCESS_COST
                                             : EV_L1_ACCESS_COST;
   u->tags = zeroed_array(sets * (SizeT)assoc, sizeof(UWord));
   u->records = zeroed_array(sets * (SizeT)assoc, sizeof(LineRecord));
   u->resident = zeroed_array(sets, sizeof(UShort));
   tl_assert(assoc <= 0xFFFF);
}

/* The slot of `block` (not CG_NO_BLOCK), or -1 if not resident */
static Long find(UseLevel* u, UWord block)
{
   UWord set = block & u->set_mask;
   SizeT first = set * (SizeT)u->assoc;
   Int way, n = u->resident[set];

   if (u->tags[u->last_slot] == block + 1)
      return (Long)u->last_slot;
   for (way = 0; way < n; way++)
      if (u->tags[first + way] == block + 1) {
         u->last_slot = first + way;
         return (Long)u->last_slot;
      }
   return -1;
}

/* Bits set in x (no library call in a tool) */
static UInt bits_set(ULong x)
{
   UInt n = 0;

   for (; x != 0; x &= x - 1)
      n++;
   return n;
}

/* A residency ends: the loader is charged */
static void leave(UseLevel* u, SizeT slot)
{
   const LineRecord* r = &u->records[slot];
   UWord line_size = (UWord)1 << u->line_bits;
   UWord bytes_used = (UWord)bits_set(r->chunks_used) << u->chunk_bits;

   if (r->loader != NULL) {
      r->loader->count[u->spatial_loss_event] += line_size - bytes_used;
      /* uses is 0 only for a line a straddle's second fill evicted at
         once: taken as 1 */
      r->loader->count[u->access_cost_event]
         += r->uses == 0 ? ACCESS_COST_UNIT : ACCESS_COST_UNIT / r->uses;
   }
   /* The set's last record fills the hole: its slots stay packed */
   {
      UWord set = slot / (SizeT)u->assoc;
      SizeT last = set * (SizeT)u->assoc + --u->resident[set];
      u->tags[slot] = u->tags[last];
      u->records[slot] = u->records[last];
      u->tags[last] = 0;
   }
}

void cg_lineuse_fill(CgUseLevel level, UWord block, UWord victim,
                     CostCentre* loader)
{
   UseLevel* u = &use_levels[level];
   Long gone = victim == CG_NO_BLOCK ? -1 : find(u, victim);
   UWord set = block & u->set_mask;
   SizeT slot;

   if (gone >= 0)
      leave(u, (SizeT)gone);
   /* The level had room or evicted `victim`: a slot is free */
   tl_assert(u->resident[set] < u->assoc);
   slot = set * (SizeT)u->assoc + u->resident[set]++;
   u->tags[slot] = block + 1;
   u->records[slot].loader = loader;
   u->records[slot].chunks_used = 0;
   u->records[slot].uses = 0;
}

/* The chunks of the line `block` that [addr, addr + size) covers */
static ULong chunks_touched(const UseLevel* u, UWord block, Addr addr,
                            UWord size)
{
   Addr line_start = block << u->line_bits;
   Addr line_end = line_start + ((Addr)1 << u->line_bits);   /* excl. */
   Addr from = addr > line_start ? addr : line_start;
   Addr to = addr + size < line_end ? addr + size : line_end; /* excl. */
   UInt first = (UInt)((from - line_start) >> u->chunk_bits);
   UInt last = (UInt)((to - 1 - line_start) >> u->chunk_bits);
   UInt n = last - first + 1;

   return (n >= CHUNKS_PER_LINE ? ~0ULL : ((1ULL << n) - 1)) << first;
}

void cg_lineuse_use(CgUseLevel level, Addr addr, UWord size)
{
   UseLevel* u = &use_levels[level];
   UWord bytes = (UChar)size;         /* as the levels take sizes */
   UWord block, last_block;

   if (bytes == 0)
      return;
   last_block = (addr + bytes - 1) >> u->line_bits;
   for (block = addr >> u->line_bits; block <= last_block; block++) {
      Long slot = find(u, block);
      if (slot < 0)
         continue;       /* not resident (nine: LL may have evicted it) */
      u->records[slot].chunks_used |= chunks_touched(u, block, addr, bytes);
      u->records[slot].uses++;
   }
}

void cg_lineuse_finish(void)
{
   Int level;

   for (level = 0; level < CG_USE_N_LEVELS; level++) {
      UseLevel* u = &use_levels[level];
      SizeT i, n;

      if (!u->tracked)
         continue;
      n = u->set_mask + 1;
      for (i = 0; i < n; i++)
         while (u->resident[i] > 0)
            leave(u, i * (SizeT)u->assoc);
   }
}
