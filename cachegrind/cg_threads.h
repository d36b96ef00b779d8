/* cg_threads.h -- the program's threads numbered in order of creation
   (cg_threads.c), for the files that name threads (--sharing,
   --separate-threads).

   The main thread is 1, the next thread created 2, and so on.
   Valgrind's ThreadIds are not used: an exited thread's id goes to the
   next thread created, and two threads must not be one.  Each number
   also knows its creator and how many threads it has created, the
   tree --sharing uses to tell initial writers. */

#ifndef CG_THREADS_H
#define CG_THREADS_H

#include "pub_tool_basics.h"

/* From Valgrind's track_pre_thread_ll_create (the main thread's, with
   no parent, included) and track_start_client_code */
void cg_threads_created(ThreadId parent, ThreadId child);
void cg_threads_runs(ThreadId tid);

UInt cg_threads_running(void);          /* the running thread's number */
UInt cg_threads_number_of(ThreadId tid);
UInt cg_threads_count(void);            /* numbers are 1 .. this */
UInt cg_threads_parent(UInt number);    /* 0: the main thread has none */
UInt cg_threads_child_index(UInt number);  /* its creator's how-manieth */
UInt cg_threads_children(UInt number);  /* threads it has created */

#endif /* CG_THREADS_H */
