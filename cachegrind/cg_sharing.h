/* cg_sharing.h -- --sharing=yes: the cache lines several threads use,
   and how (cg_sharing.c records, cg_sharing_file.c writes
   cachegrind.sharing.<pid>; the manual's section 10.6 states the rules).

   A line (of D1's line size) is reported when two threads or more
   touch it and one writes it that is not an initial writer: a thread
   whose writes all came before it created the line's other threads (or
   their ancestors).  A line only read by its other threads, or written
   only before they were created (a table filled, then published), is
   not: those writes cannot race with their reads.  Valgrind's
   schedule does not change which lines are reported.  Per reported line and thread: the bytes read and
   written (a bit per byte, or per 2^k bytes for lines over 64 bytes),
   the reads and writes, and the source lines that made them.  The line
   is false sharing when most of the transfers it can cause are between
   threads using disjoint bytes (cg_sharing.c, classify), else true
   sharing.  Two counts of the accesses that would
   move the line between cores, if each thread ran on its own core:
   - moves: under the schedule Valgrind ran (one thread at a time, in
     program order): a write by a thread while another holds a copy,
     and a read by a thread that holds none while another thread's copy
     is modified;
   - estimate, which no schedule changes: the sum over the threads of
     min(its accesses to the line, the other threads' writes to it).
     Each of a thread's accesses that has to fetch the line from another
     core needs a write by another thread since its previous access, so
     under any interleaving at most that many fetch it. */

#ifndef CG_SHARING_H
#define CG_SHARING_H

#include "pub_tool_basics.h"
#include "cg_costs.h"
#include "cg_data_records.h"

/* One thread's use of a reported line; `sources` is a list per cost
   centre. */
typedef struct _SharingSource {
   struct _SharingSource* next;
   CostCentre*  cc;
   ULong        reads;
   ULong        writes;
} SharingSource;

typedef struct _SharingSide {
   struct _SharingSide* next;
   ThreadId     tid;           /* the thread's number (cg_threads.h) */
   ULong        read_bytes;    /* a bit per granule (cg_sharing_granule) */
   ULong        write_bytes;
   ULong        reads;
   ULong        writes;
   UInt         children_at_last_write; /* threads it had created */
   /* The first thread's accesses before a second one touched the line
      (no source list is kept while one thread uses a line), and its
      last reading and last writing instruction then */
   ULong        early_reads;
   ULong        early_writes;
   CostCentre*  early_read_cc;
   CostCentre*  early_write_cc;
   Bool         initial;       /* cg_sharing_finish: every write of it
                                  came before it created all the line's
                                  other threads (directly or not) */
   SharingSource* sources;
} SharingSide;

typedef struct _SharedLine {
   struct _SharedLine* next;
   Addr         addr;          /* its first byte */
   SharingSide* sides;         /* in order of first access */
   ULong        holders;       /* the schedule's model: a bit a thread */
   ThreadId     modified_by;   /* whose copy is modified (0: nobody's) */
   ULong        moves;
   /* The data profile's object of the heap block holding it, seen when
      the second thread came (the block may be gone at exit; globals are
      looked up when the file is written) */
   const DataObject* object;
   Long         object_offset;
   /* Filled by cg_sharing_finish */
   Bool         false_sharing;
   ULong        estimate;
} SharedLine;

Bool cg_sharing_enabled(void);
/* Before the program runs; `line_size` is D1's. */
void cg_sharing_init(Int line_size);
void cg_sharing_thread_runs(ThreadId tid);

/* Every data access of compiled code (a modify is a read and a write):
   hits included, as a line's use by its own thread is one. */
VG_REGPARM(3) void cg_sharing_read(CostCentre* cc, Addr addr, UWord size);
VG_REGPARM(3) void cg_sharing_write(CostCentre* cc, Addr addr, UWord size);

/* At exit: the reported lines, classified and ordered by estimate
   (highest first, then address); their number in *n. */
SharedLine** cg_sharing_finish(UWord* n);
Int  cg_sharing_line_size(void);
Int  cg_sharing_granule_bits(void);
ULong cg_sharing_lines_touched(void);
ULong cg_sharing_lines_shared(void);

#endif /* CG_SHARING_H */
