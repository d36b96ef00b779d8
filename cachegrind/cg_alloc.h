/* cg_alloc.h -- the program's allocations seen from outside: allocator
   entries and returns, anonymous mappings (cg_alloc.c), for the
   data-centric profile. */

#ifndef CG_ALLOC_H
#define CG_ALLOC_H

#include "pub_tool_basics.h"

/* With --data-profile, once at start-up. */
void cg_alloc_init(void);
/* Translation time: which allocator function (an opaque kind for
   cg_alloc_enter) starts at `instr_addr`, or -1. */
Int cg_alloc_entry_kind(Addr instr_addr);
/* Where the guest's first three integer arguments and its result are
   at the call's entry and return (-1: on the stack, read by the
   helper). */
void cg_alloc_guest_registers(Int* arg_offsets, Int* result_offset);
/* The word every block's start compares the stack pointer with. */
const Addr* cg_alloc_pending_sp_word(void);

/* Helpers: at an allocator function's first instruction, and at a
   block's start when the stack pointer is above the pending word. */
VG_REGPARM(3) void cg_alloc_enter(UWord kind, Addr sp, UWord a0, UWord a1,
                                  UWord a2);
VG_REGPARM(2) void cg_alloc_returned(Addr sp, UWord result);

void cg_alloc_thread_runs(ThreadId tid);
void cg_alloc_thread_exits(ThreadId tid);
void cg_alloc_post_syscall(ThreadId tid, UInt sysno, const UWord* args,
                           SysRes res);

#endif /* CG_ALLOC_H */
