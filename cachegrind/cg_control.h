/* cg_control.h -- what is counted when: instrumentation on and off,
   --toggle-collect (cg_control.c). */

#ifndef CG_CONTROL_H
#define CG_CONTROL_H

#include "pub_tool_basics.h"

void cg_control_init(void);
Bool cg_control_instrumenting(void);
/* True if some of the run was not collected (--toggle-collect, or
   instrumentation was off at some point). */
Bool cg_control_partial(void);
Bool cg_control_client_request(ThreadId tid, UWord* args, UWord* ret);
void cg_control_thread_runs(ThreadId tid, ULong blocks_done);
void cg_control_thread_exits(ThreadId tid);
/* --toggle-collect: is the instruction at `instr_addr` the first of a
   function whose events are collected? */
Bool cg_control_toggling(void);
Bool cg_control_is_toggle_entry(Addr instr_addr);
/* Words compiled code reads (see cg_control.c). */
const UWord* cg_control_collecting_word(void);
const Addr*  cg_control_innermost_entry_sp(void);
/* Helpers: a toggled function is entered / the stack pointer may have
   moved above the innermost activation. */
VG_REGPARM(1) void cg_control_enter(Addr sp);
VG_REGPARM(1) void cg_control_check_sp(Addr sp);

#endif /* CG_CONTROL_H */
