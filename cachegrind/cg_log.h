/* cg_log.h -- the access log that compiled code hands to the simulator
   (cg_log.c). */

#ifndef CG_LOG_H
#define CG_LOG_H

#include "pub_tool_basics.h"
#include "cg_costs.h"

/* An entry's two words at `at`, stored non-temporally as the checkers'
   appends are with a simulator thread (cg_checkers.c, emit_append, says
   why; cg_log_stores_around_caches). */
static inline void cg_log_store_entry(UWord* at, UWord first, UWord second)
{
#if defined(VGA_amd64)
   __asm__ volatile ("movnti %1, %0" : "=m"(at[0]) : "r"(first));
   __asm__ volatile ("movnti %1, %0" : "=m"(at[1]) : "r"(second));
#else
   at[0] = first;
   at[1] = second;
#endif
}

void   cg_log_init(Bool enabled, Bool with_thread, UInt n_chunks,
                   UInt alloc_limit);
Bool   cg_log_enabled(void);
/* Returns once everything logged so far is simulated. */
void   cg_log_drain(void);
void   cg_log_register_fork_handlers(void);
/* The log's cursor (next free entry) and limit (the current chunk's
   end), two adjacent words; an append stores the entry's two words at
   the cursor and moves it on by two, if it is below the limit. */
UWord* cg_log_cursor_and_limit(void);
/* Whether appends store around the host's caches (non-temporally): with
   a simulator thread, which reads them on another core.  Without one
   the client reads them back at once, from its own caches. */
Bool   cg_log_stores_around_caches(void);
/* Appends an entry (making room if the chunk is full), without the
   helpers' update of the MRU filter. */
VG_REGPARM(2) void cg_log_append_words(UWord first, UWord second);
/* The L1s whose MRU mirrors the helpers below keep (cg_sim_i1,
   cg_sim_d1). */
struct _CacheLevel;
void   cg_log_set_filters(const struct _CacheLevel* i1,
                          const struct _CacheLevel* d1);
/* Helpers of compiled code, for accesses its MRU test did not settle:
   the fetch's instruction record (a fetch site of its block); for data,
   `entry` is the first word of the log entry (cost centre | code). */
VG_REGPARM(1) void cg_log_fetch(const InstrInfo* ii);
VG_REGPARM(3) void cg_log_data(UWord entry, Addr addr, UWord size);
VG_REGPARM(3) void cg_log_guarded_read(UWord entry, Addr addr, UWord size);
VG_REGPARM(3) void cg_log_guarded_write(UWord entry, Addr addr, UWord size);
#define CG_DECLARE_SIZED_LOG_HELPERS(n)                                  \
   VG_REGPARM(2) void cg_log_data##n(UWord entry, Addr addr);
CG_DECLARE_SIZED_LOG_HELPERS(1)
CG_DECLARE_SIZED_LOG_HELPERS(2)
CG_DECLARE_SIZED_LOG_HELPERS(4)
CG_DECLARE_SIZED_LOG_HELPERS(8)
CG_DECLARE_SIZED_LOG_HELPERS(16)
CG_DECLARE_SIZED_LOG_HELPERS(32)
/* --data-profile=yes (cg_data.c): `simulate` takes the place of
   cg_sim_log_entries for every chunk (in whichever thread simulates);
   `service` runs in the client's thread before each hand-over and
   before it waits for the simulator. */
void   cg_log_set_data_profile(void (*simulate)(const UWord*, const UWord*),
                               void (*service)(void));
/* The split (cg_sim.h): `whole` simulates a chunk instead of
   cg_sim_log_entries; with a simulator thread and --sim-split=yes or
   always, `client` (NULL: never) may run over a chunk in the client's
   thread before its hand-over (the L1s' look-ups), leaving in its place
   what `thread` runs in the simulator thread (the levels below); it
   returns the new end of the chunk.  `always`: every chunk so; else
   only where that is faster (cg_log.c, client_stages_next). */
void   cg_log_set_split(UWord* (*client)(UWord*, const UWord*),
                        void (*thread)(const UWord*, const UWord*),
                        void (*whole)(const UWord*, const UWord*),
                        Bool always);
/* Whether chunks are simulated in a thread of their own (from the
   first full chunk on). */
Bool   cg_log_simulator_running(void);
/* Chunks handed over, and simulated, so far: an entry appended now is
   simulated once the second count passes the first's value plus one. */
ULong  cg_log_chunks_handed_over(void);
ULong  cg_log_chunks_simulated(void);
/* For --stats=yes: the log's line, and the simulator thread's. */
void   cg_log_print_stats(void);
void   cg_log_print_thread_stats(void);

#endif /* CG_LOG_H */
