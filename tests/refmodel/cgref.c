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

   Output (stdout): one line, "Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw"
   as numbers separated by spaces; with --L2, "Ir I1mr I2mr ILmr Dr D1mr
   D2mr DLmr Dw D1mw D2mw DLmw".

   With --LL-policy=plru|srrip|brrip|random, --I1-policy and
   --D1-policy (and --seed=<n>), a level follows that policy as
   manual.md 5.7 states it: it starts empty; a miss fills the
   lowest-numbered empty way, else the policy's victim.

   Usage: cgref --I1=<size>,<assoc>,<line> --D1=... --LL=... [--L2=...]
                [--I1-policy=<p>] [--D1-policy=<p>] [--L2-policy=<p>]
                [--LL-policy=<p>] [--seed=<n>] < trace */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LRU, PLRU, SRRIP, BRRIP, RANDOM };

typedef struct {
   uint64_t  sets;
   uint64_t  assoc;
   uint64_t  line;
   uint64_t* tags;      /* sets * assoc, MRU first; 0: empty */
   /* Other policies (LL only): tags stay where they were put */
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
   if (l->tags == NULL)
      die("out of memory for ", opt);
}

/* One block; 1 if it missed. */
static int lookup_block(Level* l, uint64_t block)
{
   uint64_t* set = l->tags + (block % l->sets) * l->assoc;
   uint64_t tag = block + 1;
   uint64_t i, found = l->assoc;

   for (i = 0; i < l->assoc; i++)
      if (set[i] == tag) {
         found = i;
         break;
      }
   /* Move everything above the found way (or the whole set, dropping
      its last block) down by one, and put the block in front */
   i = found == l->assoc ? l->assoc - 1 : found;
   for (; i > 0; i--)
      set[i] = set[i - 1];
   set[0] = tag;
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

static int lookup_block_policy(Level* l, uint64_t block)
{
   uint64_t s = block % l->sets;
   uint64_t* tags = l->tags + s * l->assoc;
   uint8_t* valid = l->valid + s * l->assoc;
   uint8_t* rrpv = l->rrpv + s * l->assoc;
   uint8_t* bits = l->tree + s * l->assoc;
   uint64_t w, victim;
   int have_victim = 0;

   for (w = 0; w < l->assoc; w++)
      if (valid[w] && tags[w] == block) {
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
   }
   tags[victim] = block;
   valid[victim] = 1;
   if (l->policy == PLRU)
      plru_access(bits, l->assoc, victim);
   else if (l->policy == SRRIP)
      rrpv[victim] = 2;
   else if (l->policy == BRRIP)
      rrpv[victim] = next_draw(l) % 32 == 0 ? 2 : 3;
   return 1;
}

static int access_level(Level* l, uint64_t addr, uint64_t size)
{
   uint64_t first = addr / l->line;
   uint64_t last = (addr + (size == 0 ? 0 : size - 1)) / l->line;
   int (*lookup)(Level*, uint64_t) = l->policy == LRU ? lookup_block
                                                      : lookup_block_policy;
   int missed = lookup(l, first);

   if (last != first)
      missed |= lookup(l, last);
   return missed;
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

int main(int argc, char** argv)
{
   Level i1, d1, l2, ll;
   int have[3] = { 0, 0, 0 }, have_l2 = 0;
   const char* ll_policy = "lru";
   const char* l2_policy = "lru";
   const char* i1_policy = "lru";
   const char* d1_policy = "lru";
   uint64_t seed = 1;
   /* Per kind (fetch, read, write): accesses, L1, L2 and LL misses */
   uint64_t count[3][4] = { { 0 } };
   char buf[256];
   int a;

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

      if (buf[0] == 'I' && buf[1] == ' ')
         kind = 'I';
      else if (buf[0] == ' ' && (buf[1] == 'L' || buf[1] == 'S'
                                 || buf[1] == 'M'))
         kind = buf[1];
      else
         continue;
      if (sscanf(buf + 2, " %llx,%llu", &addr, &size) != 2)
         continue;
      size %= 256;
      kind_index = kind == 'I' ? 0 : kind == 'S' ? 2 : 1;
      l1 = kind == 'I' ? &i1 : &d1;
      count[kind_index][0]++;
      if (!access_level(l1, addr, size))
         continue;
      count[kind_index][1]++;
      if (have_l2) {
         if (!access_level(&l2, addr, size))
            continue;
         count[kind_index][2]++;
      }
      if (access_level(&ll, addr, size))
         count[kind_index][3]++;
   }
   for (a = 0; a < 3; a++) {
      int c;
      for (c = 0; c < 4; c++)
         if (c != 2 || have_l2)
            printf("%s%" PRIu64, a == 0 && c == 0 ? "" : " ", count[a][c]);
   }
   printf("\n");
   return 0;
}
