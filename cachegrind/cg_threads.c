/* cg_threads.c -- thread numbers in order of creation, and who created
   whom (cg_threads.h).

   Owns: the map from Valgrind's ThreadIds to numbers, and a record per
   number.
   Must not: count anything. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "cg_threads.h"

typedef struct {
   UInt parent;                  /* 0: none (the main thread) */
   UInt child_index;
   UInt children;
} ThreadInfo;

static UInt* number_of_tid;      /* by ThreadId; 0: not created (main) */
static UInt n_tids;
static ThreadInfo* threads;      /* by number; [0] unused */
static UInt n_thread_slots;
static UInt n_numbers = 1;
static UInt running = 1;

static void* grow(void* array, UInt* n, UInt wanted, SizeT size)
{
   UInt new_n = wanted + 16;

   array = VG_(realloc)("cg.threads", array, new_n * size);
   VG_(memset)((UChar*)array + *n * size, 0, (new_n - *n) * size);
   *n = new_n;
   return array;
}

void cg_threads_created(ThreadId parent, ThreadId child)
{
   UInt number, parent_number;

   if (parent == VG_INVALID_THREADID)
      return;                      /* the main thread: number 1 */
   if (child >= n_tids)
      number_of_tid = grow(number_of_tid, &n_tids, child, sizeof(UInt));
   number = ++n_numbers;
   if (number >= n_thread_slots)
      threads = grow(threads, &n_thread_slots, number, sizeof(ThreadInfo));
   parent_number = cg_threads_number_of(parent);
   threads[number].parent = parent_number;
   threads[number].child_index = ++threads[parent_number].children;
   number_of_tid[child] = number;
}

UInt cg_threads_number_of(ThreadId tid)
{
   return tid < n_tids && number_of_tid[tid] != 0 ? number_of_tid[tid] : 1;
}

void cg_threads_runs(ThreadId tid)
{
   running = cg_threads_number_of(tid);
}

UInt cg_threads_running(void) { return running; }
UInt cg_threads_count(void) { return n_numbers; }

UInt cg_threads_parent(UInt number)
{
   return number < n_thread_slots ? threads[number].parent : 0;
}

UInt cg_threads_child_index(UInt number)
{
   return number < n_thread_slots ? threads[number].child_index : 0;
}

UInt cg_threads_children(UInt number)
{
   return number < n_thread_slots ? threads[number].children : 0;
}
