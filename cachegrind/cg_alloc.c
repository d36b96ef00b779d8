/* cg_alloc.c -- the program's allocations, for the data-centric profile
   (--data-profile=yes).

   Owns: recognising the allocator's functions, the calls to them that
   have not returned yet (one per thread), and the anonymous mappings
   the program makes itself.  It tells cg_data.c which blocks exist.
   Must not: emit IR (cg_deliver.c calls the helpers below) or count.

   Why this way: the client's environment and memory must stay exactly
   as under the system Cachegrind, so that the main output file does
   not move (a preload library would lengthen LD_PRELOAD, and so the
   environment on the client's stack; replacing the allocator would
   move every heap address).  So the allocator is watched from outside:
   - at translation time, the first instruction of malloc, calloc,
     realloc, reallocarray, memalign, aligned_alloc, posix_memalign,
     valloc, pvalloc, free and C++'s operator new/new[]/delete/delete[]
     (any object's function of that name) gets a call of
     cg_alloc_enter with the arguments and the stack pointer;
   - the call is pending until the stack pointer rises above its value
     at entry, which happens first at the block the function returns
     to: every block starts with an inline comparison against the
     running thread's pending stack pointer (all ones when there is
     none), and only then calls cg_alloc_returned with the result;
   - calls made while one is pending (operator new calling malloc,
     malloc mapping memory) are the outer call's business;
   - free is handled at entry, so the allocator's own accesses to the
     block it is given back, like those to a block it has not returned
     yet (calloc's zeroing, realloc's copy), count as `other`.
   Mappings: a successful mmap with MAP_ANONYMOUS outside an allocator
   call is a block of kind mmap; munmap ends the blocks it covers.
   mremap is not followed (what it moves is `other` afterwards). */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "libvex_guest_offsets.h"
#include "cg_alloc.h"
#include "cg_data.h"
#include "cg_options.h"

typedef enum {
   AF_MALLOC,          /* (size) */
   AF_CALLOC,          /* (n, size) */
   AF_REALLOC,         /* (ptr, size) */
   AF_REALLOCARRAY,    /* (ptr, n, size) */
   AF_MEMALIGN,        /* (alignment, size) */
   AF_POSIX_MEMALIGN,  /* (&ptr, alignment, size) -> 0 */
   AF_FREE             /* (ptr) */
} AllocFn;

static const struct {
   const HChar* name;
   AllocFn      fn;
} allocator_functions[] = {
   { "malloc", AF_MALLOC },           { "__libc_malloc", AF_MALLOC },
   { "valloc", AF_MALLOC },           { "__libc_valloc", AF_MALLOC },
   { "pvalloc", AF_MALLOC },          { "__libc_pvalloc", AF_MALLOC },
   { "calloc", AF_CALLOC },           { "__libc_calloc", AF_CALLOC },
   { "realloc", AF_REALLOC },         { "__libc_realloc", AF_REALLOC },
   { "reallocarray", AF_REALLOCARRAY },
   { "memalign", AF_MEMALIGN },       { "__libc_memalign", AF_MEMALIGN },
   { "aligned_alloc", AF_MEMALIGN },
   { "posix_memalign", AF_POSIX_MEMALIGN },
   { "free", AF_FREE },               { "__libc_free", AF_FREE },
   { "cfree", AF_FREE },
};

/* C++'s allocation functions, every overload: the size or the pointer
   is the first argument.  Mangled (--demangle=no) or not. */
static const struct {
   const HChar* prefix;
   AllocFn      fn;
} cxx_prefixes[] = {
   { "_Znw", AF_MALLOC }, { "_Zna", AF_MALLOC },
   { "_Zdl", AF_FREE },   { "_Zda", AF_FREE },
   { "operator new(", AF_MALLOC },    { "operator new[](", AF_MALLOC },
   { "operator delete(", AF_FREE },   { "operator delete[](", AF_FREE },
};

typedef struct {
   Bool    active;
   AllocFn fn;
   Addr    entry_sp;        /* points at the return address */
   UWord   args[3];
   Addr    frames[CG_DATA_MAX_CALLERS];
   UInt    n_frames;
} PendingCall;

static PendingCall* pending;       /* by thread id */
static ThreadId running_tid = 1;
/* Read by compiled code at every block's start: the running thread's
   pending call has returned once the stack pointer is above it. */
static Addr pending_sp = ~(Addr)0;

Int cg_alloc_entry_kind(Addr instr_addr)
{
   const HChar* name;
   UInt i;

   if (!VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), instr_addr, &name))
      return -1;
   for (i = 0; i < sizeof allocator_functions / sizeof allocator_functions[0];
        i++)
      if (VG_(strcmp)(name, allocator_functions[i].name) == 0)
         return allocator_functions[i].fn;
   for (i = 0; i < sizeof cxx_prefixes / sizeof cxx_prefixes[0]; i++)
      if (VG_(strncmp)(name, cxx_prefixes[i].prefix,
                       VG_(strlen)(cxx_prefixes[i].prefix)) == 0)
         return cxx_prefixes[i].fn;
   return -1;
}

void cg_alloc_guest_registers(Int* arg_offsets, Int* result_offset)
{
#if defined(VGA_amd64)
   arg_offsets[0] = OFFSET_amd64_RDI;
   arg_offsets[1] = OFFSET_amd64_RSI;
   arg_offsets[2] = OFFSET_amd64_RDX;
   *result_offset = OFFSET_amd64_RAX;
#elif defined(VGA_x86)
   /* Arguments on the stack: cg_alloc_enter reads them. */
   arg_offsets[0] = arg_offsets[1] = arg_offsets[2] = -1;
   *result_offset = OFFSET_x86_EAX;
#else
#  error "cg_alloc.c: unknown architecture"
#endif
}

const Addr* cg_alloc_pending_sp_word(void)
{
   return &pending_sp;
}

void cg_alloc_init(void)
{
   pending = VG_(calloc)("cg.alloc.pending", VG_N_THREADS,
                         sizeof(PendingCall));
}

static void publish(void)
{
   if (pending == NULL)
      return;
   pending_sp = pending[running_tid].active ? pending[running_tid].entry_sp
                                            : ~(Addr)0;
}

/* The allocation's call stack without the allocator's own frame,
   which is where the program counter stands. */
static UInt caller_frames(ThreadId tid, Addr* frames)
{
   Addr ips[CG_DATA_MAX_CALLERS + 1];
   UInt n = VG_(get_StackTrace)(tid, ips, (UInt)cg_clo.data_callers + 1,
                                NULL, NULL, 0);

   if (n <= 1)
      return 0;
   VG_(memcpy)(frames, ips + 1, (n - 1) * sizeof(Addr));
   return n - 1;
}

VG_REGPARM(3) void cg_alloc_enter(UWord fn, Addr sp, UWord a0, UWord a1,
                                  UWord a2)
{
   PendingCall* p = &pending[running_tid];

   cg_data_drain();
#if defined(VGA_x86)
   a0 = ((const UInt*)sp)[1];
   a1 = ((const UInt*)sp)[2];
   a2 = ((const UInt*)sp)[3];
#endif
   if (fn == AF_FREE) {
      cg_data_block_freed(a0);
      return;
   }
   /* realloc's copy, and its free of the old block, are the
      allocator's own accesses: the old block ends here.  (If realloc
      fails, the block it leaves the program is the realloc's.) */
   if ((fn == AF_REALLOC || fn == AF_REALLOCARRAY)
       && !(p->active && sp < p->entry_sp))
      cg_data_block_freed(a0);
   /* Inside a pending call (operator new calling malloc): its block. */
   if (p->active && sp < p->entry_sp)
      return;
   p->active = True;
   p->fn = (AllocFn)fn;
   p->entry_sp = sp;
   p->args[0] = a0;
   p->args[1] = a1;
   p->args[2] = a2;
   p->n_frames = caller_frames(running_tid, p->frames);
   publish();
}

static void allocated(const PendingCall* p, Addr block, SizeT size)
{
   if (block != 0)
      cg_data_block_allocated(DATA_HEAP, p->frames, p->n_frames, block,
                              size);
}

/* n * size, or 0 if it overflows (the allocator then fails too). */
static SizeT product(UWord n, UWord size)
{
   if (size != 0 && n > ~(UWord)0 / size)
      return 0;
   return n * size;
}

VG_REGPARM(2) void cg_alloc_returned(Addr sp, UWord result)
{
   PendingCall* p = &pending[running_tid];

   cg_data_drain();
   if (!p->active || sp <= p->entry_sp) {
      publish();
      return;
   }
   p->active = False;
   publish();
   switch (p->fn) {
   case AF_MALLOC:
      allocated(p, result, p->args[0]);
      break;
   case AF_CALLOC:
      allocated(p, result, product(p->args[0], p->args[1]));
      break;
   case AF_REALLOC:
   case AF_REALLOCARRAY: {
      SizeT size = p->fn == AF_REALLOC ? p->args[1]
                                        : product(p->args[1], p->args[2]);
      /* A new block, also in place: it is the realloc's from now on.
         Failed (NULL for a size above 0): the old one, the same. */
      if (result != 0)
         allocated(p, result, size);
      else if (size != 0)
         allocated(p, p->args[0], size);
      break;
   }
   case AF_MEMALIGN:
      allocated(p, result, p->args[1]);
      break;
   case AF_POSIX_MEMALIGN:
      if (result == 0 && p->args[0] != 0)
         allocated(p, *(const Addr*)p->args[0], p->args[2]);
      break;
   case AF_FREE:
      break;
   }
}

void cg_alloc_thread_runs(ThreadId tid)
{
   running_tid = tid;
   publish();
}

void cg_alloc_thread_exits(ThreadId tid)
{
   if (pending == NULL)
      return;
   pending[tid].active = False;
   if (tid == running_tid)
      publish();
}

void cg_alloc_post_syscall(ThreadId tid, UInt sysno, const UWord* args,
                           SysRes res)
{
   Addr frames[CG_DATA_MAX_CALLERS];
   UInt n;

   if (!cg_data_enabled())
      return;
   cg_data_drain();
   if (sr_isError(res))
      return;
   if (sysno == __NR_munmap || sysno == __NR_mremap || sysno == __NR_brk
#if defined(VGA_x86)
       || sysno == __NR_mmap2
#endif
       || sysno == __NR_mmap)
      cg_data_memory_map_changed();
   if (sysno == __NR_munmap) {
      cg_data_mapping_removed(args[0], args[1]);
      return;
   }
#if defined(VGA_x86)
   if (sysno != __NR_mmap2)
      return;
#else
   if (sysno != __NR_mmap)
      return;
#endif
   if ((args[3] & VKI_MAP_ANONYMOUS) == 0 || pending[tid].active)
      return;
   /* Frame 0 is the system call, inside the C library's mmap. */
   n = caller_frames(tid, frames);
   cg_data_block_allocated(DATA_MMAP, frames, n, sr_Res(res), args[1]);
}
