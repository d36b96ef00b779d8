/* cgref.c -- the tests' reference cache model: an independent,
   deliberately plain simulator driven by an address trace, against
   which the tool's models are checked (tests/refmodel.t).  It shares no
   code with the tool: each level is an array of sets, each set an array
   of tags kept in LRU order, searched linearly.

   Input (stdin): Valgrind Lackey's --trace-mem=yes lines,
     "I  <hex addr>,<size>"   an instruction fetch
     " L <hex addr>,<size>"   a data read
     " S <hex addr>,<size>"   a data write
     " M <hex addr>,<size>"   a modify (read and write of one place)
   anything else is skipped (Lackey's own messages).

   Model (Cachegrind 3.19's, as manual.md 6 describes it):
   - A level has size / (line * assoc) sets; an address's block is
     addr / line, its set block mod sets.  A set keeps its blocks most
     recently used first; a look-up of a block moves it to the front
     (a hit) or inserts it there, dropping the last (a miss).
   - An access of [addr, addr + size) looks up the block of its first
     byte and, if the last byte is in another block, that one too; it
     misses if either look-up missed.  Sizes are taken modulo 256, as
     the model keeps them in 8 bits.
   - A fetch looks up I1, a data access D1; on an L1 miss the same
     access looks up LL.  A modify is one access, counted as a read.
   - With --L2 (manual.md 5.8), an L1 miss looks up L2 instead, and an
     L2 miss the same access in LL.
   - With --D1-prefetch, --L2-prefetch and --LL-prefetch (manual.md
     5.10; next-line or stream), after an access each level it reached
     that has a prefetcher, from the top, fetches its lines: a line
     already there is not fetched; else it is counted (pf), fills the
     level marked and its first byte's block is looked up unmarked in
     each level below (an LRU level puts a prefetched line second, under
     its most recent one).  A demand hit on a marked line unmarks it and
     counts a useful prefetch (pfu).  The counts then end with "D1pf
     D1pfu L2pf L2pfu LLpf LLpfu" for the levels that have one.
   - With --simulate-wb=yes (manual.md 5.12), a write or a modify
     makes its D1 lines dirty; a look-up that evicts a dirty line writes
     it into the level below (looked up as a prefetch passing, made
     dirty there) or, from LL, to memory; an access's LL miss that
     evicted a dirty line counts an "LL dirty miss" of its kind, printed
     after each kind's LL misses.
   - With --LL-inclusion=inclusive (manual.md 5.9), each line LL evicts
     is removed from I1, D1 and L2 (every upper line inside it) at once;
     with exclusive, LL's look-up removes the lines it finds and fills
     nothing, and then the victims of the level above (L2's, or the
     L1's without one) are looked up in LL in the order they were
     evicted.  Levels start empty (so do LRU levels here, always: a
     set of 3.19's holding block 0's tag behaves the same for every
     block but 0, which no program touches).

   Output (stdout): one line, "Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw"
   as numbers separated by spaces; with --L2, "Ir I1mr I2mr ILmr Dr D1mr
   D2mr DLmr Dw D1mw D2mw DLmw".  With --per-cc, then a line
   "<file>\t<fn>\t<line>\t<counts>" for each cost centre that ran, from
   a trace of the tool's own (--trace-out-file, whose fetch lines name
   the cost centre of their instruction and whose C lines name cost
   centres; cg_trace.h).

   With --cacheuse=yes (manual.md 5.13; nine, no prefetchers, no
   write-backs), each way of I1, D1 and LL keeps, beside its tag and
   moving with it, the line's loader (the cost centre of the access
   whose miss filled it), the 64 chunks used and the number of uses.
   After each access, the lines of its L1 and of LL that hold its bytes
   are used (if resident).  A line leaving (a fill's victim, or the end
   of the run) charges its loader SpLoss += line - bytes used and
   AcCost += 1000 / uses; the counts end with "SpLoss1 SpLoss2 AcCost1
   AcCost2" (1: I1 and D1; 2: LL).

   --D1-prefetch=stride and --L2-prefetch=stride (manual.md 5.10): a
   256-entry table indexed by the instruction's address mod 256 (the
   last fetch's address for a data access, the fetch's own for a
   fetch), each entry its instruction, last address, stride and
   confidence; confidence 2 fetches the line of address + stride.

   With --LL-policy=plru|srrip|brrip|random, --I1-policy and
   --D1-policy (and --seed=<n>), a level follows that policy as
   manual.md 5.7 states it: it starts empty; a miss fills the
   lowest-numbered empty way, else the policy's victim.

   Usage: cgref --I1=<size>,<assoc>,<line> --D1=... --LL=... [--L2=...]
                [--I1-policy=<p>] [--D1-policy=<p>] [--L2-policy=<p>]
                [--LL-policy=<p>] [--LL-inclusion=<m>] [--seed=<n>]
                [--D1-prefetch=<p>] [--L2-prefetch=<p>] [--LL-prefetch=<p>]
                [--simulate-wb=yes] [--cacheuse=yes] [--per-cc] < trace */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LRU, PLRU, SRRIP, BRRIP, RANDOM };
enum { NINE, INCLUSIVE, EXCLUSIVE };
static int inclusion = NINE;

typedef struct Level {
   uint64_t  sets;
   uint64_t  assoc;
   uint64_t  line;
   uint64_t* tags;      /* sets * assoc, MRU first; 0: empty */
   uint8_t*  mark;      /* per way (moving with its tag under LRU): a
                           prefetch brought the line, no demand hit yet */
   int       prefetcher;   /* NONE, NEXT_LINE, STREAM */
   struct Level* below;    /* where its dirty lines go (NULL: memory) */
   int       pf_index;     /* its column pair among the pf counts: D1 0,
                              L2 1, LL 2 */
   uint64_t  last_line[8]; /* stream: per stream */
   int64_t   run[8];
   struct { uint64_t pc, last; int64_t stride; int confidence; }
             stride[256];  /* stride: per entry */
   /* --cacheuse: per way, moving with its tag under LRU; use_group 0
      for the L1s, 1 for LL, -1 untracked */
   int       use_group;
   int64_t*  u_loader;     /* cost centre; -1: none */
   uint64_t* u_chunks;
   uint64_t* u_uses;
   /* Other policies: tags stay where they were put */
   int       policy;
   uint8_t*  valid;     /* per way */
   uint8_t*  rrpv;      /* per way, 0..3 */
   uint8_t*  tree;      /* plru: per set, assoc bytes: node n's bit at n */
   uint64_t  rng;
} Level;

static void die(const char* what, const char* arg)
{
   fprintf(stderr, "cgref: %s%s\n", what, arg);
   exit(2);
}

static void level_init(Level* l, const char* spec, const char* opt)
{
   unsigned long long size, assoc, line;

   if (sscanf(spec, "%llu,%llu,%llu", &size, &assoc, &line) != 3
       || size == 0 || assoc == 0 || line == 0
       || size % (assoc * line) != 0)
      die("bad geometry: ", opt);
   l->sets = size / (assoc * line);
   l->assoc = assoc;
   l->line = line;
   /* Tags are block numbers + 1, so that 0 means an empty way */
   l->tags = calloc(l->sets * l->assoc, sizeof(uint64_t));
   l->mark = calloc(l->sets * l->assoc, 1);
   if (l->tags == NULL || l->mark == NULL)
      die("out of memory for ", opt);
}

/* --cacheuse (manual.md 5.13): on; the cost centre of the access being
   simulated; the charges in total and per cost centre ([group][0]
   SpLoss, [1] AcCost) */
static int use_on;
static int64_t cur_cc = -1;
static uint64_t use_total[2][2];
static uint64_t (*use_cc)[2][2];
static uint64_t use_n_cc;

static void use_alloc(Level* l, int group)
{
   uint64_t n = l->sets * l->assoc, i;

   l->use_group = group;
   l->u_loader = malloc(n * sizeof(int64_t));
   l->u_chunks = calloc(n, sizeof(uint64_t));
   l->u_uses = calloc(n, sizeof(uint64_t));
   if (l->u_loader == NULL || l->u_chunks == NULL || l->u_uses == NULL)
      die("out of memory for --cacheuse", "");
   for (i = 0; i < n; i++)
      l->u_loader[i] = -1;
}

static int bits_in(uint64_t x)
{
   int n = 0;

   for (; x != 0; x >>= 1)
      n += (int)(x & 1);
   return n;
}

/* The line in way `w` (an index into the level's ways) leaves */
static void use_leave(Level* l, uint64_t w)
{
   uint64_t chunk = l->line > 64 ? l->line / 64 : 1;
   uint64_t loss = l->line - (uint64_t)bits_in(l->u_chunks[w]) * chunk;
   uint64_t cost = 1000 / (l->u_uses[w] == 0 ? 1 : l->u_uses[w]);
   int64_t c = l->u_loader[w];

   use_total[l->use_group][0] += loss;
   use_total[l->use_group][1] += cost;
   if (use_cc != NULL && c >= 0 && (uint64_t)c < use_n_cc) {
      use_cc[c][l->use_group][0] += loss;
      use_cc[c][l->use_group][1] += cost;
   }
}

/* A fill into way `w`: its record starts */
static void use_start(Level* l, uint64_t w)
{
   l->u_loader[w] = cur_cc;
   l->u_chunks[w] = 0;
   l->u_uses[w] = 0;
}

/* The block a miss evicted: block + 1, 0 if it took an empty way */
static uint64_t evicted;
/* How a look-up treats marks (manual.md 5.10): a demand hit takes the
   mark off (and was_marked says it was there); a prefetch's fill puts
   one on; a pass-through (a prefetch below its level) does neither. */
enum { DEMAND, PREFETCH, PASS };
static int was_marked;

/* Whether the last look-up's eviction was of a dirty line
   (--simulate-wb: mark bit 2) */
static int evicted_dirty;

/* One block; 1 if it missed.  `write` makes the line dirty.  A line's
   mark: bit 1 prefetched and not hit since, bit 2 dirty. */
static int lookup_block(Level* l, uint64_t block, int kind, int write)
{
   uint64_t* set = l->tags + (block % l->sets) * l->assoc;
   uint8_t* mark = l->mark + (block % l->sets) * l->assoc;
   uint64_t tag = block + 1;
   uint64_t i, top, found = l->assoc;
   uint8_t m;

   for (i = 0; i < l->assoc; i++)
      if (set[i] == tag) {
         found = i;
         break;
      }
   evicted = found == l->assoc ? set[l->assoc - 1] : 0;
   evicted_dirty = evicted != 0 && (mark[l->assoc - 1] & 2);
   was_marked = 0;
   if (found == l->assoc) {
      m = kind == PREFETCH;
   } else {
      m = mark[found];
      if (kind == DEMAND && (m & 1)) {
         was_marked = 1;
         m &= ~1;
      }
   }
   if (write)
      m |= 2;
   /* Move everything above the found way (or the whole set, dropping
      its last block) down by one, and put the block in front -- a
      prefetch's fill second, under the most recent block */
   i = found == l->assoc ? l->assoc - 1 : found;
   top = kind == PREFETCH && l->assoc > 1 ? 1 : 0;
   if (l->use_group >= 0) {
      uint64_t base = (block % l->sets) * l->assoc, j;
      int64_t loader = 0;
      uint64_t chunks = 0, uses = 0;
      if (found == l->assoc && evicted != 0)
         use_leave(l, base + l->assoc - 1);
      else if (found < l->assoc) {
         loader = l->u_loader[base + found];
         chunks = l->u_chunks[base + found];
         uses = l->u_uses[base + found];
      }
      for (j = i; j > top; j--) {
         l->u_loader[base + j] = l->u_loader[base + j - 1];
         l->u_chunks[base + j] = l->u_chunks[base + j - 1];
         l->u_uses[base + j] = l->u_uses[base + j - 1];
      }
      if (found == l->assoc) {
         use_start(l, base + top);
      } else {
         l->u_loader[base + top] = loader;
         l->u_chunks[base + top] = chunks;
         l->u_uses[base + top] = uses;
      }
   }
   for (; i > top; i--) {
      set[i] = set[i - 1];
      mark[i] = mark[i - 1];
   }
   set[top] = tag;
   mark[top] = m;
   return found == l->assoc;
}

/* The generator of manual 5.7 (xorshift64 over a multiplied seed) */
static uint64_t next_draw(Level* l)
{
   l->rng ^= l->rng << 13;
   l->rng ^= l->rng >> 7;
   l->rng ^= l->rng << 17;
   return l->rng;
}

/* plru: the tree's nodes are numbered 1.. from the root, node n's
   children 2n and 2n+1; a node's bit says the victim is in its upper
   child.  An access turns every node on its way's path to the other
   child. */
static void plru_access(uint8_t* bits, uint64_t assoc, uint64_t way)
{
   uint64_t node = 1, lo = 0, hi = assoc;

   while (hi - lo > 1) {
      uint64_t mid = (lo + hi) / 2;
      int upper = way >= mid;
      bits[node] = !upper;
      node = 2 * node + upper;
      if (upper)
         lo = mid;
      else
         hi = mid;
   }
}

static uint64_t plru_victim(const uint8_t* bits, uint64_t assoc)
{
   uint64_t node = 1, lo = 0, hi = assoc;

   while (hi - lo > 1) {
      uint64_t mid = (lo + hi) / 2;
      int upper = bits[node];
      node = 2 * node + upper;
      if (upper)
         lo = mid;
      else
         hi = mid;
   }
   return lo;
}

static int lookup_block_policy(Level* l, uint64_t block, int kind, int write)
{
   uint64_t s = block % l->sets;
   uint64_t* tags = l->tags + s * l->assoc;
   uint8_t* valid = l->valid + s * l->assoc;
   uint8_t* rrpv = l->rrpv + s * l->assoc;
   uint8_t* bits = l->tree + s * l->assoc;
   uint64_t w, victim;
   int have_victim = 0;

   was_marked = 0;
   evicted_dirty = 0;
   for (w = 0; w < l->assoc; w++)
      if (valid[w] && tags[w] == block) {
         if (kind == DEMAND && (l->mark[s * l->assoc + w] & 1)) {
            was_marked = 1;
            l->mark[s * l->assoc + w] &= ~1;
         }
         if (write)
            l->mark[s * l->assoc + w] |= 2;
         if (l->policy == PLRU)
            plru_access(bits, l->assoc, w);
         else if (l->policy == SRRIP || l->policy == BRRIP)
            rrpv[w] = 0;
         return 0;
      }
   for (w = 0; w < l->assoc && !have_victim; w++)
      if (!valid[w]) {
         victim = w;
         have_victim = 1;
      }
   evicted = 0;
   if (!have_victim) {
      if (l->policy == PLRU) {
         victim = plru_victim(bits, l->assoc);
      } else if (l->policy == RANDOM) {
         victim = next_draw(l) % l->assoc;
      } else {
         for (;;) {
            for (w = 0; w < l->assoc && rrpv[w] != 3; w++)
               ;
            if (w < l->assoc)
               break;
            for (w = 0; w < l->assoc; w++)
               rrpv[w]++;
         }
         victim = w;
      }
      evicted = tags[victim] + 1;
      evicted_dirty = (l->mark[s * l->assoc + victim] & 2) != 0;
      if (l->use_group >= 0)
         use_leave(l, s * l->assoc + victim);
   }
   if (l->use_group >= 0)
      use_start(l, s * l->assoc + victim);
   tags[victim] = block;
   valid[victim] = 1;
   l->mark[s * l->assoc + victim] = (kind == PREFETCH) | (write ? 2 : 0);
   if (l->policy == PLRU)
      plru_access(bits, l->assoc, victim);
   else if (l->policy == SRRIP)
      rrpv[victim] = 2;
   else if (l->policy == BRRIP)
      rrpv[victim] = next_draw(l) % 32 == 0 ? 2 : 3;
   return 1;
}

/* Removes a block from a level; 1 if it was there. */
static int remove_block(Level* l, uint64_t block)
{
   uint64_t s = block % l->sets, w;
   uint64_t* tags = l->tags + s * l->assoc;

   for (w = 0; w < l->assoc; w++) {
      if (l->policy == LRU && tags[w] == block + 1) {
         uint8_t* mark = l->mark + s * l->assoc;
         for (; w + 1 < l->assoc; w++) {
            tags[w] = tags[w + 1];
            mark[w] = mark[w + 1];
         }
         tags[l->assoc - 1] = 0;
         mark[l->assoc - 1] = 0;
         return 1;
      }
      if (l->policy != LRU && l->valid[s * l->assoc + w] && tags[w] == block) {
         l->valid[s * l->assoc + w] = 0;
         return 1;
      }
   }
   return 0;
}

/* --simulate-wb (manual.md 5.12): on, and the lines each level wrote
   back (not printed; the events count the LL misses that did) */
static int wb_on;

/* A look-up; a dirty line it evicts is written into the level below
   (`below`: L2 or LL, NULL for LL: memory), looked up there as a
   prefetch's pass and made dirty.  `evicted` and `evicted_dirty` stay
   this look-up's. */
static int lookup_kind(Level* l, uint64_t block, int kind, int write)
{
   int missed = l->policy == LRU ? lookup_block(l, block, kind, write)
                                 : lookup_block_policy(l, block, kind, write);

   if (wb_on && evicted_dirty && l->below != NULL) {
      uint64_t e = evicted, b = (evicted - 1) * l->line / l->below->line;
      int d = evicted_dirty, wm = was_marked;
      lookup_kind(l->below, b, PASS, 1);
      evicted = e;
      evicted_dirty = d;
      was_marked = wm;
   }
   return missed;
}

static int lookup(Level* l, uint64_t block)
{
   return lookup_kind(l, block, DEMAND, 0);
}

/* Whether a block is in a level (nothing changes) */
static int present(const Level* l, uint64_t block)
{
   uint64_t s = block % l->sets, w;

   for (w = 0; w < l->assoc; w++) {
      if (l->policy == LRU && l->tags[s * l->assoc + w] == block + 1)
         return 1;
      if (l->policy != LRU && l->valid[s * l->assoc + w]
          && l->tags[s * l->assoc + w] == block)
         return 1;
   }
   return 0;
}

/* --cacheuse: [addr, addr + size) uses the level's lines that hold its
   bytes and are there */
static void use_lines(Level* l, uint64_t addr, uint64_t size)
{
   uint64_t chunk = l->line > 64 ? l->line / 64 : 1;
   uint64_t block, end = addr + size;   /* exclusive */

   if (size == 0)
      return;
   for (block = addr / l->line; block <= (end - 1) / l->line; block++) {
      uint64_t s = block % l->sets, w, start = block * l->line;
      uint64_t from = addr > start ? addr : start;
      uint64_t to = end < start + l->line ? end : start + l->line;
      uint64_t c;
      for (w = 0; w < l->assoc; w++) {
         uint64_t i = s * l->assoc + w;
         int here = l->policy == LRU ? l->tags[i] == block + 1
                                     : l->valid[i] && l->tags[i] == block;
         if (!here)
            continue;
         for (c = (from - start) / chunk; c <= (to - 1 - start) / chunk; c++)
            l->u_chunks[i] |= UINT64_C(1) << c;
         l->u_uses[i]++;
         break;
      }
   }
}

/* The end of the run: every resident line of a tracked level leaves */
static void use_finish(Level* l)
{
   uint64_t i;

   for (i = 0; i < l->sets * l->assoc; i++)
      if (l->policy == LRU ? l->tags[i] != 0 : l->valid[i])
         use_leave(l, i);
}

/* The blocks of an access in a level's lines: n of them (1 or 2) */
static int blocks_of(const Level* l, uint64_t addr, uint64_t size,
                     uint64_t b[2])
{
   b[0] = addr / l->line;
   b[1] = (addr + (size == 0 ? 0 : size - 1)) / l->line;
   return b[1] == b[0] ? 1 : 2;
}

/* D1, L2 (or NULL) and LL, for the prefetchers' fills below a level */
static Level* all_levels[3];

/* The victims of the last access_level (blocks, not + 1), and its
   blocks that missed or hit a marked line (next-line's triggers) */
static uint64_t victims[2], triggers[2];
static int n_victims, n_triggers;
/* Prefetches issued and useful, per prefetching level (D1, L2, LL):
   in total, and of the current cost centre (NULL without --per-cc) */
static uint64_t pf_count[3][2];
static uint64_t (*pf_cc)[2];

static void count_pf(int level, int useful)
{
   pf_count[level][useful]++;
   if (pf_cc != NULL)
      pf_cc[level][useful]++;
}

/* How many of the last access_level's fills evicted a dirty line */
static int n_dirty_evictions;

/* A demand access of a level; `write` dirties its lines */
static int access_level_w(Level* l, uint64_t addr, uint64_t size, int write)
{
   uint64_t b[2];
   int n = blocks_of(l, addr, size, b), i, missed = 0;

   n_victims = 0;
   n_triggers = 0;
   n_dirty_evictions = 0;
   for (i = 0; i < n; i++) {
      int m = lookup_kind(l, b[i], DEMAND, write);
      n_dirty_evictions += m && evicted_dirty;
      if (m) {
         missed = 1;
         if (evicted != 0)
            victims[n_victims++] = evicted - 1;
      }
      if (was_marked)
         count_pf(l->pf_index, 1);
      if (m || was_marked)
         triggers[n_triggers++] = b[i];
   }
   return missed;
}

static int access_level(Level* l, uint64_t addr, uint64_t size)
{
   return access_level_w(l, addr, size, 0);
}

/* A prefetch of `block` into `l`, then the levels below it (`below`,
   NULL-terminated) */
static void prefetch_into(Level* l, uint64_t block, Level** below)
{
   uint64_t addr = block * l->line;

   if (present(l, block))
      return;
   count_pf(l->pf_index, 0);
   lookup_kind(l, block, PREFETCH, 0);
   /* down to the first level that holds the line (it is not filled
      below that one) */
   for (; *below != NULL; below++) {
      uint64_t b = addr / (*below)->line;
      int had = present(*below, b);
      lookup_kind(*below, b, PASS, 0);
      if (had)
         break;
   }
}

/* The stream prefetcher's step for an access at `addr` (manual.md
   5.10); 1 and the line in *out if it fetches */
static int stream_step(Level* l, uint64_t addr, uint64_t* out)
{
   int s = (int)((addr >> 12) % 8);
   uint64_t line = addr / l->line, last = l->last_line[s];
   int fetch = 0;

   if (line == last)
      return 0;
   if (l->run[s] == 0) {
      l->run[s] = line == last + 1 ? 1 : line == last - 1 ? -1 : 0;
   } else if (l->run[s] > 0) {
      if (line == last + 1) {
         l->run[s]++;
         fetch = l->run[s] >= 2;
         *out = line + 5;
      } else {
         l->run[s] = 0;
      }
   } else {
      if (line == last - 1) {
         l->run[s]--;
         fetch = l->run[s] <= -2 && line >= 5;
         *out = line - 5;
      } else {
         l->run[s] = 0;
      }
   }
   l->last_line[s] = line;
   return fetch;
}

/* The stride prefetcher's step (manual.md 5.10) for an access at
   `addr` by the instruction at `pc`; 1 and the line in *out if it
   fetches */
static int stride_step(Level* l, uint64_t addr, uint64_t pc, uint64_t* out)
{
   int e = (int)(pc % 256);
   int64_t distance = (int64_t)(addr - l->stride[e].last);

   if (l->stride[e].pc != pc) {
      l->stride[e].pc = pc;
      l->stride[e].last = addr;
      l->stride[e].stride = 0;
      l->stride[e].confidence = 0;
      return 0;
   }
   if (distance != 0 && distance == l->stride[e].stride) {
      if (l->stride[e].confidence < 2)
         l->stride[e].confidence++;
   } else {
      l->stride[e].stride = distance;
      l->stride[e].confidence = 0;
   }
   l->stride[e].last = addr;
   if (l->stride[e].confidence < 2
       || (int64_t)addr + l->stride[e].stride < 0)
      return 0;
   *out = (addr + (uint64_t)l->stride[e].stride) / l->line;
   return 1;
}

/* After an access: the prefetchers of the levels it reached, from the
   top; trig/n_trig are each one's triggers */
static void run_prefetchers(Level** reached, int n_reached,
                            uint64_t trig[][2], const int* n_trig,
                            uint64_t addr, uint64_t pc)
{
   int r, k;

   for (r = 0; r < n_reached; r++) {
      Level* l = reached[r];
      Level* below[3];
      int nb = 0;
      if (l->prefetcher == 0)
         continue;
      /* the levels under it, whether the access reached them or not */
      for (k = 0; k < 3; k++)
         if (all_levels[k] != NULL && all_levels[k]->pf_index > l->pf_index)
            below[nb++] = all_levels[k];
      below[nb] = NULL;
      if (l->prefetcher == 1) {
         for (k = 0; k < n_trig[r]; k++)
            prefetch_into(l, trig[r][k] + 1, below);
      } else if (l->prefetcher == 2) {
         uint64_t line;
         if (stream_step(l, addr, &line))
            prefetch_into(l, line, below);
      } else {
         uint64_t line;
         if (stride_step(l, addr, pc, &line))
            prefetch_into(l, line, below);
      }
   }
}

/* inclusive: LL's line `block` leaves every upper level */
static void remove_inside(Level* upper, const Level* ll, uint64_t block)
{
   uint64_t from = block * ll->line, to = from + ll->line, a;

   for (a = from - from % upper->line; a < to; a += upper->line)
      remove_block(upper, a / upper->line);
}

static void set_policy(Level* l, const char* name, uint64_t seed)
{
   static const char* const names[] = { "lru", "plru", "srrip", "brrip",
                                        "random" };
   int p;

   for (p = 0; p < 5 && strcmp(name, names[p]) != 0; p++)
      ;
   if (p == 5)
      die("unknown policy: ", name);
   l->policy = p;
   l->valid = calloc(l->sets * l->assoc, 1);
   l->rrpv = calloc(l->sets * l->assoc, 1);
   l->tree = calloc(l->sets * l->assoc, 1);
   if (l->valid == NULL || l->rrpv == NULL || l->tree == NULL)
      die("out of memory for the policy ", name);
   l->rng = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
}

/* Which levels (D1, L2, LL) have a prefetcher: their pf columns */
static int pf_on[3];

/* One line of counts, in the tool's order of events: per kind the
   accesses, L1, [L2,] LL misses [and LL misses that wrote back] */
static void print_counts(uint64_t count[3][5], uint64_t pf[3][2],
                         uint64_t use[2][2], int have_l2)
{
   int a, c;

   for (a = 0; a < 3; a++)
      for (c = 0; c < 5; c++)
         if ((c != 2 || have_l2) && (c != 4 || wb_on))
            printf("%s%" PRIu64, a == 0 && c == 0 ? "" : " ", count[a][c]);
   for (a = 0; a < 3; a++)
      if (pf_on[a])
         printf(" %" PRIu64 " %" PRIu64, pf[a][0], pf[a][1]);
   if (use_on)   /* SpLoss1 SpLoss2 AcCost1 AcCost2 */
      printf(" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
             use[0][0], use[1][0], use[0][1], use[1][1]);
   printf("\n");
}

/* 0 none, 1 next-line, 2 stream, 3 stride */
static int prefetcher_of(const char* name)
{
   if (strcmp(name, "none") == 0)
      return 0;
   if (strcmp(name, "next-line") == 0)
      return 1;
   if (strcmp(name, "stream") == 0)
      return 2;
   if (strcmp(name, "stride") == 0)
      return 3;
   die("unknown prefetcher: ", name);
   return 0;
}

int main(int argc, char** argv)
{
   Level i1, d1, l2, ll;
   int have[3] = { 0, 0, 0 }, have_l2 = 0;
   const char* ll_policy = "lru";
   const char* l2_policy = "lru";
   const char* d1_pf = "none";
   const char* l2_pf = "none";
   const char* ll_pf = "none";
   const char* i1_policy = "lru";
   const char* d1_policy = "lru";
   uint64_t seed = 1;
   /* Per kind (fetch, read, write): accesses, L1, L2 and LL misses */
   uint64_t count[3][5] = { { 0 } };
   /* With --per-cc, the same per cost centre (the tool's trace gives
      each fetch its instruction's; data accesses are the last fetch's) */
   int per_cc = 0;
   uint64_t (*cc_count)[3][5] = NULL;
   uint64_t (*cc_pf)[3][2] = NULL;
   uint64_t n_cc = 0, cc = 0;
   /* The instruction of the access: the last fetch's address */
   uint64_t pc = 0;
   char** cc_name = NULL;   /* "<file>\t<fn>\t<line>" of each, from the
                               trace's C lines */
   char buf[256];
   int a;

   memset(&i1, 0, sizeof i1);
   memset(&d1, 0, sizeof d1);
   memset(&l2, 0, sizeof l2);
   memset(&ll, 0, sizeof ll);
   for (a = 1; a < argc; a++) {
      if (strncmp(argv[a], "--I1=", 5) == 0) {
         level_init(&i1, argv[a] + 5, argv[a]);
         have[0] = 1;
      } else if (strncmp(argv[a], "--D1=", 5) == 0) {
         level_init(&d1, argv[a] + 5, argv[a]);
         have[1] = 1;
      } else if (strncmp(argv[a], "--LL=", 5) == 0) {
         level_init(&ll, argv[a] + 5, argv[a]);
         have[2] = 1;
      } else if (strncmp(argv[a], "--L2=", 5) == 0) {
         level_init(&l2, argv[a] + 5, argv[a]);
         have_l2 = 1;
      } else if (strncmp(argv[a], "--L2-policy=", 12) == 0) {
         l2_policy = argv[a] + 12;
      } else if (strncmp(argv[a], "--LL-policy=", 12) == 0) {
         ll_policy = argv[a] + 12;
      } else if (strncmp(argv[a], "--I1-policy=", 12) == 0) {
         i1_policy = argv[a] + 12;
      } else if (strncmp(argv[a], "--D1-policy=", 12) == 0) {
         d1_policy = argv[a] + 12;
      } else if (strncmp(argv[a], "--LL-inclusion=", 15) == 0) {
         const char* m = argv[a] + 15;
         inclusion = strcmp(m, "nine") == 0 ? NINE
                     : strcmp(m, "inclusive") == 0 ? INCLUSIVE
                     : strcmp(m, "exclusive") == 0 ? EXCLUSIVE : -1;
         if (inclusion < 0)
            die("unknown inclusion: ", m);
      } else if (strncmp(argv[a], "--D1-prefetch=", 14) == 0) {
         d1_pf = argv[a] + 14;
      } else if (strncmp(argv[a], "--L2-prefetch=", 14) == 0) {
         l2_pf = argv[a] + 14;
      } else if (strncmp(argv[a], "--LL-prefetch=", 14) == 0) {
         ll_pf = argv[a] + 14;
      } else if (strcmp(argv[a], "--simulate-wb=yes") == 0) {
         wb_on = 1;
      } else if (strcmp(argv[a], "--cacheuse=yes") == 0) {
         use_on = 1;
      } else if (strcmp(argv[a], "--per-cc") == 0) {
         per_cc = 1;
      } else if (strncmp(argv[a], "--seed=", 7) == 0) {
         seed = strtoull(argv[a] + 7, NULL, 10);
      } else {
         die("unknown option: ", argv[a]);
      }
   }
   if (!have[0] || !have[1] || !have[2])
      die("--I1, --D1 and --LL are all needed", "");
   i1.policy = d1.policy = LRU;
   ll.policy = LRU;
   l2.policy = LRU;
   if (have_l2 && strcmp(l2_policy, "lru") != 0)
      set_policy(&l2, l2_policy, seed);
   i1.use_group = d1.use_group = l2.use_group = ll.use_group = -1;
   if (use_on) {
      if (inclusion != NINE || wb_on || strcmp(d1_pf, "none") != 0
          || strcmp(l2_pf, "none") != 0 || strcmp(ll_pf, "none") != 0)
         die("--cacheuse=yes: nine, no prefetchers, no write-backs", "");
      use_alloc(&i1, 0);
      use_alloc(&d1, 0);
      use_alloc(&ll, 1);
   }
   i1.pf_index = -1;
   d1.pf_index = 0;
   l2.pf_index = 1;
   ll.pf_index = 2;
   d1.prefetcher = prefetcher_of(d1_pf);
   l2.prefetcher = have_l2 ? prefetcher_of(l2_pf) : 0;
   ll.prefetcher = prefetcher_of(ll_pf);
   pf_on[0] = d1.prefetcher != 0;
   pf_on[1] = l2.prefetcher != 0;
   pf_on[2] = ll.prefetcher != 0;
   i1.below = d1.below = have_l2 ? &l2 : &ll;
   l2.below = &ll;
   ll.below = NULL;
   all_levels[0] = &d1;
   all_levels[1] = have_l2 ? &l2 : NULL;
   all_levels[2] = &ll;
   /* Each level its own generator, seeded alike */
   if (strcmp(ll_policy, "lru") != 0)
      set_policy(&ll, ll_policy, seed);
   if (strcmp(i1_policy, "lru") != 0)
      set_policy(&i1, i1_policy, seed);
   if (strcmp(d1_policy, "lru") != 0)
      set_policy(&d1, d1_policy, seed);

   while (fgets(buf, sizeof buf, stdin) != NULL) {
      char kind;
      unsigned long long addr, size;
      int kind_index;
      Level* l1;

      if (per_cc && buf[0] == 'C' && buf[1] == ' ') {
         /* C <cc> <line>\t<file>\t<fn> */
         unsigned long long c;
         int line, at;
         char* nl = strchr(buf, '\n');
         if (nl == NULL)
            die("cost centre line too long: ", buf);
         *nl = '\0';
         if (sscanf(buf + 2, "%llu %d\t%n", &c, &line, &at) != 2 || c >= n_cc)
            continue;
         cc_name[c] = malloc(strlen(buf + 2 + at) + 16);
         if (cc_name[c] == NULL)
            die("out of memory for the cost centres", "");
         sprintf(cc_name[c], "%s\t%d", buf + 2 + at, line);
         continue;
      }
      if (buf[0] == 'I' && buf[1] == ' ')
         kind = 'I';
      else if (buf[0] == ' ' && (buf[1] == 'L' || buf[1] == 'S'
                                 || buf[1] == 'M'))
         kind = buf[1];
      else
         continue;
      if (sscanf(buf + 2, " %llx,%llu", &addr, &size) != 2)
         continue;
      if (kind == 'I') {
         unsigned long long a2, s2, c;
         cc = sscanf(buf + 2, " %llx,%llu %llu", &a2, &s2, &c) == 3 ? c : 0;
         pc = addr;
      }
      if (per_cc && cc >= n_cc) {
         uint64_t old = n_cc;
         n_cc = 2 * cc + 64;
         cc_count = realloc(cc_count, n_cc * sizeof *cc_count);
         cc_pf = realloc(cc_pf, n_cc * sizeof *cc_pf);
         cc_name = realloc(cc_name, n_cc * sizeof *cc_name);
         use_cc = realloc(use_cc, n_cc * sizeof *use_cc);
         if (cc_count == NULL || cc_pf == NULL || cc_name == NULL
             || use_cc == NULL)
            die("out of memory for the cost centres", "");
         use_n_cc = n_cc;
         memset(use_cc + old, 0, (n_cc - old) * sizeof *use_cc);
         memset(cc_count + old, 0, (n_cc - old) * sizeof *cc_count);
         memset(cc_pf + old, 0, (n_cc - old) * sizeof *cc_pf);
         memset(cc_name + old, 0, (n_cc - old) * sizeof *cc_name);
      }
      size %= 256;
      kind_index = kind == 'I' ? 0 : kind == 'S' ? 2 : 1;
      l1 = kind == 'I' ? &i1 : &d1;
#define COUNT(level) (count[kind_index][level]++,                          \
                      per_cc ? cc_count[cc][kind_index][level]++ : 0)
      pf_cc = per_cc ? cc_pf[cc] : NULL;
      cur_cc = per_cc ? (int64_t)cc : -1;
      {
         /* The levels the access reached, and their triggers, for the
            prefetchers afterwards */
         Level* reached[3];
         uint64_t trig[3][2];
         int n_trig[3], n_reached = 0, missed;
#define REACHED(l) (reached[n_reached] = (l), n_trig[n_reached] = n_triggers, \
                    memcpy(trig[n_reached], triggers, sizeof triggers),     \
                    n_reached++)
         COUNT(0);
         missed = access_level_w(l1, addr, size,
                                 wb_on && (kind == 'S' || kind == 'M'));
         REACHED(l1);
         if (missed) {
            COUNT(1);
            if (have_l2) {
               missed = access_level(&l2, addr, size);
               REACHED(&l2);
               if (missed)
                  COUNT(2);
            }
         }
         if (missed && inclusion == NINE) {
            if (access_level(&ll, addr, size))
               COUNT(3);
            if (n_dirty_evictions > 0)
               COUNT(4);
            REACHED(&ll);
         } else if (missed && inclusion == INCLUSIVE) {
            uint64_t b[2];
            int n = blocks_of(&ll, addr, size, b), i, ll_missed = 0;
            for (i = 0; i < n; i++)
               if (lookup(&ll, b[i])) {
                  ll_missed = 1;
                  if (evicted != 0) {
                     remove_inside(&i1, &ll, evicted - 1);
                     remove_inside(&d1, &ll, evicted - 1);
                     if (have_l2)
                        remove_inside(&l2, &ll, evicted - 1);
                  }
               }
            if (ll_missed)
               COUNT(3);
         } else if (missed) {
            /* exclusive: hits leave LL, then the upper level's victims
               (L2's, or this L1's) go in */
            uint64_t b[2], up[2];
            int n = blocks_of(&ll, addr, size, b), i, ll_missed = 0;
            int n_up = n_victims;
            up[0] = victims[0];
            up[1] = victims[1];
            for (i = 0; i < n; i++)
               if (!remove_block(&ll, b[i]))
                  ll_missed = 1;
            for (i = 0; i < n_up; i++)
               lookup(&ll, up[i]);
            if (ll_missed)
               COUNT(3);
         }
         if (use_on) {
            use_lines(l1, addr, size);
            use_lines(&ll, addr, size);
         }
         run_prefetchers(reached, n_reached, trig, n_trig, addr, pc);
      }
   }
   if (use_on) {
      use_finish(&i1);
      use_finish(&d1);
      use_finish(&ll);
   }
   print_counts(count, pf_count, use_total, have_l2);
   for (cc = 0; per_cc && cc < n_cc; cc++) {
      int k, any = 0;
      for (k = 0; k < 3; k++)
         any |= cc_count[cc][k][0] != 0;
      if (!any)
         continue;
      if (cc_name[cc] != NULL)
         printf("%s\t", cc_name[cc]);
      else
         printf("%" PRIu64 "\t", cc);
      print_counts(cc_count[cc], cc_pf[cc], use_cc[cc], have_l2);
   }
   return 0;
}
