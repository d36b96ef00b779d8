/* cg_trace.h -- --trace-out-file (a debug option): every simulated
   access written in the order the simulation takes them (cg_trace.c).

   The tests' reference model (tests/refmodel/cgref.c) reads it: the
   model then sees the very run whose counts it checks, which two runs
   of one program need not be (ld.so indexes tables with the 16 random
   bytes the kernel gives every process, so a few data addresses change
   from run to run).  Format, Lackey's --trace-mem=yes lines and more:
     I  <hex addr>,<size> <cc>    a fetch of an instruction whose cost
                                  centre has index <cc>
      L <hex addr>,<size>         a data read (of the last fetch's
      S <hex addr>,<size>         instruction), write, or modify
      M <hex addr>,<size>
     C <cc> <line>\t<file>\t<fn>  at the end: each cost centre
   Every access of compiled code is written, those its MRU filter
   settles included, and (guarded ones) only if it happens. */

#ifndef CG_TRACE_H
#define CG_TRACE_H

#include "pub_tool_basics.h"

/* The access kinds of a trace line */
typedef enum { CG_TRACE_FETCH, CG_TRACE_READ, CG_TRACE_WRITE,
               CG_TRACE_MODIFY } CgTraceKind;

void cg_trace_init(void);
Bool cg_trace_enabled(void);
/* Called by compiled code: `kind_size` is kind << 16 | size; `cc` the
   cost centre's index (fetches only). */
VG_REGPARM(3) void cg_trace_access(UWord kind_size, Addr addr, UWord cc);
/* At exit: the cost centres, and the file's final name. */
void cg_trace_fini(void);

#endif /* CG_TRACE_H */
