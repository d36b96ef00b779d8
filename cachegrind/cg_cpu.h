/* cg_cpu.h -- CPU presets: --cpu=<name> sets every level's geometry,
   policy, inclusion and prefetchers at once (cg_cpu.c).

   Explicit options (--I1, --D1-policy, --LL-inclusion, ...) override a
   preset's values whatever their order.  --cpu=host is not a preset:
   cg_main.c reads the host's levels (L2 included) and simulates 3.19's
   model on them; --cpu=list prints the presets. */

#ifndef CG_CPU_H
#define CG_CPU_H

#include "pub_tool_basics.h"

/* A level's geometry (as CacheGeometry, which this module, below the
   options', does not import) */
typedef struct {
   Int size, assoc, line_size;
} CgCpuLevel;

typedef struct {
   const HChar*  name;
   const HChar*  part;          /* the processor it models */
   CgCpuLevel    i1, d1, l2, ll;
   const HChar*  l2_policy;     /* the L1s are LRU in every preset */
   const HChar*  ll_policy;
   const HChar*  inclusion;
   const HChar*  d1_prefetch;
   const HChar*  l2_prefetch;
   const HChar*  ll_prefetch;
} CgCpuPreset;

/* NULL if there is no preset of that name. */
const CgCpuPreset* cg_cpu_find(const HChar* name);
/* The table --cpu=list prints (cg_options.c, at once, as --help). */
void cg_cpu_print_list(void);

#endif /* CG_CPU_H */
