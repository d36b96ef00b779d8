/* cg_coherence.c -- private caches per thread, and the writes that
   invalidate them (--caches=per-thread; cg_coherence.h states the
   rules).

   Owns: each thread's saved I1, D1 and L2 (tags and MRU mirror slots),
   the last write to every line written while several threads exist,
   and each thread's lines removed and not missed on yet.
   Must not: simulate (cg_sim.c does, on whichever thread's levels are
   in place).

   Why it is shaped so: the simulator's levels are static and compiled
   code reads their MRU mirrors at fixed addresses, so a thread switch
   swaps the tag arrays and copies the mirror slots (a few kilobytes;
   L2's tags move by pointer).  Writes are recorded in a table, line ->
   (writer, sequence number); a thread that runs again scans its own
   D1 and L2 for lines another thread wrote since it last ran.  That is
   a pass over two levels per switch, and a table update per write, in
   place of a look-up in every other thread's caches per write. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cg_coherence.h"
#include "cg_threads.h"
#include "cg_tool.h"

enum { PRIVATE_I1, PRIVATE_D1, PRIVATE_L2, N_PRIVATE };

/* A set of block numbers (open addressing; 0 is free: block 0 is never
   used, address 0 is never mapped) */
typedef struct {
   UWord* slots;
   UWord  mask;
   UWord  n;
} BlockSet;

typedef struct {
   UWord*   tags[N_PRIVATE];
   UWord*   mirror[N_PRIVATE];   /* I1 and D1: one slot a set */
   ULong    last_seq;            /* the write sequence when it stopped */
   BlockSet removed;             /* D1 lines removed, not missed on yet */
   Bool     exists;
} ThreadCaches;

static Bool enabled;
static CacheLevel* levels[N_PRIVATE];
static ThreadCaches initial;       /* a new thread's */
static ThreadCaches* saved;        /* by thread number */
static UInt n_saved;
static UInt running = 1;

/* The last write to each line (of D1's line size): (sequence << 16) |
   writer, writers above 65,534 sharing the last number */
static BlockSet written_lines;
static ULong* written_values;      /* beside written_lines.slots */
static ULong write_seq;
static Int write_line_bits;

Bool cg_coherence_enabled(void) { return enabled; }

/*------------------------------------------------------------*/
/*--- Block sets                                           ---*/
/*------------------------------------------------------------*/

static UWord slot_of(const BlockSet* s, UWord block)
{
   return (UWord)((block * 0x9E3779B97F4A7C15ULL) >> 24) & s->mask;
}

static void set_init(BlockSet* s, UWord size)
{
   s->mask = size - 1;
   s->n = 0;
   s->slots = VG_(calloc)("cg.coherence.set", size, sizeof(UWord));
}

/* The slot holding `block`, or the free slot where it would go */
static UWord set_find(const BlockSet* s, UWord block)
{
   UWord i = slot_of(s, block);

   while (s->slots[i] != 0 && s->slots[i] != block)
      i = (i + 1) & s->mask;
   return i;
}

/* Removes by moving later entries of the probe run back */
static Bool set_remove(BlockSet* s, UWord block)
{
   UWord i = set_find(s, block), j;

   if (s->slots[i] == 0)
      return False;
   s->slots[i] = 0;
   s->n--;
   for (j = (i + 1) & s->mask; s->slots[j] != 0; j = (j + 1) & s->mask) {
      UWord b = s->slots[j];
      s->slots[j] = 0;
      s->slots[set_find(s, b)] = b;
   }
   return True;
}

static void set_add(BlockSet* s, UWord block)
{
   UWord i;

   if ((s->n + 1) * 2 > s->mask + 1) {
      BlockSet bigger;
      UWord k;
      set_init(&bigger, (s->mask + 1) * 2);
      for (k = 0; k <= s->mask; k++)
         if (s->slots[k] != 0)
            set_add(&bigger, s->slots[k]);
      VG_(free)(s->slots);
      *s = bigger;
   }
   i = set_find(s, block);
   if (s->slots[i] == 0) {
      s->slots[i] = block;
      s->n++;
   }
}

/*------------------------------------------------------------*/
/*--- Writes                                               ---*/
/*------------------------------------------------------------*/

static void grow_written(void)
{
   BlockSet old = written_lines;
   ULong* old_values = written_values;
   UWord k;

   set_init(&written_lines, (old.mask + 1) * 2);
   written_values = VG_(calloc)("cg.coherence.writes", (old.mask + 1) * 2,
                                sizeof(ULong));
   for (k = 0; k <= old.mask; k++)
      if (old.slots[k] != 0) {
         UWord i = set_find(&written_lines, old.slots[k]);
         written_lines.slots[i] = old.slots[k];
         written_values[i] = old_values[k];
         written_lines.n++;
      }
   VG_(free)(old.slots);
   VG_(free)(old_values);
}

VG_REGPARM(2) void cg_coherence_write(Addr addr, UWord size)
{
   UWord line, last;

   /* With one thread, nothing is in another's caches; a thread created
      later starts empty */
   if (cg_threads_count() == 1)
      return;
   write_seq++;
   last = (addr + (size > 0 ? size : 1) - 1) >> write_line_bits;
   for (line = addr >> write_line_bits; line <= last; line++) {
      UWord i;
      if ((written_lines.n + 1) * 2 > written_lines.mask + 1)
         grow_written();
      i = set_find(&written_lines, line);
      if (written_lines.slots[i] == 0) {
         written_lines.slots[i] = line;
         written_lines.n++;
      }
      written_values[i] = (write_seq << 16)
                          | (running < 0xFFFF ? running : 0xFFFF);
   }
}

/* Whether another thread wrote the line since `since` */
static Bool written_by_other(UWord line, ULong since)
{
   UWord i = set_find(&written_lines, line);
   ULong v;

   if (written_lines.slots[i] == 0)
      return False;
   v = written_values[i];
   return (v >> 16) > since
          && (UInt)(v & 0xFFFF) != (running < 0xFFFF ? running : 0xFFFF);
}

/*------------------------------------------------------------*/
/*--- Thread switches                                      ---*/
/*------------------------------------------------------------*/

static UWord n_tags(const CacheLevel* c)
{
   return (c->set_mask + 1) * (UWord)c->assoc;
}

static UWord* copy_of(const UWord* from, UWord n)
{
   UWord* to = VG_(malloc)("cg.coherence.copy", n * sizeof(UWord));

   VG_(memcpy)(to, from, n * sizeof(UWord));
   return to;
}

static void save_mirror(const CacheLevel* c, UWord* to)
{
   UWord s;

   for (s = 0; s <= c->set_mask; s++)
      to[s] = *cg_cache_mru_slot(c, s);
}

static void load_mirror(CacheLevel* c, const UWord* from)
{
   UWord s;

   for (s = 0; s <= c->set_mask; s++)
      *cg_cache_mru_slot(c, s) = from[s];
}

void cg_coherence_init(CacheLevel* i1, CacheLevel* d1, CacheLevel* l2)
{
   Int k;

   enabled = True;
   levels[PRIVATE_I1] = i1;
   levels[PRIVATE_D1] = d1;
   levels[PRIVATE_L2] = l2;
   if (l2 != NULL)
      cg_cache_level_use_full_tags(l2);   /* removals need full tags */
   for (k = 0; k < N_PRIVATE; k++) {
      CacheLevel* c = levels[k];
      if (c == NULL)
         continue;
      tl_assert(c->tags != NULL);
      initial.tags[k] = copy_of(c->tags, n_tags(c));
      if (c->mru != NULL) {
         initial.mirror[k] = VG_(malloc)("cg.coherence.mirror",
                                         (c->set_mask + 1) * sizeof(UWord));
         save_mirror(c, initial.mirror[k]);
      }
   }
   write_line_bits = d1->line_bits;
   set_init(&written_lines, 1024);
   written_values = VG_(calloc)("cg.coherence.writes", 1024, sizeof(ULong));
}

static ThreadCaches* caches_of(UInt number)
{
   if (number >= n_saved) {
      UInt n = number + 16;
      saved = VG_(realloc)("cg.coherence.threads", saved, n * sizeof *saved);
      VG_(memset)(saved + n_saved, 0, (n - n_saved) * sizeof *saved);
      n_saved = n;
   }
   return &saved[number];
}

/* Lines of level `k` another thread wrote since the thread last ran
   leave it; D1's are remembered as removed */
static void remove_written(ThreadCaches* t, Int k)
{
   CacheLevel* c = levels[k];
   Int per_write_line = c->line_bits - write_line_bits;
   UWord i, n = n_tags(c);

   for (i = 0; i < n; i++) {
      UWord block = c->tags[i], line;
      Bool hit = False;
      if (block == 0 || block == CG_NO_BLOCK)
         continue;
      /* A level's line may hold several of D1's (or be part of one) */
      for (line = per_write_line >= 0 ? block << per_write_line
                                       : block >> -per_write_line;
           !hit && line <= (per_write_line >= 0
                            ? ((block + 1) << per_write_line) - 1
                            : block >> -per_write_line);
           line++)
         hit = written_by_other(line, t->last_seq);
      if (!hit)
         continue;
      cg_cache_block_invalidate(c, block);
      /* The ways moved up: the set's MRU slot follows its first way */
      if (c->mru != NULL)
         *cg_cache_mru_slot(c, block)
            = cg_cache_mru_value(c, c->tags[(block & c->set_mask)
                                             * c->assoc]);
      if (k == PRIVATE_D1)
         set_add(&t->removed, block);
      i--;                    /* the next way moved into this one */
   }
}

void cg_coherence_thread_runs(ThreadId tid)
{
   UInt number;
   ThreadCaches *from, *to;
   Int k;

   if (!enabled)
      return;
   number = cg_threads_number_of(tid);
   if (number == running)
      return;
   from = caches_of(running);
   to = caches_of(number);
   from->exists = True;
   from->last_seq = write_seq;
   if (from->removed.slots == NULL)
      set_init(&from->removed, 64);
   for (k = 0; k < N_PRIVATE; k++) {
      CacheLevel* c = levels[k];
      if (c == NULL)
         continue;
      from->tags[k] = c->tags;
      if (c->mru != NULL) {
         if (from->mirror[k] == NULL)
            from->mirror[k] = VG_(malloc)("cg.coherence.mirror",
                                          (c->set_mask + 1) * sizeof(UWord));
         save_mirror(c, from->mirror[k]);
      }
      if (!to->exists) {
         to->tags[k] = copy_of(initial.tags[k], n_tags(c));
         if (c->mru != NULL)
            to->mirror[k] = copy_of(initial.mirror[k], c->set_mask + 1);
      }
      c->tags = to->tags[k];
      if (c->mru != NULL)
         load_mirror(c, to->mirror[k]);
   }
   if (!to->exists) {
      to->exists = True;
      to->last_seq = write_seq;
      set_init(&to->removed, 64);
   }
   running = number;
   remove_written(to, PRIVATE_D1);
   if (levels[PRIVATE_L2] != NULL)
      remove_written(to, PRIVATE_L2);
   to->last_seq = write_seq;
}

void cg_coherence_d1_missed(CostCentre* cc, Addr addr, UWord size,
                            UWord counted)
{
   const CacheLevel* d1 = levels[PRIVATE_D1];
   ThreadCaches* t = caches_of(running);
   UWord first = addr >> d1->line_bits;
   UWord last = (addr + (size > 0 ? size : 1) - 1) >> d1->line_bits;
   Bool coherence = False;
   UWord b;

   if (t->removed.slots == NULL || t->removed.n == 0)
      return;
   for (b = first; b <= last; b++)
      coherence |= set_remove(&t->removed, b);
   if (coherence)
      cc->count[EV_D1_COHERENCE_MISS] += counted;
}
