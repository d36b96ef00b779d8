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
     line is the last.
   - stride (PC-indexed): a table of 256 entries, an access's entry
     chosen by its instruction's address mod 256 and holding that
     address, the last data address it accessed, a stride and a
     confidence.  An access whose instruction is not the entry's takes
     the entry over (its address the last, stride and confidence 0).
     Else the distance from the last address is compared with the
     stride: equal and not 0, the confidence grows (up to 2); otherwise
     the distance is the new stride and the confidence 0.  The address
     becomes the last; with confidence 2 the line of address + stride is
     fetched (one line: degree 1; none below address 0).  A fetch that
     reaches L2 is an access of its own instruction at its address. */

#ifndef CG_PREFETCH_H
#define CG_PREFETCH_H

#include "pub_tool_basics.h"

typedef enum {
   CG_PREFETCH_NONE,
   CG_PREFETCH_NEXT_LINE,
   CG_PREFETCH_STREAM,
   CG_PREFETCH_STRIDE
} CgPrefetchKind;

#define CG_PREFETCH_STREAMS 8
#define CG_PREFETCH_STRIDE_ENTRIES 256

typedef struct {
   Addr  pc;               /* 0: free */
   Addr  last_addr;
   Long  stride;
   Int   confidence;
} CgStrideEntry;

typedef struct {
   CgPrefetchKind kind;
   Int            line_bits;      /* the level's */
   UWord          last_line[CG_PREFETCH_STREAMS];
   Long           run[CG_PREFETCH_STREAMS];
   CgStrideEntry  stride[CG_PREFETCH_STRIDE_ENTRIES];
} CgPrefetcher;

Bool cg_prefetch_from_name(const HChar* name, CgPrefetchKind* kind);
void cg_prefetch_init(CgPrefetcher* pf, CgPrefetchKind kind, Int line_bits);
/* An access at `addr` by the instruction at `pc` (0: not known, for
   prefetchers that do not need it) reached the level; `triggers` are
   its blocks that missed or hit a marked line.  Writes the blocks to
   fetch (at most 2) to `out` and returns how many. */
Int cg_prefetch_lines(CgPrefetcher* pf, Addr addr, Addr pc,
                      const UWord* triggers, Int n_triggers, UWord out[2]);
/* Whether a level's prefetcher of this kind needs each access's
   instruction address */
Bool cg_prefetch_needs_pc(CgPrefetchKind kind);

#endif /* CG_PREFETCH_H */
