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

   With --LL-policy=plru|srrip|brrip|random, --I1-policy and
   --D1-policy (and --seed=<n>), a level follows that policy as
   manual.md 5.7 states it: it starts empty; a miss fills the
   lowest-numbered empty way, else the policy's victim.

   Usage: cgref --I1=<size>,<assoc>,<line> --D1=... --LL=... [--L2=...]
                [--I1-policy=<p>] [--D1-policy=<p>] [--L2-policy=<p>]
                [--LL-policy=<p>] [--LL-inclusion=<m>] [--seed=<n>]
                [--per-cc] < trace */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LRU, PLRU, SRRIP, BRRIP, RANDOM };
enum { NINE, INCLUSIVE, EXCLUSIVE };
static int inclusion = NINE;

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

/* The block a miss evicted: block + 1, 0 if it took an empty way */
static uint64_t evicted;

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
   evicted = found == l->assoc ? set[l->assoc - 1] : 0;
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

/* Removes a block from a level; 1 if it was there. */
static int remove_block(Level* l, uint64_t block)
{
   uint64_t s = block % l->sets, w;
   uint64_t* tags = l->tags + s * l->assoc;

   for (w = 0; w < l->assoc; w++) {
      if (l->policy == LRU && tags[w] == block + 1) {
         for (; w + 1 < l->assoc; w++)
            tags[w] = tags[w + 1];
         tags[l->assoc - 1] = 0;
         return 1;
      }
      if (l->policy != LRU && l->valid[s * l->assoc + w] && tags[w] == block) {
         l->valid[s * l->assoc + w] = 0;
         return 1;
      }
   }
   return 0;
}

static int lookup(Level* l, uint64_t block)
{
   return l->policy == LRU ? lookup_block(l, block)
                           : lookup_block_policy(l, block);
}

/* The blocks of an access in a level's lines: n of them (1 or 2) */
static int blocks_of(const Level* l, uint64_t addr, uint64_t size,
                     uint64_t b[2])
{
   b[0] = addr / l->line;
   b[1] = (addr + (size == 0 ? 0 : size - 1)) / l->line;
   return b[1] == b[0] ? 1 : 2;
}

/* The victims of the last access_level (blocks, not + 1) */
static uint64_t victims[2];
static int n_victims;

static int access_level(Level* l, uint64_t addr, uint64_t size)
{
   uint64_t b[2];
   int n = blocks_of(l, addr, size, b), i, missed = 0;

   n_victims = 0;
   for (i = 0; i < n; i++)
      if (lookup(l, b[i])) {
         missed = 1;
         if (evicted != 0)
            victims[n_victims++] = evicted - 1;
      }
   return missed;
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

/* One line of counts, in the tool's order of events */
static void print_counts(uint64_t count[3][4], int have_l2)
{
   int a, c;

   for (a = 0; a < 3; a++)
      for (c = 0; c < 4; c++)
         if (c != 2 || have_l2)
            printf("%s%" PRIu64, a == 0 && c == 0 ? "" : " ", count[a][c]);
   printf("\n");
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
   /* With --per-cc, the same per cost centre (the tool's trace gives
      each fetch its instruction's; data accesses are the last fetch's) */
   int per_cc = 0;
   uint64_t (*cc_count)[3][4] = NULL;
   uint64_t n_cc = 0, cc = 0;
   char** cc_name = NULL;   /* "<file>\t<fn>\t<line>" of each, from the
                               trace's C lines */
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
      } else if (strncmp(argv[a], "--LL-inclusion=", 15) == 0) {
         const char* m = argv[a] + 15;
         inclusion = strcmp(m, "nine") == 0 ? NINE
                     : strcmp(m, "inclusive") == 0 ? INCLUSIVE
                     : strcmp(m, "exclusive") == 0 ? EXCLUSIVE : -1;
         if (inclusion < 0)
            die("unknown inclusion: ", m);
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
      }
      if (per_cc && cc >= n_cc) {
         uint64_t old = n_cc;
         n_cc = 2 * cc + 64;
         cc_count = realloc(cc_count, n_cc * sizeof *cc_count);
         cc_name = realloc(cc_name, n_cc * sizeof *cc_name);
         if (cc_count == NULL || cc_name == NULL)
            die("out of memory for the cost centres", "");
         memset(cc_count + old, 0, (n_cc - old) * sizeof *cc_count);
         memset(cc_name + old, 0, (n_cc - old) * sizeof *cc_name);
      }
      size %= 256;
      kind_index = kind == 'I' ? 0 : kind == 'S' ? 2 : 1;
      l1 = kind == 'I' ? &i1 : &d1;
#define COUNT(level) (count[kind_index][level]++,                          \
                      per_cc ? cc_count[cc][kind_index][level]++ : 0)
      COUNT(0);
      if (!access_level(l1, addr, size))
         continue;
      COUNT(1);
      if (have_l2) {
         if (!access_level(&l2, addr, size))
            continue;
         COUNT(2);
      }
      if (inclusion == NINE) {
         if (access_level(&ll, addr, size))
            COUNT(3);
      } else if (inclusion == INCLUSIVE) {
         uint64_t b[2];
         int n = blocks_of(&ll, addr, size, b), i, missed = 0;
         for (i = 0; i < n; i++)
            if (lookup(&ll, b[i])) {
               missed = 1;
               if (evicted != 0) {
                  remove_inside(&i1, &ll, evicted - 1);
                  remove_inside(&d1, &ll, evicted - 1);
                  if (have_l2)
                     remove_inside(&l2, &ll, evicted - 1);
               }
            }
         if (missed)
            COUNT(3);
      } else {
         /* exclusive: hits leave LL, then the upper level's victims
            (L2's, or this L1's) go in */
         uint64_t b[2], up[2];
         int n = blocks_of(&ll, addr, size, b), i, missed = 0;
         int n_up = n_victims;
         up[0] = victims[0];
         up[1] = victims[1];
         for (i = 0; i < n; i++)
            if (!remove_block(&ll, b[i]))
               missed = 1;
         for (i = 0; i < n_up; i++)
            lookup(&ll, up[i]);
         if (missed)
            COUNT(3);
      }
   }
   print_counts(count, have_l2);
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
      print_counts(cc_count[cc], have_l2);
   }
   return 0;
}
