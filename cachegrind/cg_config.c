/* cg_config.c -- which caches are simulated.

   Owns: reading the host cache description the core detected, the
   built-in defaults, the adjustment of a host LL whose set count is
   not a power of two, the geometry checks, and the warnings about all
   of these.
   Must not: simulate anything.

   Order (it decides which warnings appear): pick I1/D1/LL from the
   host description (or the defaults), adjust that LL, check the three,
   then let each --I1/--D1/--LL replace its cache wholesale.  An
   explicit --LL is never adjusted; it was checked when parsed. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_options.h"
#include "cg_config.h"

static Bool is_power_of_two(UInt x)
{
   return x != 0 && (x & (x - 1)) == 0;
}

/* Signed 32-bit arithmetic, checked in this order; the first failing
   check names the problem. */
const HChar* cg_geometry_problem(const CacheGeometry* g)
{
   Int way_bytes = (Int)((UInt)g->line_size * (UInt)g->assoc);

   /* A zero line size or associativity cannot describe a cache;
      report it as the set-count problem rather than dividing by 0. */
   if (g->line_size == 0 || g->assoc == 0 || way_bytes == 0
       || g->size % way_bytes != 0
       || !is_power_of_two((UInt)(g->size / g->line_size / g->assoc)))
      return "Cache set count is not a power of two.";
   if (!is_power_of_two((UInt)g->line_size))
      return "Cache line size is not a power of two.";
   if (g->line_size < 16)
      return "Cache line size is too small.";
   if (g->size <= g->line_size)
      return "Cache size <= line size.";
   if (g->assoc > g->size / g->line_size)
      return "Cache associativity > (size / line size).";
   return NULL;
}

static void set_geometry(CacheGeometry* g, Int size, Int assoc, Int line)
{
   g->size = size;
   g->assoc = assoc;
   g->line_size = line;
}

static void set_default_geometry(CacheGeometry* I1, CacheGeometry* D1,
                                 CacheGeometry* LL)
{
#if defined(VGA_x86) || defined(VGA_amd64)
   set_geometry(I1, 65536, 2, 64);
   set_geometry(D1, 65536, 2, 64);
   set_geometry(LL, 262144, 8, 64);
#elif defined(VGA_arm) || defined(VGA_arm64)
   set_geometry(I1, 16384, 4, 64);
   set_geometry(D1, 16384, 4, 64);
   set_geometry(LL, 262144, 8, 64);
#elif defined(VGA_s390x)
   set_geometry(I1, 65536, 4, 256);
   set_geometry(D1, 131072, 8, 256);
   set_geometry(LL, 50331648, 24, 256);
#elif defined(VGA_mips32) || defined(VGA_mips64) || defined(VGA_nanomips)
   set_geometry(I1, 32768, 4, 32);
   set_geometry(D1, 32768, 4, 32);
   set_geometry(LL, 524288, 8, 32);
#else
   set_geometry(I1, 65536, 2, 64);
   set_geometry(D1, 65536, 2, 64);
   set_geometry(LL, 262144, 8, 64);
#endif
}

static const VexCache* find_cache(const VexCacheInfo* info,
                                  VexCacheKind kind, UInt level)
{
   UInt i;
   for (i = 0; i < info->num_caches; i++)
      if (info->caches[i].kind == kind && info->caches[i].level == level)
         return &info->caches[i];
   return NULL;
}

/* True if the host description gave all three caches. */
static Bool geometry_from_host(const VexCacheInfo* info, CacheGeometry* I1,
                               CacheGeometry* D1, CacheGeometry* LL)
{
   const VexCache *i1, *d1, *ll;

   if (info->num_caches == 0)
      return False;
   i1 = find_cache(info, INSN_CACHE, 1);
   d1 = find_cache(info, DATA_CACHE, 1);
   ll = find_cache(info, UNIFIED_CACHE, info->num_levels);

   if (ll == NULL)
      VG_(dmsg)("warning: L2 cache not installed, ignore LL results.\n");
   else if (info->num_levels > 2)
      VG_(dmsg)("warning: L%u cache found, using its data for the "
                "LL simulation.\n", info->num_levels);
   if (i1 == NULL || d1 == NULL || ll == NULL)
      return False;

   if (i1->is_trace_cache) {
      /* A Pentium 4 micro-op trace cache: simulate an ordinary I-cache
         of comparable size. */
      UInt kb = i1->sizeB / 1024;
      set_geometry(I1, (kb == 12 || kb == 16) ? 16384 : 32768,
                   i1->assoc, 32);
      VG_(dmsg)("warning: Pentium 4 with %u KB micro-op instruction "
                "trace cache\n", kb);
      VG_(dmsg)("         Simulating a %d KB I-cache with 32 B lines\n",
                I1->size / 1024);
   } else {
      set_geometry(I1, i1->sizeB, i1->assoc, i1->line_sizeB);
   }
   set_geometry(D1, d1->sizeB, d1->assoc, d1->line_sizeB);
   set_geometry(LL, ll->sizeB, ll->assoc, ll->line_sizeB);
   return True;
}

/* Hosts report LLs whose set count is not a power of two (e.g. 20
   ways).  Keep the line size, round the set count down to a power of
   two and grow the associativity to keep roughly the same size. */
static void adjust_host_ll(CacheGeometry* LL)
{
   UInt size = LL->size, assoc = LL->assoc, line = LL->line_size;
   UInt n_sets, new_sets, new_assoc, new_size;

   if (size == 0 || assoc == 0 || line == 0)
      return;
   n_sets = size / (assoc * line);
   if (n_sets == 0)
      return;
   if (is_power_of_two(n_sets)) {
      new_assoc = assoc;
      new_size  = line * assoc * n_sets;
   } else {
      Double factor;
      new_sets = 1;
      while (new_sets * 2 <= n_sets)
         new_sets *= 2;
      factor    = (Double)n_sets / (Double)new_sets;
      new_assoc = (UInt)(0.5 + factor * (Double)assoc);
      new_size  = line * new_assoc * new_sets;
   }
   if (new_size == size && new_assoc == assoc)
      return;
   VG_(dmsg)("warning: specified LL cache: line_size %u  assoc %u  "
             "total_size %'u\n", line, assoc, size);
   VG_(dmsg)("warning: simulated LL cache: line_size %u  assoc %u  "
             "total_size %'u\n", line, new_assoc, new_size);
   LL->size  = new_size;
   LL->assoc = new_assoc;
}

static void check_host_geometry(const CacheGeometry* g, const HChar* name,
                                Bool given_on_command_line)
{
   const HChar* problem = cg_geometry_problem(g);

   if (problem == NULL)
      return;
   VG_(umsg)("Auto-detected %s cache configuration not supported: %s\n",
             name, problem);
   VG_(umsg)("  %s: %'d B, %d-way, %d B lines\n", name, g->size,
             g->assoc, g->line_size);
   if (given_on_command_line)
      return;
   VG_(umsg)("As it probably should be supported, please report a bug!\n");
   VG_(umsg)("Bypass this message by using option --%s=...\n", name);
   tl_assert2(0, "unsupported auto-detected %s cache", name);
}

void cg_config_unsimulated(CacheGeometry* I1, CacheGeometry* D1,
                           CacheGeometry* LL)
{
   set_default_geometry(I1, D1, LL);
}

Bool cg_config_host_l2(CacheGeometry* L2)
{
   VexArch arch;
   VexArchInfo arch_info;
   const VexCache* l2;

   VG_(machine_get_VexArchInfo)(&arch, &arch_info);
   /* A middle level only where there is a level below it */
   if (arch_info.hwcache_info.num_levels < 3)
      return False;
   l2 = find_cache(&arch_info.hwcache_info, UNIFIED_CACHE, 2);
   if (l2 == NULL)
      return False;
   set_geometry(L2, l2->sizeB, l2->assoc, l2->line_sizeB);
   return cg_geometry_problem(L2) == NULL;
}

void cg_config_choose(const CacheGeometry* given_I1,
                      const CacheGeometry* given_D1,
                      const CacheGeometry* given_LL, Bool look_at_host,
                      CacheGeometry* I1, CacheGeometry* D1,
                      CacheGeometry* LL)
{
   VexArch arch;
   VexArchInfo arch_info;

   VG_(machine_get_VexArchInfo)(&arch, &arch_info);
   if (!look_at_host) {
      /* (3.19 reports on the host even when every level is given; a
         preset is not 3.19's, and its levels are not the host's) */
      *I1 = *given_I1;
      *D1 = *given_D1;
      *LL = *given_LL;
   } else if (!geometry_from_host(&arch_info.hwcache_info, I1, D1, LL)) {
      set_default_geometry(I1, D1, LL);
      if (given_I1 == NULL || given_D1 == NULL || given_LL == NULL) {
         VG_(dmsg)("Warning: Cannot auto-detect cache config, "
                   "using defaults.\n");
         VG_(dmsg)("         Run with -v to see.\n");
      }
   }
   if (look_at_host) {
      adjust_host_ll(LL);
      check_host_geometry(I1, "I1", given_I1 != NULL);
      check_host_geometry(D1, "D1", given_D1 != NULL);
      check_host_geometry(LL, "LL", given_LL != NULL);
   }

   if (given_I1 != NULL) *I1 = *given_I1;
   if (given_D1 != NULL) *D1 = *given_D1;
   if (given_LL != NULL) *LL = *given_LL;

   if (VG_(clo_verbosity) >= 2) {
      VG_(umsg)("Cache configuration used:\n");
      VG_(umsg)("  I1: %'d B, %d-way, %d B lines\n",
                I1->size, I1->assoc, I1->line_size);
      VG_(umsg)("  D1: %'d B, %d-way, %d B lines\n",
                D1->size, D1->assoc, D1->line_size);
      VG_(umsg)("  LL: %'d B, %d-way, %d B lines\n",
                LL->size, LL->assoc, LL->line_size);
   }
}
