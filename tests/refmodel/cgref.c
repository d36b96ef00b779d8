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

   Output (stdout): one line, "Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw"
   as numbers separated by spaces.

   Usage: cgref --I1=<size>,<assoc>,<line> --D1=... --LL=... < trace */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
   uint64_t  sets;
   uint64_t  assoc;
   uint64_t  line;
   uint64_t* tags;      /* sets * assoc, MRU first; 0: empty */
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

static int access_level(Level* l, uint64_t addr, uint64_t size)
{
   uint64_t first = addr / l->line;
   uint64_t last = (addr + (size == 0 ? 0 : size - 1)) / l->line;
   int missed = lookup_block(l, first);

   if (last != first)
      missed |= lookup_block(l, last);
   return missed;
}

int main(int argc, char** argv)
{
   Level i1, d1, ll;
   int have[3] = { 0, 0, 0 };
   uint64_t count[9] = { 0 };
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
      } else {
         die("unknown option: ", argv[a]);
      }
   }
   if (!have[0] || !have[1] || !have[2])
      die("--I1, --D1 and --LL are all needed", "");

   while (fgets(buf, sizeof buf, stdin) != NULL) {
      char kind;
      unsigned long long addr, size;
      int base;   /* index of the access's first count */
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
      base = kind == 'I' ? 0 : kind == 'S' ? 6 : 3;
      l1 = kind == 'I' ? &i1 : &d1;
      count[base]++;
      if (access_level(l1, addr, size)) {
         count[base + 1]++;
         if (access_level(&ll, addr, size))
            count[base + 2]++;
      }
   }
   for (a = 0; a < 9; a++)
      printf("%s%" PRIu64, a == 0 ? "" : " ", count[a]);
   printf("\n");
   return 0;
}
