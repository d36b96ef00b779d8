/* cg_config.h -- the simulated cache geometry: host detection, adjustment,
   checks (cg_config.c). */

#ifndef CG_CONFIG_H
#define CG_CONFIG_H

#include "pub_tool_basics.h"

typedef struct {
   Int size;        /* bytes */
   Int assoc;       /* ways */
   Int line_size;   /* bytes */
} CacheGeometry;

/* NULL if the geometry is usable, else the reason it is not. */
const HChar* cg_geometry_problem(const CacheGeometry* g);

/* Decides the simulated I1, D1 and LL from the host description and
   the geometries given on the command line (NULL: not given); prints
   the warnings; exits on unusable config. */
/* `look_at_host` False: every level is given (a --cpu preset), and the
   host's are neither read nor reported on. */
void cg_config_choose(const CacheGeometry* given_I1,
                      const CacheGeometry* given_D1,
                      const CacheGeometry* given_LL, Bool look_at_host,
                      CacheGeometry* I1, CacheGeometry* D1,
                      CacheGeometry* LL);

/* --cpu=host: the host's level-2 unified cache, if it has one above
   its last level and its geometry is usable. */
Bool cg_config_host_l2(CacheGeometry* L2);

/* Geometries for a run that simulates no caches and, as Cachegrind
   3.21 and later, neither detects nor reports any: the defaults, which
   only shape how accesses are split, never a count. */
void cg_config_unsimulated(CacheGeometry* I1, CacheGeometry* D1,
                           CacheGeometry* LL);

#endif /* CG_CONFIG_H */
