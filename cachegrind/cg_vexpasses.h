/* cg_vexpasses.h -- VEX's IR checks and cleanup, skipped unless asked for
   (cg_vexpasses.c). */

#ifndef CG_VEXPASSES_H
#define CG_VEXPASSES_H

#include "pub_tool_basics.h"

/* VEX's IR sanity checks and its cleanup after our instrumentation
   are skipped unless --vex-checks=yes; this says on how many blocks. */
void cg_vexpasses_print_stats(void);

#endif /* CG_VEXPASSES_H */
