/* cachegrind.h -- client requests understood by cachegrind-ng.

   Include this in the program you profile:

      #include <valgrind/cachegrind.h>   (or "cachegrind.h")

      CACHEGRIND_STOP_INSTRUMENTATION;    -- nothing below is counted
      ...set-up you do not want to measure...
      CACHEGRIND_START_INSTRUMENTATION;   -- counting and simulation resume

   Run with --instr-at-start=no to measure only what lies between a
   START and the next STOP.  While instrumentation is stopped nothing is
   counted or simulated; the simulated caches keep their contents.

   Outside Valgrind each request is a handful of instructions that do
   nothing, so the program runs unchanged.  The request numbers are
   those of the Cachegrind releases that introduced these macros, so a
   program built against either header works with both tools.

   This file is distributed under the GNU GPL, version 2 or later. */

#ifndef CACHEGRIND_NG_CACHEGRIND_H
#define CACHEGRIND_NG_CACHEGRIND_H

#include <valgrind/valgrind.h>

typedef enum {
   VG_USERREQ__CG_START_INSTRUMENTATION = VG_USERREQ_TOOL_BASE('C', 'G'),
   VG_USERREQ__CG_STOP_INSTRUMENTATION
} Vg_CachegrindClientRequest;

/* Start counting and simulating (again). */
#define CACHEGRIND_START_INSTRUMENTATION                               \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__CG_START_INSTRUMENTATION, \
                                   0, 0, 0, 0, 0)

/* Stop counting and simulating until the next START. */
#define CACHEGRIND_STOP_INSTRUMENTATION                                \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__CG_STOP_INSTRUMENTATION,  \
                                   0, 0, 0, 0, 0)

#endif /* CACHEGRIND_NG_CACHEGRIND_H */
