/* cg_bbv.h -- SimPoint basic block vectors, --bb-out-file (cg_bbv.c). */

#ifndef CG_BBV_H
#define CG_BBV_H

#include "pub_tool_basics.h"

void cg_bbv_init(void);
Bool cg_bbv_enabled(void);
/* The record of the block (superblock) starting at `addr`, and of the
   rep-prefixed string instruction at `addr`; made when first needed. */
struct _BbvBlock;
struct _BbvBlock* cg_bbv_block_for(Addr addr);
struct _BbvBlock* cg_bbv_rep_for(Addr addr);
Bool cg_bbv_is_rep_string_instr(Addr addr);
Bool cg_bbv_is_fldcw(Addr addr);
/* Helpers: a run of `packed` & 0xFFFF instructions of the block (with
   packed >> 16 fldcw among them), up to its next exit; an iteration of
   a rep instruction. */
VG_REGPARM(2) void cg_bbv_run(struct _BbvBlock* block, UWord packed);
VG_REGPARM(1) void cg_bbv_rep(struct _BbvBlock* rep);
void cg_bbv_thread_runs(ThreadId tid);
void cg_bbv_fini(void);
/* Before an exec: gives up every thread's open vector file, returning
   a copy of the first one's name (the caller frees it), or NULL if
   none was open; *n_more: how many others were given up.  If the exec
   fails, each thread starts a new file at its next vector. */
HChar* cg_bbv_give_up_for_exec(UInt* n_more);

#endif /* CG_BBV_H */
