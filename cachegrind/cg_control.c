/* cg_control.c -- what is counted when: instrumentation on/off and
   --toggle-collect.

   Owns: the instrumentation state (--instr-at-start, the client
   requests CACHEGRIND_START/STOP_INSTRUMENTATION) and the per-thread
   stacks of active --toggle-collect functions, with the two words
   compiled code reads: whether events are being collected, and the
   stack pointer at which the innermost active function was entered.
   Must not: emit IR (cg_deliver.c and cg_instrument.c do) or count.

   Instrumentation off means blocks are translated without any of our
   code: nothing is counted or simulated (the cache state is kept as
   it was).  Switching it discards every translation, so each block is
   translated again in the new state.

   --toggle-collect=PATTERN: events are counted only while a function
   whose name matches PATTERN is active in the running thread.  The
   caches and predictors are still simulated outside such functions
   (counts inside them are the same as in a full run).  A function is
   entered when its first instruction executes; it stays active while
   the stack pointer is at or below the value it had then (the stack
   grows down), so it ends when it returns, and also when a longjmp or
   an exception unwinds past it.  Recursion keeps one activation per
   entry (a jump back to the first instruction with the same stack
   pointer is not a new entry); collection stops when the outermost one
   ends.  Each thread has its own stack of activations, emptied when
   the thread ends. */

#include "pub_tool_basics.h"
#include "pub_tool_clreq.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_seqmatch.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_transtab.h"
#include "cg_control.h"
#include "cg_options.h"
#include "cachegrind.h"

static Bool instrumenting;
static Bool ever_stopped;

/* Read by compiled code.  collecting_word is 1 or 0; innermost_entry_sp
   is the highest address the stack pointer may reach before the
   innermost activation has ended (all ones: none active). */
static UWord collecting_word = 1;
static Addr  innermost_entry_sp = ~(Addr)0;

typedef struct {
   Addr* entry_sp;       /* one per activation, innermost last */
   Int   depth;
   Int   capacity;
} ActivationStack;

static ActivationStack* stacks;     /* indexed by ThreadId */
static ThreadId running_tid = 1;

void cg_control_init(void)
{
   instrumenting = cg_clo.instr_at_start;
   ever_stopped = !instrumenting;
   collecting_word = cg_clo.n_toggle_patterns > 0 ? 0 : 1;
   innermost_entry_sp = ~(Addr)0;
   if (cg_clo.n_toggle_patterns > 0)
      stacks = VG_(calloc)("cg.control.stacks", VG_N_THREADS,
                           sizeof(ActivationStack));
}

Bool cg_control_instrumenting(void)
{
   return instrumenting;
}

Bool cg_control_partial(void)
{
   return ever_stopped || cg_clo.n_toggle_patterns > 0;
}

Bool cg_control_toggling(void)
{
   return cg_clo.n_toggle_patterns > 0;
}

const UWord* cg_control_collecting_word(void)
{
   return &collecting_word;
}

const Addr* cg_control_innermost_entry_sp(void)
{
   return &innermost_entry_sp;
}

/*------------------------------------------------------------*/
/*--- Instrumentation on/off                               ---*/
/*------------------------------------------------------------*/

static void set_instrumenting(Bool on, const HChar* why)
{
   if (on == instrumenting)
      return;
   instrumenting = on;
   ever_stopped |= !on;
   if (VG_(clo_verbosity) > 1)
      VG_(message)(Vg_DebugMsg, "%s: instrumentation switched %s\n",
                   why, on ? "ON" : "OFF");
   /* Every translation was made in the old state. */
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff,
                                    "cachegrind");
}

Bool cg_control_client_request(ThreadId tid, UWord* args, UWord* ret)
{
   switch (args[0]) {
   case VG_USERREQ__CG_START_INSTRUMENTATION:
      set_instrumenting(True, "client request");
      break;
   case VG_USERREQ__CG_STOP_INSTRUMENTATION:
      set_instrumenting(False, "client request");
      break;
   default:
      return False;
   }
   *ret = 0;
   return True;
}

/*------------------------------------------------------------*/
/*--- --toggle-collect                                     ---*/
/*------------------------------------------------------------*/

Bool cg_control_is_toggle_entry(Addr instr_addr)
{
   const HChar* name;
   Int i;

   if (cg_clo.n_toggle_patterns == 0
       || !VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), instr_addr,
                                    &name))
      return False;
   for (i = 0; i < cg_clo.n_toggle_patterns; i++)
      if (VG_(string_match)(cg_clo.toggle_patterns[i], name))
         return True;
   return False;
}

/* The two words compiled code reads, for the running thread. */
static void publish(const ActivationStack* s)
{
   collecting_word = s->depth > 0;
   innermost_entry_sp = s->depth > 0 ? s->entry_sp[s->depth - 1]
                                     : ~(Addr)0;
}

/* Ends the activations the stack pointer has moved above. */
static void unwind_to(ActivationStack* s, Addr sp)
{
   while (s->depth > 0 && s->entry_sp[s->depth - 1] < sp)
      s->depth--;
}

VG_REGPARM(1) void cg_control_check_sp(Addr sp)
{
   ActivationStack* s = &stacks[running_tid];

   unwind_to(s, sp);
   publish(s);
}

VG_REGPARM(1) void cg_control_enter(Addr sp)
{
   ActivationStack* s = &stacks[running_tid];

   unwind_to(s, sp);
   /* A jump back to the entry (a loop at the top of the function) with
      the same stack pointer is the same activation, not a new one. */
   if (s->depth > 0 && s->entry_sp[s->depth - 1] == sp) {
      publish(s);
      return;
   }
   if (s->depth == s->capacity) {
      s->capacity = s->capacity == 0 ? 16 : 2 * s->capacity;
      s->entry_sp = VG_(realloc)("cg.control.frames", s->entry_sp,
                                 s->capacity * sizeof(Addr));
   }
   s->entry_sp[s->depth++] = sp;
   publish(s);
}

/* A thread id is reused after its thread ends (even by an exit system
   call inside a toggled function): the next thread starts with none. */
void cg_control_thread_exits(ThreadId tid)
{
   if (stacks != NULL)
      stacks[tid].depth = 0;
}

/* The core runs one thread at a time; the words compiled code reads
   must describe the one that is about to run. */
void cg_control_thread_runs(ThreadId tid, ULong blocks_done)
{
   running_tid = tid;
   if (stacks != NULL)
      publish(&stacks[tid]);
}
