/* cg_data.h -- the data-centric profile, --data-profile=yes (cg_data.c):
   every data access, and its D1/LL outcome, attributed to the object
   that holds its address. */

#ifndef CG_DATA_H
#define CG_DATA_H

#include "pub_tool_basics.h"
#include "cg_costs.h"
#include "cg_data_records.h"   /* DataKind, and the records' types */

/* One data access of a translation (its instruction and kind), with
   the block it touched last.  Made at translation time, freed with the
   translation. */
typedef struct _DataSite DataSite;

/* `with_log`: the access log applies (cg_main.c): the data profile
   writes it, and its simulator counts. */
void cg_data_init(Bool with_log);
Bool cg_data_enabled(void);

DataSite* cg_data_new_site(BlockInfo* block, CostCentre* cc, Int size,
                           Bool is_write);
Bool      cg_data_site_is(const DataSite* site, Int size, Bool is_write);
/* Helpers: one access, simulated (D1, then LL) and attributed.  The
   counted form also adds it to its cost centre's Dr or Dw (guarded
   accesses, which have no group counter). */
VG_REGPARM(2) void cg_data_access(DataSite* site, Addr addr);
VG_REGPARM(2) void cg_data_access_counted(DataSite* site, Addr addr);

/* The access buffer compiled code appends (site, address) pairs to,
   without --toggle-collect and --interval-size (cg_data.c says why and
   when it is drained).  Helpers: simulate and attribute what it holds;
   a fetch that reaches the simulator, after draining. */
Bool          cg_data_buffering(void);
UWord**       cg_data_cursor_word(void);
const UWord*  cg_data_buffer_limit(void);
VG_REGPARM(0) void cg_data_drain(void);
/* Drains, and waits until everything is counted (before anything that
   frees sites or reads the counts). */
void cg_data_sync(void);
/* Before cg_costs discards `block` (or NULL): drains, and syncs if
   the translation has sites (they are freed with it). */
void cg_data_translation_discarded(BlockInfo* block);
VG_REGPARM(1) void cg_data_fetch(InstrInfo* ii);

/* Blocks as the allocator hands them out (cg_alloc.c).  `frames` is the
   allocation's call stack, innermost first, already cut to
   --data-callers frames. */
void cg_data_block_allocated(DataKind kind, const Addr* frames, UInt n_frames,
                             Addr start, SizeT size);
/* The block starting at `start`, or for munmap every mapped block in
   [start, start + size), is gone.  Nothing happens for an address that
   starts no block. */
void cg_data_block_freed(Addr start);
void cg_data_mapping_removed(Addr start, SizeT size);
/* A mapping came or went (any mmap, munmap, mremap or brk). */
void cg_data_memory_map_changed(void);
void cg_data_thread_runs(ThreadId tid);
void cg_data_thread_exits(ThreadId tid);

/* For the file's writer (cg_data_file.c; records: cg_data_records.h).
   cg_data_finish: every access counted and in its records, element
   sizes fixed (at exit).  Objects come newest first,
   linked by next_created, with ids 0 .. n - 1. */
void cg_data_finish(void);
DataObject* cg_data_objects(UInt* n_objects);
/* The object of the live heap or mmap block holding `a`, and `a`'s
   offset in that block; NULL if none (--sharing names lines with it) */
const DataObject* cg_data_object_at(Addr a, UWord* offset);
const DataObject* cg_data_other_object(void);
void cg_data_for_each_line(void (*fn)(LineRec* line, void* arg), void* arg);
UWord cg_data_n_lines(void);
/* For --stats=yes */
void cg_data_print_stats(void);

#endif /* CG_DATA_H */
