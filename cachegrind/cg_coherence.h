/* cg_coherence.h -- --caches=per-thread: each thread its own I1, D1
   (and L2), over the shared LL, kept coherent (cg_coherence.c; the
   manual's section 10.8 states the rules).

   A data write by one thread removes the line from the other threads'
   private D1 and L2.  Valgrind runs one thread at a time, so the
   removal is made when the other thread next runs, before its first
   access: the same caches result as if it were made at once.  A D1
   miss of a thread on a line removed so from its D1 (and not brought
   back since) is also a coherence miss, event D1cm.  Which misses those
   are depends on where Valgrind switches threads. */

#ifndef CG_COHERENCE_H
#define CG_COHERENCE_H

#include "pub_tool_basics.h"
#include "cg_cache.h"
#include "cg_costs.h"

Bool cg_coherence_enabled(void);
/* Before any access, with the levels in their initial state (a new
   thread's private caches start so); `l2` NULL without a middle level */
void cg_coherence_init(CacheLevel* i1, CacheLevel* d1, CacheLevel* l2);
/* A thread starts running: the levels become its own */
void cg_coherence_thread_runs(ThreadId tid);
/* Every data write and modify of compiled code, MRU hits included */
VG_REGPARM(2) void cg_coherence_write(Addr addr, UWord size);
/* A data access missed the running thread's D1 */
void cg_coherence_d1_missed(CostCentre* cc, Addr addr, UWord size,
                            UWord counted);

#endif /* CG_COHERENCE_H */
