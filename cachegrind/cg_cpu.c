/* cg_cpu.c -- the CPU presets (cg_cpu.h).

   Owns: the table of presets.  Their figures and sources are in the
   manual (5.11); where a part's last level has a set count that is not
   a power of two, the preset holds it as section 5.3 adjusts a host's
   (the set count rounded down, the associativity scaled).  Vendors do
   not publish replacement policies: each preset takes LRU for the L1s
   (whose MRU filter then stays exact and fast), plru for an L2 of a
   power-of-two associativity, else srrip, and srrip for LL. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "cg_cpu.h"

#define KiB(n) ((n) * 1024)
#define MiB(n) ((n) * 1024 * 1024)

static const CgCpuPreset presets[] = {
   { "generic", "a fixed modern machine, the same on every host",
     { KiB(32), 8, 64 }, { KiB(48), 12, 64 }, { MiB(2), 16, 64 },
     { MiB(32), 16, 64 }, "plru", "srrip", "nine",
     "next-line", "stream", "none" },
   { "skylake-sp", "Intel Xeon Gold 6130 (Skylake-SP, 16 cores)",
     { KiB(32), 8, 64 }, { KiB(32), 8, 64 }, { MiB(1), 16, 64 },
     { KiB(22528), 11, 64 }, "plru", "srrip", "nine",
     "next-line", "stream", "none" },
   { "golden-cove", "Intel Core i9-12900K P-core (Alder Lake, Golden Cove)",
     { KiB(32), 8, 64 }, { KiB(48), 12, 64 }, { KiB(1280), 10, 64 },
     { MiB(30), 15, 64 }, "srrip", "srrip", "nine",
     "next-line", "stream", "none" },
   { "zen3", "AMD Ryzen 7 5800X / EPYC 7003 core (Zen 3, one CCD)",
     { KiB(32), 8, 64 }, { KiB(32), 8, 64 }, { KiB(512), 8, 64 },
     { MiB(32), 16, 64 }, "plru", "srrip", "exclusive",
     "none", "none", "none" },
   { "zen4", "AMD Ryzen 7 7700X / EPYC 9004 core (Zen 4, one CCD)",
     { KiB(32), 8, 64 }, { KiB(32), 8, 64 }, { MiB(1), 8, 64 },
     { MiB(32), 16, 64 }, "plru", "srrip", "exclusive",
     "none", "none", "none" },
   { "neoverse-n1", "Arm Neoverse N1 (AWS Graviton2, Ampere Altra)",
     { KiB(64), 4, 64 }, { KiB(64), 4, 64 }, { MiB(1), 8, 64 },
     { MiB(32), 16, 64 }, "plru", "srrip", "nine",
     "next-line", "stream", "none" },
   { "neoverse-v1", "Arm Neoverse V1 (AWS Graviton3)",
     { KiB(64), 4, 64 }, { KiB(64), 4, 64 }, { MiB(1), 8, 64 },
     { MiB(32), 16, 64 }, "plru", "srrip", "nine",
     "next-line", "stream", "none" },
};

const CgCpuPreset* cg_cpu_find(const HChar* name)
{
   UInt i;

   for (i = 0; i < sizeof presets / sizeof presets[0]; i++)
      if (VG_(strcmp)(presets[i].name, name) == 0)
         return &presets[i];
   return NULL;
}

/* "32 KiB 8-way" */
static void print_level(const CgCpuLevel* g)
{
   if (g->size % MiB(1) == 0)
      VG_(printf)("  %4d MiB %2d-way", g->size / MiB(1), g->assoc);
   else
      VG_(printf)("  %4d KiB %2d-way", g->size / KiB(1), g->assoc);
}

void cg_cpu_print_list(void)
{
   UInt i;

   VG_(printf)("CPU presets for --cpu=<name> (64-byte lines everywhere; "
               "the manual, 5.11, gives the sources):\n\n");
   VG_(printf)("%-12s %-17s %-17s %-17s %-17s %s\n", "name", "  I1", "  D1",
               "  L2", "  LL", "L2/LL policy, inclusion, prefetchers");
   for (i = 0; i < sizeof presets / sizeof presets[0]; i++) {
      const CgCpuPreset* p = &presets[i];
      VG_(printf)("%-12s", p->name);
      print_level(&p->i1);
      print_level(&p->d1);
      print_level(&p->l2);
      print_level(&p->ll);
      VG_(printf)("  %s/%s, %s, D1 %s, L2 %s\n", p->l2_policy, p->ll_policy,
                  p->inclusion, p->d1_prefetch, p->l2_prefetch);
      VG_(printf)("%-12s   %s\n", "", p->part);
   }
   VG_(printf)("%-12s   the host's own levels (L2 included), Cachegrind "
               "3.19's model on them\n", "host");
}
