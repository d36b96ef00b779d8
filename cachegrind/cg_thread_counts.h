/* cg_thread_counts.h -- --separate-threads=yes: each thread's share of
   every count, in a file of its own (cg_thread_counts.c).

   The main file keeps the whole program's counts, as without the
   option.  Thread <n> (numbered in order of creation, cg_threads.h)
   gets <main file>.<n>: the same form (3.19's cg_annotate and
   KCachegrind read it), with only the lines it ran, its own summary.
   The threads' files add up to the main file, line by line. */

#ifndef CG_THREAD_COUNTS_H
#define CG_THREAD_COUNTS_H

#include "pub_tool_basics.h"
#include "cg_config.h"

Bool cg_thread_counts_enabled(void);
void cg_thread_counts_init(void);
/* A thread starts running (track_start_client_code): when it is another
   than the last, what the last one made is moved to its share */
void cg_thread_counts_runs(ThreadId tid);
/* At exit, after the log is drained and the counters folded: the last
   thread's share taken, then every cost centre given its sum back for
   the main file */
void cg_thread_counts_finish(void);
/* After the main file: a file per thread that ran */
void cg_thread_counts_write(const CacheGeometry* I1, const CacheGeometry* D1,
                            const CacheGeometry* L2, const CacheGeometry* LL);

#endif /* CG_THREAD_COUNTS_H */
