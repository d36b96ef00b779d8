/* cg_checkers.h -- group checkers: machine code per shape of a run
   (cg_checkers.c, amd64). */

#ifndef CG_CHECKERS_H
#define CG_CHECKERS_H

#include "pub_tool_basics.h"
#include "cg_tier.h"

/* False where there are none (only amd64 has them). */
Bool  cg_checkers_available(void);
/* The entry point of a routine that runs a hot group's checks in
   program order (`ops` as for a cold run, data addresses passed as
   arguments in ColdOp.arg order) and logs what they do not settle; it
   first adds 1 to *counter unless `counter` is NULL. */
#define MAX_CHECKER_OPS   32
#define MAX_CHECKER_ADDRS 6
struct _CacheLevel;
/* With `desc_out` NULL, the group's own routine; otherwise (only if
   cg_checkers_use_descriptors()) a routine shared by the groups of the
   same shape, whose first argument is the descriptor *desc_out is set
   to, and whose data addresses follow (ColdOp.arg counts from 1).  A
   counted group's runs are then counted in the descriptor's first
   word, not in *counter. */
void* cg_checker_for(const ColdOp* ops, UInt n_ops, ULong* counter,
                     const struct _CacheLevel* i1,
                     const struct _CacheLevel* d1, void** desc_out);
/* `shapes_wanted`: at most that many shapes share checkers (capped at
   the table's 32768); groups of other shapes get their own.
   `wide_constants` (--checker-wide-constants): counters, counts and MRU
   constants through 64-bit forms even where 32-bit ones would do. */
void  cg_checkers_init(Bool descriptors, UInt shapes_wanted,
                       Bool wide_constants);
Bool  cg_checkers_use_descriptors(void);
void  cg_checkers_print_stats(void);

#endif /* CG_CHECKERS_H */
