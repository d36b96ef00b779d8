/* cg_prefetch.h -- hardware prefetchers of a cache level: which lines
   to fetch ahead (cg_prefetch.c).  cg_hierarchy.c fetches them.

   The rules, which the manual (5.10) states and tests/refmodel/cgref.c
   implements independently; a level's prefetcher sees the accesses that
   reach the level (D1: every data access; L2: every L1 miss; LL: every
   access that misses the level above), after they are done:
   - next-line (tagged): for each line of the access that missed the
     level, or that hit a line a prefetch brought in and no access had
     hit since, the next line.
   - stream (Callgrind's --simulate-hwpref): eight streams, the access's
     address selecting stream (address >> 12) % 8; each remembers the
     last line it saw and a signed run.  An access whose first byte is in
     another line than the stream's last: with run 0, run becomes 1 if
     the line is the last + 1, -1 if it is the last - 1; with run > 0,
     if the line is the last + 1 run grows by 1 and, once run >= 2, the
     line 5 lines after the address's is fetched, else run becomes 0;
     with run < 0 the same downwards (never below line 0).  Then the
     line is the last. */

#ifndef CG_PREFETCH_H
#define CG_PREFETCH_H

#include "pub_tool_basics.h"

typedef enum {
   CG_PREFETCH_NONE,
   CG_PREFETCH_NEXT_LINE,
   CG_PREFETCH_STREAM
} CgPrefetchKind;

#define CG_PREFETCH_STREAMS 8

typedef struct {
   CgPrefetchKind kind;
   Int            line_bits;      /* the level's */
   UWord          last_line[CG_PREFETCH_STREAMS];
   Long           run[CG_PREFETCH_STREAMS];
} CgPrefetcher;

Bool cg_prefetch_from_name(const HChar* name, CgPrefetchKind* kind);
void cg_prefetch_init(CgPrefetcher* pf, CgPrefetchKind kind, Int line_bits);
/* An access at `addr` reached the level; `triggers` are its blocks that
   missed or hit a marked line.  Writes the blocks to fetch (at most 2)
   to `out` and returns how many. */
Int cg_prefetch_lines(CgPrefetcher* pf, Addr addr, const UWord* triggers,
                      Int n_triggers, UWord out[2]);

#endif /* CG_PREFETCH_H */
