/* cg_intervals.h -- the phase profile, --interval-size (cg_intervals.c). */

#ifndef CG_INTERVALS_H
#define CG_INTERVALS_H

#include "pub_tool_basics.h"

void cg_intervals_init(void);
Bool cg_intervals_enabled(void);
/* The instructions left before the current interval ends, which
   compiled code counts down (a signed word). */
Word* cg_intervals_left_word(void);
VG_REGPARM(0) void cg_intervals_boundary(void);
void cg_intervals_fini(void);
/* Before an exec: gives up the open file, returning a copy of its
   name (the caller frees it), or NULL if none was open.  If the exec
   fails, a new file is started at the next interval, numbered from 1. */
HChar* cg_intervals_give_up_for_exec(void);
void   cg_intervals_exec_failed(void);

#endif /* CG_INTERVALS_H */
