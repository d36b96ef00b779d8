/* cg_checkers.c -- group checkers: a hot group's MRU checks as machine
   code of our own, called once per run of the group.

   Owns: the checkers' memory and their amd64 machine code.
   Must not: decide which accesses a group has (cg_deliver.c does) or
   log anything itself (the helpers in cg_log.c do).

   Why: the checks are most of a cache profiler's cost, and the way VEX
   lays them out made them slow.  Inline in IR, each check ends in a
   guarded call, which VEX emits as a conditional jump over the call,
   taken whenever the call is not made: the common case, a hit, was a
   taken jump at every check, needing a branch-predictor entry of its
   own (programs like a compiler have about a million check sites).
   In a checker a hit falls through (a not-taken jump needs no entry)
   and only a miss jumps, out of line, to code that does what the log
   helper the inline check would have called does (the MRU mirror's
   update and the append): a near call of a routine shared by the
   chunk, which saves nothing and calls C only when the log's chunk is
   full; then back.  The group's translation shrinks to one call with the data
   addresses as arguments, which VEX also translates much faster, and
   the checker counts the group's run as well.

   A checker is, in program order:
     addq $1, counter(%rip)                (the group's executions; a
                                            shared checker's counter is
                                            its descriptor's first word)
     per fetch:  cmpq $block, i1_slot;  jne miss_k
     per access: rax = addr & slot_mask; r10 = addr - d1_mirror[rax];
                 cmpq $(line - size), r10; ja miss_k  (a shared
                 checker reads line - size from its descriptor)
     per conditional branch (--branch-sim=yes; its outcome is one more
                 argument): the predictor's update, branch-free
     ret
   and after it, miss_k: the entry's words in %r10 and %r11 (for a
   fetch, after two constant stores into the I1 mirror), call the
   chunk's append or data<size> routine, jmp back.  (Accesses of other
   sizes save the argument registers later checks still need and call
   the log helper.)  Keeping miss paths this small matters as much as
   avoiding the call: with the whole append inline at every miss path,
   cc1's checkers took 104 MB instead of 33 and it ran slower.  Inline
   miss paths are faster where there is little code, though (sqlite3 by
   4 %), so the first --inline-miss-paths bytes (4 MB) of checkers a
   process makes get them: all of a small program's, and a large one's
   first, at a bounded cost in memory.  Measured, 4 MB against none:
   sqlite3 1.93 -> 1.86 s, perl 1.74 -> 1.72 s, python and cc1
   unchanged (cc1 +1.2 MB); inline paths for all: cc1 10.4 -> 12.0 s
   and 179 -> 231 MB.  The tests are exactly the
   inline ones (cg_deliver.c, not_mru_const and not_mru_access) and the
   cold helpers' (cg_tier.c).

   Checkers live in Valgrind's own anonymous memory, which is executable
   (the core keeps its translations there too), until exit. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "cg_checkers.h"
#include "cg_branch.h"
#include "cg_cache.h"
#include "cg_log.h"
#include "cg_log_entry.h"
#include "cg_options.h"
#include "cg_vgcompat.h"

#if defined(VGA_amd64)

#define CHUNK_BYTES   (1 << 20)
#define TABLE_BYTES   64
/* Bounds for one checker of MAX_CHECKER_OPS operations: its hit path
   and its miss paths. */
#define MAX_HIT_BYTES  4096
#define MAX_MISS_BYTES 8192   /* 32 inline paths (a shared checker's
                                 are up to ~120 bytes each) */

/* The helpers miss paths call.  Each chunk starts with a copy of this
   table, so that a call reaches its helper's address with a 32-bit
   RIP-relative displacement wherever the chunk is. */
typedef enum {
   TARGET_DATA_ANY, TARGET_APPEND, N_TARGETS
} Target;

static UChar* chunk;          /* current chunk */
static SizeT  chunk_used;
static ULong  n_checkers, hit_bytes, miss_bytes;

/* Registers, by their encoding. */
enum { RAX = 0, RCX = 1, RDX = 2, RSP = 4, RBP = 5, RSI = 6, RDI = 7,
       R8 = 8, R9 = 9, R10 = 10, R11 = 11 };
/* Where the caller (VEX) puts the arguments: a checker's data
   addresses, in ColdOp.arg order. */
static const Int arg_regs[MAX_CHECKER_ADDRS] = { RDI, RSI, RDX, RCX, R8, R9 };

static void* target_address(Target t)
{
   switch (t) {
   case TARGET_DATA_ANY: return (void*)cg_log_data;
   case TARGET_APPEND:   return (void*)cg_log_append_words;
   default:              tl_assert(0);
   }
   return NULL; /* not reached */
}

static void* alloc_chunk(SizeT bytes, const HChar* what)
{
   void* p = cg_shadow_alloc(bytes);

   if (p == NULL)
      cg_out_of_memory(what, bytes);
   return p;
}

static void new_chunk(void)
{
   Int t;

   tl_assert(N_TARGETS * sizeof(void*) <= TABLE_BYTES);
   chunk = alloc_chunk(CHUNK_BYTES, "cachegrind: group checkers");
   for (t = 0; t < N_TARGETS; t++)
      ((void**)chunk)[t] = target_address((Target)t);
   chunk_used = TABLE_BYTES;
}

/*------------------------------------------------------------*/
/*--- amd64 encodings                                      ---*/
/*------------------------------------------------------------*/

static UChar* put32(UChar* at, UInt v)
{
   Int i;
   for (i = 0; i < 4; i++)
      at[i] = (UChar)(v >> (8 * i));
   return at + 4;
}

static UChar* put64(UChar* at, UWord v)
{
   Int i;
   for (i = 0; i < 8; i++)
      at[i] = (UChar)(v >> (8 * i));
   return at + 8;
}

/* The tool's static data (the mirrors) is linked below 2 GB, so code
   reaches it with a sign-extended 32-bit address. */
static UInt abs32(const void* p)
{
   tl_assert((UWord)p < 0x80000000UL);
   return (UInt)(UWord)p;
}

static UChar rex_w(Int reg, Int rm)
{
   return (UChar)(0x48 | (reg >= 8 ? 4 : 0) | (rm >= 8 ? 1 : 0));
}

/* mov %src, %dst */
static UChar* emit_mov(UChar* at, Int dst, Int src)
{
   at[0] = rex_w(src, dst);
   at[1] = 0x89;
   at[2] = (UChar)(0xC0 | (src & 7) << 3 | (dst & 7));
   return at + 3;
}

/* movabs $value, %reg */
static UChar* emit_movabs(UChar* at, Int reg, UWord value)
{
   at[0] = rex_w(0, reg);
   at[1] = (UChar)(0xB8 + (reg & 7));
   return put64(at + 2, value);
}

static UChar* emit_push(UChar* at, Int reg)
{
   if (reg >= 8)
      *at++ = 0x41;
   *at++ = (UChar)(0x50 + (reg & 7));
   return at;
}

static UChar* emit_pop(UChar* at, Int reg)
{
   if (reg >= 8)
      *at++ = 0x41;
   *at++ = (UChar)(0x58 + (reg & 7));
   return at;
}

#define CC_AE     0x3
#define CC_NE     0x5
#define CC_A      0x7
#define CC_ALWAYS (-1)

/* jcc rel32 or jmp rel32; returns where its displacement goes. */
static UChar* emit_jump(UChar** at, Int cc)
{
   UChar* p = *at;

   if (cc == CC_ALWAYS) {
      *p++ = 0xE9;
   } else {
      *p++ = 0x0F;
      *p++ = (UChar)(0x80 + cc);
   }
   *at = p + 4;
   return p;
}

static void patch_jump(UChar* field, const UChar* target)
{
   Long disp = (Long)(target - (field + 4));

   tl_assert(disp == (Long)(Int)disp);
   put32(field, (UInt)(Int)disp);
}

/* call *slot(%rip), through the chunk's table entry for `t`. */
static UChar* emit_call(UChar* at, Target t)
{
   const UChar* slot = chunk + t * sizeof(void*);
   Long disp = (Long)(slot - (at + 6));

   tl_assert(disp == (Long)(Int)disp);
   at[0] = 0xFF;
   at[1] = 0x15;
   return put32(at + 2, (UInt)(Int)disp);
}

/* mov disp(%rdi),%reg: a word of a descriptor checker's descriptor. */
static UChar* emit_desc_load(UChar* at, Int reg, Int disp)
{
   at[0] = rex_w(reg, RDI);
   at[1] = 0x8B;
   at[2] = (UChar)(0x80 | (reg & 7) << 3 | RDI);
   return put32(at + 3, (UInt)disp);
}

/*------------------------------------------------------------*/
/*--- Hit paths                                            ---*/
/*------------------------------------------------------------*/

/* --checker-wide-constants=yes: the long forms below, which a process
   whose addresses or counters lie far apart needs, are otherwise
   unreachable in tests. */
static Bool use_wide_constants = False;

static Bool fits_imm32(UWord value)
{
   return !use_wide_constants && value < 0x80000000UL;
}

static Bool fits_disp32(Long disp)
{
   return !use_wide_constants && disp == (Long)(Int)disp;
}

/* addq $1, counter: RIP-relative where the counter is near enough
   (Valgrind's own memory usually is), else through %rax. */
static UChar* emit_count(UChar* at, ULong* counter)
{
   Long disp = (Long)((UChar*)counter - (at + 8));

   if (fits_disp32(disp)) {
      at[0] = 0x48; at[1] = 0x83; at[2] = 0x05;
      at = put32(at + 3, (UInt)(Int)disp);
      *at++ = 0x01;
      return at;
   }
   at = emit_movabs(at, RAX, (UWord)counter);
   at[0] = 0x48; at[1] = 0x83; at[2] = 0x00; at[3] = 0x01;
   return at + 4;
}

/* Miss (jne) unless the I1 block is its set's MRU block. */
static UChar* emit_block_test(UChar* at, const CacheLevel* i1, UWord block,
                              UChar** miss)
{
   UInt slot = abs32(cg_cache_mru_slot(i1, block));
   UWord value = cg_cache_mru_value(i1, block);

   if (fits_imm32(value)) {
      /* cmpq $value, slot */
      at[0] = 0x48; at[1] = 0x81; at[2] = 0x3C; at[3] = 0x25;
      at = put32(put32(at + 4, slot), (UInt)value);
   } else {
      /* cmpq %rax, slot */
      at = emit_movabs(at, RAX, value);
      at[0] = 0x48; at[1] = 0x39; at[2] = 0x04; at[3] = 0x25;
      at = put32(at + 4, slot);
   }
   *miss = emit_jump(&at, CC_NE);
   return at;
}

/* A fetch's test; `second_miss` is set when it has a second jump to
   the same miss path. */
static UChar* emit_fetch_test(UChar* at, const CacheLevel* i1,
                              const ColdOp* op, UChar** miss,
                              UChar** second_miss)
{
   const InstrInfo* site = (const InstrInfo*)op->word;
   UWord first = site->addr >> i1->line_bits;
   UWord last  = (site->addr + site->len - 1) >> i1->line_bits;

   switch (op->kind) {
   case COLD_FETCH:
      return emit_block_test(at, i1, first, miss);
   case COLD_FETCH_LAST_ONLY:
      return emit_block_test(at, i1, last, miss);
   case COLD_FETCH_BOTH:
      at = emit_block_test(at, i1, first, second_miss);
      return emit_block_test(at, i1, last, miss);
   default:   /* COLD_FETCH_ALWAYS */
      *miss = emit_jump(&at, CC_ALWAYS);
      return at;
   }
}

/* A shared checker's data access of any size that has a data routine
   (sizes_share_code) reads its test's constants from its descriptor
   word: the first word of its log entry, whose top bytes the simulator
   ignores (LOG_CC_MASK), holds line - size at byte DESC_LIMIT_BYTE and
   size - 1 at byte DESC_SIZE_M1_BYTE.  So accesses of 1 to 32 bytes
   share shapes: cc1's 6,883 shapes became 391, sqlite3's 1,876 254,
   and every shape is a call target and code of its own among the
   host's branch targets, TLB entries and cache lines (cc1 10.50 ->
   9.61 s, sqlite3 2.66 -> 2.48 s; see also shape_kind).  The hit
   path's cost: a byte load from the descriptor line the counter has
   just brought in. */
#define DESC_SIZE_M1_BYTE 6
#define DESC_LIMIT_BYTE   7

/* Miss (ja) unless [addr, addr+size) lies in the MRU line of its set:
   the mirror is laid out by line address (cg_cache.h).  The limit
   (line - size) is an immediate, or with `desc_off` >= 0 read from the
   descriptor (a byte of the word there, into %r11). */
static UChar* emit_data_test(UChar* at, const CacheLevel* d1, Int addr_reg,
                             UWord size, Int desc_off, UChar** miss)
{
   UWord line = (UWord)1 << d1->line_bits;
   UWord slot_mask = d1->set_mask << d1->line_bits;
   UWord limit = line - size;

   if (size > line) {
      *miss = emit_jump(&at, CC_ALWAYS);
      return at;
   }
   tl_assert(slot_mask < 0x80000000UL);
   at = emit_mov(at, RAX, addr_reg);
   *at++ = 0x25;                                  /* and $mask, %eax */
   at = put32(at, (UInt)slot_mask);
   at = emit_mov(at, R10, addr_reg);
   at[0] = 0x4C; at[1] = 0x2B; at[2] = 0x90;      /* sub mru(%rax), %r10 */
   at = put32(at + 3, abs32(d1->mru));
   if (desc_off >= 0) {
      at[0] = 0x44; at[1] = 0x0F; at[2] = 0xB6; at[3] = 0x9F; /* movzbl d(%rdi),%r11d */
      at = put32(at + 4, (UInt)(desc_off + DESC_LIMIT_BYTE));
      at[0] = 0x4D; at[1] = 0x39; at[2] = 0xDA;   /* cmp %r11, %r10 */
      at += 3;
   } else if (limit < 0x80) {                     /* cmpq $limit, %r10 */
      at[0] = 0x49; at[1] = 0x83; at[2] = 0xFA; at[3] = (UChar)limit;
      at += 4;
   } else {
      at[0] = 0x49; at[1] = 0x81; at[2] = 0xFA;
      at = put32(at + 3, (UInt)limit);
   }
   *miss = emit_jump(&at, CC_A);
   return at;
}

/* The conditional predictor's update (cg_branch.c, CgCondPredictor),
   branch-free; `taken` (0 or 1) is in the argument register `t`, which
   nothing after needs:
     rax = history; r10 = (rax & mask) | addr_part;
     r11 = step[counters[r10] * 2 + t]; counters[r10] = r11b;
     history = rax * 2 | t << shift; mispredictions += r11 >> 4. */
static UChar* emit_cond_branch(UChar* at, const CgCondPredictor* p, Int t,
                               const ColdOp* op, Int desc_off)
{
   UInt history = abs32(p->shifted_history);
   UInt counters = abs32(p->counters);
   Long disp;

   tl_assert(t != RBP && (t & 7) != 5 && op->size < 0x80);
   tl_assert(p->history_mask < 0x80000000UL);
   at[0] = 0x48; at[1] = 0x8B; at[2] = 0x04; at[3] = 0x25;  /* mov h,%rax */
   at = put32(at + 4, history);
   at = emit_mov(at, R10, RAX);
   at[0] = 0x41; at[1] = 0x81; at[2] = 0xE2;               /* and $m,%r10d */
   at = put32(at + 3, (UInt)p->history_mask);
   if (desc_off < 0) {
      at[0] = 0x41; at[1] = 0x83; at[2] = 0xCA; at[3] = (UChar)op->size;
      at += 4;                                            /* or $a,%r10d */
   } else {
      at[0] = 0x44; at[1] = 0x0B; at[2] = 0x97;           /* or d(%rdi),%r10d */
      at = put32(at + 3, (UInt)desc_off);
   }
   at[0] = 0x45; at[1] = 0x0F; at[2] = 0xB6; at[3] = 0x9A; /* movzbl c(%r10),%r11d */
   at = put32(at + 4, counters);
   /* lea (%t,%r11,2),%r11 */
   at[0] = (UChar)(0x4E | (t >= 8 ? 1 : 0)); at[1] = 0x8D; at[2] = 0x1C;
   at[3] = (UChar)(0x58 | (t & 7));
   at += 4;
   at[0] = 0x45; at[1] = 0x0F; at[2] = 0xB6; at[3] = 0x9B; /* movzbl s(%r11),%r11d */
   at = put32(at + 4, abs32(p->step));
   at[0] = 0x45; at[1] = 0x88; at[2] = 0x9A;               /* mov %r11b,c(%r10) */
   at = put32(at + 3, counters);
   /* shl $shift,%t; lea (%t,%rax,2),%rax; mov %rax,h.  The history
      only ever holds outcomes shifted by `shift` (it starts at 0), so
      its low `shift` bits are clear, and 2 * history and t << shift
      never overlap: the add is the rule's OR, one instruction fewer. */
   at[0] = rex_w(0, t); at[1] = 0xC1; at[2] = (UChar)(0xE0 | (t & 7));
   at[3] = (UChar)p->history_shift;
   at += 4;
   at[0] = (UChar)(0x48 | (t >= 8 ? 1 : 0)); at[1] = 0x8D; at[2] = 0x04;
   at[3] = (UChar)(0x40 | (t & 7));
   at += 4;
   at[0] = 0x48; at[1] = 0x89; at[2] = 0x04; at[3] = 0x25;
   at = put32(at + 4, history);
   /* shr $4,%r11d; add %r11, count */
   at[0] = 0x41; at[1] = 0xC1; at[2] = 0xEB; at[3] = (UChar)p->mispredicted_shift;
   at += 4;
   if (desc_off >= 0) {
      at = emit_desc_load(at, RAX, desc_off + 8);         /* the count's address */
      at[0] = 0x4C; at[1] = 0x01; at[2] = 0x18;           /* add %r11,(%rax) */
      return at + 3;
   }
   disp = (Long)((UChar*)op->word - (at + 7));
   if (fits_disp32(disp)) {
      at[0] = 0x4C; at[1] = 0x01; at[2] = 0x1D;           /* add %r11,d(%rip) */
      return put32(at + 3, (UInt)(Int)disp);
   }
   at = emit_movabs(at, RAX, op->word);
   at[0] = 0x4C; at[1] = 0x01; at[2] = 0x18;               /* add %r11,(%rax) */
   return at + 3;
}

/*------------------------------------------------------------*/
/*--- Miss paths                                           ---*/
/*------------------------------------------------------------*/

/* Saves the argument registers in `live` (a bit per arg_regs index) on
   a 16-byte aligned stack, as the helpers' ABI wants, whatever the
   caller's alignment was: %rbp (callee-saved, so kept) holds the old
   stack pointer. */
static UChar* emit_save(UChar* at, UInt live)
{
   Int i, n = 0;

   at = emit_push(at, RBP);
   at = emit_mov(at, RBP, RSP);
   at[0] = 0x48; at[1] = 0x83; at[2] = 0xE4; at[3] = 0xF0; /* and $-16,%rsp */
   at += 4;
   for (i = 0; i < MAX_CHECKER_ADDRS; i++)
      if (live & (1u << i)) {
         at = emit_push(at, arg_regs[i]);
         n++;
      }
   if (n % 2 == 1) {
      at[0] = 0x48; at[1] = 0x83; at[2] = 0xEC; at[3] = 8; /* sub $8,%rsp */
      at += 4;
   }
   return at;
}

static UChar* emit_restore(UChar* at, UInt live)
{
   Int i, n = 0;

   for (i = 0; i < MAX_CHECKER_ADDRS; i++)
      n += (live >> i) & 1;
   if (n % 2 == 1) {
      at[0] = 0x48; at[1] = 0x83; at[2] = 0xC4; at[3] = 8; /* add $8,%rsp */
      at += 4;
   }
   for (i = MAX_CHECKER_ADDRS - 1; i >= 0; i--)
      if (live & (1u << i))
         at = emit_pop(at, arg_regs[i]);
   at = emit_mov(at, RSP, RBP);
   return emit_pop(at, RBP);
}

/* cg_log_data(entry, addr, size), for accesses of a size without a
   data routine.  The address moves first, before the register it may
   be in is loaded with a constant. */
static UChar* emit_data_call(UChar* at, Int addr_reg, const ColdOp* op)
{
   if (addr_reg != RSI)
      at = emit_mov(at, RSI, addr_reg);
   at = emit_movabs(at, RDI, op->word);
   at = emit_movabs(at, RDX, op->size);
   return emit_call(at, TARGET_DATA_ANY);
}

/* movq $value, slot (both known when the checker is made). */
static UChar* emit_store_const(UChar* at, const UWord* slot, UWord value)
{
   if (fits_imm32(value)) {
      at[0] = 0x48; at[1] = 0xC7; at[2] = 0x04; at[3] = 0x25;
      return put32(put32(at + 4, abs32(slot)), (UInt)value);
   }
   at = emit_movabs(at, R10, value);
   at[0] = 0x4C; at[1] = 0x89; at[2] = 0x14; at[3] = 0x25;
   return put32(at + 4, abs32(slot));
}

/*------------------------------------------------------------*/
/*--- Each chunk's shared miss routines                    ---*/
/*------------------------------------------------------------*/

/* What a log helper does (cg_log.c: the MRU filter's update, then the
   append), as routines a miss path calls near, with no frame: they use
   only %rax, %r10 and %r11 (the argument registers may hold later
   checks' addresses; %r11 is pushed and popped around a straddle's
   second line), and call C only when the chunk is full.  One copy per chunk, reached with rel32 calls.

   append:    %r10, %r11 = the entry's two words.
   data<N>:   %r10 = the entry's first word, %r11 = the address of an
              N-byte access; its first and last lines become MRU in the
              D1 mirror, then append. */
#define N_DATA_ROUTINES 6
static const UWord data_routine_sizes[N_DATA_ROUTINES] = { 1, 2, 4, 8, 16, 32 };
static UChar* append_routine;
static UChar* data_routines[N_DATA_ROUTINES];
static UChar* any_size_data_routine;

/* The append of %r10, %r11 while the chunk has room, else a jump to
   `*full`; uses %rax. */
static UChar* emit_append(UChar* at, UChar** full)
{
   UInt cursor = abs32(cg_log_cursor_and_limit());

   at[0] = 0x48; at[1] = 0x8B; at[2] = 0x04; at[3] = 0x25;  /* mov cur,%rax */
   at = put32(at + 4, cursor);
   at[0] = 0x48; at[1] = 0x3B; at[2] = 0x04; at[3] = 0x25;  /* cmp lim,%rax */
   at = put32(at + 4, cursor + sizeof(UWord));
   *full = emit_jump(&at, CC_AE);
   /* Non-temporal stores (hand_over_current in cg_log.c fences them):
      the simulator thread read these lines a lap of the ring ago, so a
      plain store first has to take the line back from the other core.
      Where the two CPUs are far apart (a virtual machine whose CPUs the
      host places on different dies: a cache line's round trip between
      them measured 330 ns against 60 ns) those transfers stall the
      client; written around the caches, no line is fetched at all.
      Measured 2026-11-24 on an AMD EPYC (family 25 model 17, 2 CPUs,
      cross-core round trip ~60 ns at the time): python 3.52 -> 3.25 s,
      perl 2.58 -> 2.37 s, cc1 11.89 -> 11.76 s; a simulator that reads
      nothing gave python 3.35 s.  (On a faster AMD EPYC measured the
      same day they made no difference.)  Without a simulator thread
      the client reads the entries back itself, at once: plain stores
      (and a nop, so that both forms are 9 bytes). */
   if (cg_log_stores_around_caches()) {
      at[0] = 0x4C; at[1] = 0x0F; at[2] = 0xC3; at[3] = 0x10;  /* movnti %r10,(%rax) */
      at[4] = 0x4C; at[5] = 0x0F; at[6] = 0xC3; at[7] = 0x58;  /* movnti %r11,8(%rax) */
      at[8] = 8;
   } else {
      at[0] = 0x4C; at[1] = 0x89; at[2] = 0x10;               /* mov %r10,(%rax) */
      at[3] = 0x4C; at[4] = 0x89; at[5] = 0x58; at[6] = 8;    /* mov %r11,8(%rax) */
      at[7] = 0x66; at[8] = 0x90;                             /* xchg %ax,%ax */
   }
   at[9] = 0x48; at[10] = 0x83; at[11] = 0xC0; at[12] = 16; /* add $16,%rax */
   at[13] = 0x48; at[14] = 0x89; at[15] = 0x04; at[16] = 0x25;
   return put32(at + 17, cursor);                         /* mov %rax,cur */
}

static UChar* emit_append_routine(UChar* at)
{
   UChar* full;

   at = emit_append(at, &full);
   *at++ = 0xC3;
   /* Full: cg_log_append_words(%r10, %r11), every argument register
      kept. */
   patch_jump(full, at);
   at = emit_save(at, (1u << MAX_CHECKER_ADDRS) - 1);
   at = emit_mov(at, RDI, R10);
   at = emit_mov(at, RSI, R11);
   at = emit_call(at, TARGET_APPEND);
   at = emit_restore(at, (1u << MAX_CHECKER_ADDRS) - 1);
   *at++ = 0xC3;
   return at;
}

/* The line of %r11 becomes its set's MRU line in the D1 mirror:
   mirror[%r11 & slot_mask] = %r11 & line_mask, the mask applied in
   memory so that only %rax is needed. */
static UChar* emit_touch_d1_line(UChar* at, const CacheLevel* d1)
{
   UWord slot_mask = d1->set_mask << d1->line_bits;
   Long line_mask = -((Long)1 << d1->line_bits);
   UInt mru = abs32(d1->mru);

   tl_assert(line_mask >= -0x80000000L);
   at = emit_mov(at, RAX, R11);
   *at++ = 0x25;                                          /* and $s,%eax */
   at = put32(at, (UInt)slot_mask);
   at[0] = 0x4C; at[1] = 0x89; at[2] = 0x98;              /* mov %r11,m(%rax) */
   at = put32(at + 3, mru);
   if (line_mask >= -0x80) {                              /* andq $l,m(%rax) */
      at[0] = 0x48; at[1] = 0x83; at[2] = 0xA0;
      at = put32(at + 3, mru);
      *at++ = (UChar)line_mask;
      return at;
   }
   at[0] = 0x48; at[1] = 0x81; at[2] = 0xA0;
   at = put32(at + 3, mru);
   return put32(at, (UInt)line_mask);
}

/* Jumps (the field returned) if the last byte's address, in %rax, is
   on another line than %r11's. */
static UChar* emit_last_byte_test(UChar* at, const CacheLevel* d1,
                                  UChar** straddles)
{
   Long line_mask = -((Long)1 << d1->line_bits);

   at[0] = 0x4C; at[1] = 0x31; at[2] = 0xD8;             /* xor %r11,%rax */
   at[3] = 0x48; at[4] = 0xA9;                           /* test $l,%rax */
   at = put32(at + 5, (UInt)line_mask);
   *straddles = emit_jump(&at, CC_NE);
   return at;
}

/* Jumps (the field returned) if an access of `size` bytes at %r11
   ends on the next line; uses %rax. */
static UChar* emit_straddle_test(UChar* at, const CacheLevel* d1, UWord size,
                                 UChar** straddles)
{
   at[0] = 0x49; at[1] = 0x8D; at[2] = 0x83;             /* lea d(%r11),%rax */
   at = put32(at + 3, (UInt)(size - 1));
   return emit_last_byte_test(at, d1, straddles);
}

/* The line of %r11 is touched; if the access's last byte is on the
   next line (rare: a predictable branch, cheaper than touching the
   last line's slot every time), that line too; then append. */
static UChar* emit_data_routine(UChar* at, const CacheLevel* d1, UWord size)
{
   UChar* straddles;

   at = emit_touch_d1_line(at, d1);
   if (size > 1) {
      at = emit_straddle_test(at, d1, size, &straddles);
      patch_jump(emit_jump(&at, CC_ALWAYS), append_routine);
      /* the last line, through %r11 meanwhile moved there */
      patch_jump(straddles, at);
      at = emit_push(at, R11);
      at[0] = 0x49; at[1] = 0x83; at[2] = 0xC3; at[3] = (UChar)(size - 1);
      at += 4;                                           /* add $d,%r11 */
      at = emit_touch_d1_line(at, d1);
      at = emit_pop(at, R11);
   }
   /* then append: the same code as the append routine, jumped to */
   patch_jump(emit_jump(&at, CC_ALWAYS), append_routine);
   return at;
}

/* %rax = size - 1 of the access whose entry's first word is in %r10
   (its DESC_SIZE_M1_BYTE). */
static UChar* emit_size_m1_from_entry(UChar* at)
{
   at = emit_mov(at, RAX, R10);
   at[0] = 0x48; at[1] = 0xC1; at[2] = 0xE8;              /* shr $n,%rax */
   at[3] = (UChar)(8 * DESC_SIZE_M1_BYTE);
   at[4] = 0x0F; at[5] = 0xB6; at[6] = 0xC0;              /* movzbl %al,%eax */
   return at + 7;
}

/* Jumps (the field returned) if the access at %r11, whose size - 1 is
   in %rax, ends on the next line; uses %rax. */
static UChar* emit_straddle_test_rax(UChar* at, const CacheLevel* d1,
                                     UChar** straddles)
{
   at[0] = 0x4C; at[1] = 0x01; at[2] = 0xD8;             /* add %r11,%rax */
   return emit_last_byte_test(at + 3, d1, straddles);
}

/* The data routine for an entry whose size is in its first word (a
   shared checker's, DESC_SIZE_M1_BYTE): as emit_data_routine. */
static UChar* emit_any_size_data_routine(UChar* at, const CacheLevel* d1)
{
   UChar* straddles;

   at = emit_touch_d1_line(at, d1);
   at = emit_size_m1_from_entry(at);
   at = emit_straddle_test_rax(at, d1, &straddles);
   patch_jump(emit_jump(&at, CC_ALWAYS), append_routine);
   patch_jump(straddles, at);
   at = emit_push(at, R11);
   at = emit_size_m1_from_entry(at);
   at[0] = 0x49; at[1] = 0x01; at[2] = 0xC3;             /* add %rax,%r11 */
   at += 3;
   at = emit_touch_d1_line(at, d1);
   at = emit_pop(at, R11);
   patch_jump(emit_jump(&at, CC_ALWAYS), append_routine);
   return at;
}

static void emit_miss_routines(const CacheLevel* d1)
{
   UChar* at = chunk + chunk_used;
   Int i;

   append_routine = at;
   at = emit_append_routine(at);
   for (i = 0; i < N_DATA_ROUTINES; i++) {
      data_routines[i] = at;
      at = emit_data_routine(at, d1, data_routine_sizes[i]);
   }
   any_size_data_routine = at;
   at = emit_any_size_data_routine(at, d1);
   chunk_used = (at - chunk + 15) & ~(SizeT)15;
}

static UChar* data_routine_for(UWord size)
{
   Int i;
   for (i = 0; i < N_DATA_ROUTINES; i++)
      if (data_routine_sizes[i] == size)
         return data_routines[i];
   return NULL;
}

/* Whether a shared checker's data access of `size` bytes reads its
   test's constants from the descriptor (DESC_LIMIT_BYTE), sharing
   shapes with the other sizes that do. */
static Bool sizes_share_code(const CacheLevel* d1, UWord size)
{
   UWord line = (UWord)1 << d1->line_bits;

   return data_routine_for(size) != NULL && size <= line
          && line - size <= 0xFF;   /* the limit's byte */
}

/* call rel32 */
static UChar* emit_near_call(UChar* at, const UChar* target)
{
   UChar* field;

   *at++ = 0xE8;
   field = at;
   at += 4;
   patch_jump(field, target);
   return at;
}

/* A fetch's log helper work up to the append: its first and last I1
   lines made MRU (constants both), the entry's words in %r10, %r11. */
/* A fetch's I1 blocks and log entry, for both kinds of checker. */
typedef struct {
   UWord first, last;   /* I1 block numbers */
   UWord word0, word1;  /* the log entry */
} FetchEntry;

static FetchEntry fetch_entry(const CacheLevel* i1, const InstrInfo* site)
{
   FetchEntry e;

   e.first = site->addr >> i1->line_bits;
   e.last  = (site->addr + site->len - 1) >> i1->line_bits;
   e.word0 = (UWord)site->cc | LOG_CODE_FETCH;
   e.word1 = site->addr | ((UWord)site->len << LOG_SIZE_SHIFT);
   return e;
}

static UChar* emit_fetch_entry(UChar* at, const CacheLevel* i1,
                               const InstrInfo* site)
{
   FetchEntry e = fetch_entry(i1, site);

   at = emit_store_const(at, cg_cache_mru_slot(i1, e.first),
                         cg_cache_mru_value(i1, e.first));
   if (e.last != e.first)
      at = emit_store_const(at, cg_cache_mru_slot(i1, e.last),
                            cg_cache_mru_value(i1, e.last));
   at = emit_movabs(at, R10, e.word0);
   return emit_movabs(at, R11, e.word1);
}

/* A miss path: the routine's call, or for other sizes than the
   routines', the log helper's call with the argument registers that
   later checks need saved around it. */
static UChar* emit_miss_path(UChar* at, const CacheLevel* i1,
                             const ColdOp* op, UInt live_after)
{
   if (op->kind == COLD_DATA) {
      Int addr_reg = arg_regs[op->arg];
      UChar* routine = data_routine_for(op->size);
      if (routine != NULL) {
         at = emit_movabs(at, R10, op->word);
         at = emit_mov(at, R11, addr_reg);
         return emit_near_call(at, routine);
      }
      at = emit_save(at, live_after);
      at = emit_data_call(at, addr_reg, op);
      return emit_restore(at, live_after);
   } else {
      const InstrInfo* site = (const InstrInfo*)op->word;

      at = emit_fetch_entry(at, i1, site);
      return emit_near_call(at, append_routine);
   }
}

/* The end of an inline miss path, from the entry's words in %r10 and
   %r11 (for a data access, its first word and address): the routines'
   work (for data, the D1 mirror's update), the append, and the jump
   back; the routine is called only for a straddle or a full chunk. */
static UChar* emit_inline_miss_tail(UChar* at, const CacheLevel* d1,
                                    const ColdOp* op, const UChar* back)
{
   UChar *slow, *straddles = NULL;
   Bool data = op->kind == COLD_DATA;

   if (data) {
      at = emit_touch_d1_line(at, d1);
      if (op->size > 1)
         at = emit_straddle_test(at, d1, op->size, &straddles);
   }
   at = emit_append(at, &slow);
   patch_jump(emit_jump(&at, CC_ALWAYS), back);
   patch_jump(slow, at);
   if (straddles != NULL)
      patch_jump(straddles, at);
   at = emit_near_call(at, data ? data_routine_for(op->size) : append_routine);
   patch_jump(emit_jump(&at, CC_ALWAYS), back);
   return at;
}

/* A miss path with the routines' work inline (the first
   --inline-miss-paths bytes of checkers). */
static UChar* emit_inline_miss_path(UChar* at, const CacheLevel* i1,
                                    const CacheLevel* d1, const ColdOp* op,
                                    const UChar* back)
{
   if (op->kind == COLD_DATA) {
      at = emit_movabs(at, R10, op->word);
      at = emit_mov(at, R11, arg_regs[op->arg]);
   } else {
      at = emit_fetch_entry(at, i1, (const InstrInfo*)op->word);
   }
   return emit_inline_miss_tail(at, d1, op, back);
}

/*------------------------------------------------------------*/
/*--- Descriptors                                          ---*/
/*------------------------------------------------------------*/

/* A descriptor checker is shared by every group of the same shape (the
   ops' kinds, sizes and argument registers): what differs between the
   groups -- the counter itself, the fetches' blocks, the log entries'
   words, the branches' address parts -- is read from a descriptor,
   passed in %rdi (the data addresses follow in %rsi on).
   Why: in a large program (cc1) each group's own checker is code that
   is cold in the host's caches, and a cold line of code costs about
   four times what a cold line of data does (one more of each per group
   run: cc1 +0.57 s against +0.14 s).

   The descriptor, in words:
     the group's counter          if the group is counted
     per fetch:   DescFetch (3 words)
     per data:    the log entry's first word (for most sizes with
                  the test's constants in its top bytes, so that
                  accesses of different sizes share a checker:
                  DESC_LIMIT_BYTE)
     per branch:  the address part, the mispredictions' count address

   A fetch's record holds the block its hit path tests, not that
   block's mirror slot as well: the I1 mirror is indexed by block, so
   the slot is the block's set bits scaled by 8, two ALU operations
   away.  Halving the record matters because the descriptors are
   read on every run and crowd the host's L2 (cc1: 15 MB of them
   before, 9 MB now): doubling it cost python and cc1 about 3 %.
   (COLD_FETCH_ALWAYS needs an I1 of one set, which turns the access
   log and so the checkers off: its paths here are only defensive.) */
typedef struct {
   UWord block;          /* tested: the first line's (the last's for
                            COLD_FETCH_LAST_ONLY); for a straddle the
                            last is block + 1 */
   UWord word0, word1;   /* the log entry */
} DescFetch;

static Bool is_fetch(const ColdOp* op)
{
   return op->kind != COLD_DATA && op->kind != COLD_COND_BRANCH;
}

/* Each op's offset in the descriptor; returns the descriptor's size. */
static UInt desc_layout(const ColdOp* ops, UInt n_ops, Bool counted,
                        Int* offset)
{
   UInt i, at = counted ? sizeof(UWord) : 0;

   for (i = 0; i < n_ops; i++) {
      offset[i] = (Int)at;
      if (is_fetch(&ops[i]))
         at += sizeof(DescFetch);
      else if (ops[i].kind == COLD_DATA)
         at += sizeof(UWord);
      else
         at += 2 * sizeof(UWord);
   }
   return at;
}

/* Descriptors: data, in chunks of their own, never freed (like the
   checkers themselves). */
#define DESC_CHUNK_BYTES (1 << 20)
static UChar* desc_chunk;
static SizeT  desc_chunk_used = DESC_CHUNK_BYTES;
static ULong  desc_bytes;

static void* new_desc(UInt bytes)
{
   void* d;

   if (desc_chunk_used + bytes > DESC_CHUNK_BYTES) {
      desc_chunk = alloc_chunk(DESC_CHUNK_BYTES,
                               "cachegrind: checker descriptors");
      desc_chunk_used = 0;
   }
   d = desc_chunk + desc_chunk_used;
   desc_chunk_used += (bytes + 7) & ~7u;
   return d;
}

static void fill_desc(UChar* desc, const ColdOp* ops, UInt n_ops,
                      ULong* counter, const CacheLevel* i1,
                      const CacheLevel* d1, const Int* offset)
{
   UInt i;

   if (counter != NULL)
      *(ULong*)desc = 0;   /* the group's counter from now on */
   for (i = 0; i < n_ops; i++) {
      UWord* w = (UWord*)(desc + offset[i]);
      if (is_fetch(&ops[i])) {
         FetchEntry e = fetch_entry(i1, (const InstrInfo*)ops[i].word);
         DescFetch* f = (DescFetch*)w;
         tl_assert(e.last == e.first || e.last == e.first + 1);
         f->block = ops[i].kind == COLD_FETCH_LAST_ONLY ? e.last : e.first;
         f->word0 = e.word0;
         f->word1 = e.word1;
      } else if (ops[i].kind == COLD_DATA) {
         w[0] = ops[i].word;
         if (sizes_share_code(d1, ops[i].size)) {
            UWord line = (UWord)1 << d1->line_bits;
            tl_assert((w[0] & ~LOG_CC_MASK & ~(UWord)LOG_CODE_MASK) == 0);
            w[0] |= (UWord)(ops[i].size - 1) << (8 * DESC_SIZE_M1_BYTE)
                    | (UWord)(line - ops[i].size) << (8 * DESC_LIMIT_BYTE);
         }
      } else {
         w[0] = ops[i].size;
         w[1] = ops[i].word;
      }
   }
}

/* %r10 = the I1 mirror slot's index of the block in %rax (its set). */
static UChar* emit_i1_set_index(UChar* at, const CacheLevel* i1)
{
   tl_assert(i1->mru_stride_bits == 3 && i1->mru_value_shift == 0
             && i1->set_mask < 0x80000000UL);
   at[0] = 0x41; at[1] = 0x89; at[2] = 0xC2;              /* mov %eax,%r10d */
   at[3] = 0x41; at[4] = 0x81; at[5] = 0xE2;              /* and $m,%r10d */
   return put32(at + 6, (UInt)i1->set_mask);
}

/* cmp or mov (`opcode`) between %rax and the I1 mirror slot at index
   %r10. */
static UChar* emit_i1_slot_op(UChar* at, const CacheLevel* i1, UChar opcode)
{
   at[0] = 0x4A; at[1] = opcode; at[2] = 0x04; at[3] = 0xD5; /* %rax,m(,%r10,8) */
   return put32(at + 4, abs32(i1->mru));
}

/* %rax = the next block (a straddle's last line). */
static UChar* emit_next_block(UChar* at)
{
   at[0] = 0x48; at[1] = 0x83; at[2] = 0xC0; at[3] = 1;   /* add $1,%rax */
   return at + 4;
}

/* Miss (jne) unless the block in %rax is its set's MRU block. */
static UChar* emit_desc_block_test(UChar* at, const CacheLevel* i1,
                                   UChar** miss)
{
   at = emit_i1_set_index(at, i1);
   at = emit_i1_slot_op(at, i1, 0x39);
   *miss = emit_jump(&at, CC_NE);
   return at;
}

static UChar* emit_desc_fetch_test(UChar* at, const CacheLevel* i1,
                                   const ColdOp* op, Int off,
                                   UChar** miss, UChar** second_miss)
{
   if (op->kind == COLD_FETCH_ALWAYS) {
      *miss = emit_jump(&at, CC_ALWAYS);
      return at;
   }
   at = emit_desc_load(at, RAX, off);
   if (op->kind != COLD_FETCH_BOTH)
      return emit_desc_block_test(at, i1, miss);
   at = emit_desc_block_test(at, i1, second_miss);
   at = emit_next_block(at);
   return emit_desc_block_test(at, i1, miss);
}

/* A descriptor checker's fetch miss, up to the append: the lines it
   tested become MRU in the I1 mirror (a COLD_FETCH_LAST_ONLY's first
   line already is), then the entry's words into %r10 and %r11. */
static UChar* emit_desc_fetch_words(UChar* at, const CacheLevel* i1,
                                    const ColdOp* op, Int off)
{
   at = emit_desc_load(at, RAX, off);
   at = emit_i1_set_index(at, i1);
   at = emit_i1_slot_op(at, i1, 0x89);
   if (op->kind == COLD_FETCH_BOTH || op->kind == COLD_FETCH_ALWAYS) {
      at = emit_next_block(at);
      at = emit_i1_set_index(at, i1);
      at = emit_i1_slot_op(at, i1, 0x89);
   }
   at = emit_desc_load(at, R10, off + (Int)offsetof(DescFetch, word0));
   return emit_desc_load(at, R11, off + (Int)offsetof(DescFetch, word1));
}

/* A miss path of a shared checker, ending in the jump back: the
   routines' work inline (shapes are few, so this is little code); for
   data accesses of other sizes, the log helper, with the live argument
   registers and the descriptor saved around it. */
static UChar* emit_desc_miss_path(UChar* at, const CacheLevel* i1,
                                  const CacheLevel* d1,
                                  const ColdOp* op, Int off, UInt live_after,
                                  const UChar* back)
{
   Int addr_reg = arg_regs[op->arg];

   if (op->kind != COLD_DATA) {
      at = emit_desc_fetch_words(at, i1, op, off);
      return emit_inline_miss_tail(at, d1, op, back);
   }
   /* The size from the descriptor's size byte, the straddle and a full
      chunk by the any-size routine; the sized routines below remain
      for lines whose limit does not fit the byte (sizes_share_code). */
   if (sizes_share_code(d1, op->size)) {
      UChar *slow, *straddles;
      at = emit_desc_load(at, R10, off);
      at = emit_mov(at, R11, addr_reg);
      at = emit_touch_d1_line(at, d1);
      at[0] = 0x0F; at[1] = 0xB6; at[2] = 0x87;           /* movzbl d(%rdi),%eax */
      at = put32(at + 3, (UInt)(off + DESC_SIZE_M1_BYTE));
      at = emit_straddle_test_rax(at, d1, &straddles);
      at = emit_append(at, &slow);
      patch_jump(emit_jump(&at, CC_ALWAYS), back);
      patch_jump(slow, at);
      patch_jump(straddles, at);
      at = emit_near_call(at, any_size_data_routine);
      patch_jump(emit_jump(&at, CC_ALWAYS), back);
      return at;
   }
   if (data_routine_for(op->size) != NULL) {
      at = emit_desc_load(at, R10, off);
      at = emit_mov(at, R11, addr_reg);
      return emit_inline_miss_tail(at, d1, op, back);
   }
   at = emit_save(at, live_after);   /* cg_log_data(entry, addr, size); %rdi is live */
   if (addr_reg != RSI)
      at = emit_mov(at, RSI, addr_reg);
   at = emit_desc_load(at, RDI, off);
   at = emit_movabs(at, RDX, op->size);
   at = emit_call(at, TARGET_DATA_ANY);
   at = emit_restore(at, live_after);
   patch_jump(emit_jump(&at, CC_ALWAYS), back);
   return at;
}

/*------------------------------------------------------------*/
/*--- Checkers                                             ---*/
/*------------------------------------------------------------*/

/* A checker: a group's own (`offset` NULL: its constants in the code,
   the run counted in *counter unless NULL) or one for a shape (the
   descriptor's offset of each op; the run counted if `counted`).  Miss
   paths follow the hit path's `ret`: near the checks that jump to them
   (keeping them apart, for denser hit paths, measured no faster). */
static UChar* emit_checker(const ColdOp* ops, UInt n_ops, ULong* counter,
                           Bool counted, const Int* offset,
                           const CacheLevel* i1, const CacheLevel* d1)
{
   UChar *entry, *at, *misses;
   UChar* miss[MAX_CHECKER_OPS];
   UChar* second_miss[MAX_CHECKER_OPS];
   UChar* back[MAX_CHECKER_OPS];
   UInt live_after[MAX_CHECKER_OPS];
   UInt i, live = 0;

   if (chunk == NULL
       || chunk_used + MAX_HIT_BYTES + MAX_MISS_BYTES > CHUNK_BYTES) {
      new_chunk();
      emit_miss_routines(d1);
   }

   /* The argument registers that later ops still need (and, for a
      shared checker, the descriptor's). */
   for (i = n_ops; i-- > 0; ) {
      live_after[i] = live | (offset != NULL ? 1u : 0);
      if (!is_fetch(&ops[i]))
         live |= 1u << ops[i].arg;
   }

   entry = at = chunk + chunk_used;
   if (offset != NULL && counted) {
      at[0] = 0x48; at[1] = 0x83; at[2] = 0x07; at[3] = 0x01; /* addq $1,(%rdi) */
      at += 4;
   } else if (offset == NULL && counter != NULL) {
      at = emit_count(at, counter);
   }
   for (i = 0; i < n_ops; i++) {
      miss[i] = second_miss[i] = NULL;
      tl_assert(offset == NULL || is_fetch(&ops[i]) || ops[i].arg > 0);
      if (ops[i].kind == COLD_DATA)
         at = emit_data_test(at, d1, arg_regs[ops[i].arg], ops[i].size,
                             offset != NULL
                             && sizes_share_code(d1, ops[i].size)
                             ? offset[i] : -1, &miss[i]);
      else if (ops[i].kind == COLD_COND_BRANCH)
         at = emit_cond_branch(at, cg_branch_cond_predictor(),
                               arg_regs[ops[i].arg], &ops[i],
                               offset != NULL ? offset[i] : -1);
      else if (offset != NULL)
         at = emit_desc_fetch_test(at, i1, &ops[i], offset[i], &miss[i],
                                   &second_miss[i]);
      else
         at = emit_fetch_test(at, i1, &ops[i], &miss[i], &second_miss[i]);
      back[i] = at;
   }
   *at++ = 0xC3;                                  /* ret */
   tl_assert(at - entry <= MAX_HIT_BYTES);
   hit_bytes += at - entry;

   misses = at;
   for (i = 0; i < n_ops; i++) {
      if (miss[i] == NULL)   /* no miss path: a branch */
         continue;
      patch_jump(miss[i], at);
      if (second_miss[i] != NULL)
         patch_jump(second_miss[i], at);
      if (offset != NULL) {
         at = emit_desc_miss_path(at, i1, d1, &ops[i], offset[i],
                                  live_after[i], back[i]);
      } else if (hit_bytes + miss_bytes < (ULong)cg_clo.inline_miss_paths
                 && (ops[i].kind != COLD_DATA
                     || data_routine_for(ops[i].size) != NULL)) {
         at = emit_inline_miss_path(at, i1, d1, &ops[i], back[i]);
      } else {
         at = emit_miss_path(at, i1, &ops[i], live_after[i]);
         patch_jump(emit_jump(&at, CC_ALWAYS), back[i]);
      }
   }
   tl_assert(at - misses <= MAX_MISS_BYTES);
   miss_bytes += at - misses;
   chunk_used = (at - chunk + 15) & ~(SizeT)15;
   n_checkers++;
   return entry;
}

/* Shapes already made: an open-addressing table keyed by the ops'
   kinds, sizes and arguments. */
typedef struct {
   UInt   hash;
   UInt   n_ops;
   Bool   counted;
   ColdOp* ops;      /* a copy; only kinds, args and sizes matter */
   UChar* code;
} Shape;

static Shape* shapes;
static UInt   n_shapes, shapes_size;

/* The kind a shape is keyed by.  A shared checker tests and updates
   one block for COLD_FETCH and COLD_FETCH_LAST_ONLY alike (which block
   is the descriptor's business, fill_desc), so the two share checkers.
   Why it matters: every shape is one more call target and more code
   among the host's branch targets, TLB entries and cache lines; this
   folding cut cc1's shapes from 8,639 to 6,883 and its time 3.5 %. */
static UInt shape_kind(const ColdOp* op)
{
   return op->kind == COLD_FETCH_LAST_ONLY ? COLD_FETCH : op->kind;
}

/* The size a shape is keyed by: a conditional branch's and a data
   access's that shares code (sizes_share_code) are in the descriptor. */
static UWord shape_size(const ColdOp* op, const CacheLevel* d1)
{
   if (op->kind == COLD_COND_BRANCH
       || (op->kind == COLD_DATA && sizes_share_code(d1, op->size)))
      return 0;
   return op->size;
}

static UInt shape_hash(const ColdOp* ops, UInt n_ops, Bool counted,
                       const CacheLevel* d1)
{
   UInt h = 2166136261u ^ n_ops ^ (counted ? 0x80000000u : 0);
   UInt i;

   for (i = 0; i < n_ops; i++) {
      h = (h ^ shape_kind(&ops[i])) * 16777619u;
      h = (h ^ ops[i].arg) * 16777619u;
      h = (h ^ (UInt)shape_size(&ops[i], d1)) * 16777619u;
   }
   return h;
}

static Bool same_shape(const Shape* s, const ColdOp* ops, UInt n_ops,
                       Bool counted, const CacheLevel* d1)
{
   UInt i;

   if (s->n_ops != n_ops || s->counted != counted)
      return False;
   for (i = 0; i < n_ops; i++)
      if (shape_kind(&s->ops[i]) != shape_kind(&ops[i])
          || s->ops[i].arg != ops[i].arg
          || shape_size(&s->ops[i], d1) != shape_size(&ops[i], d1))
         return False;
   return True;
}

/* A fixed table, at most half full: once it holds max_shapes shapes,
   groups of a new shape get checkers of their own.  Sized for
   max_shapes when first needed (none at all for --checker-shapes=0). */
#define MAX_SHAPES  (1u << 15)
static UInt max_shapes = MAX_SHAPES;

static Shape* shape_slot(const ColdOp* ops, UInt n_ops, Bool counted,
                         UInt hash, const CacheLevel* d1)
{
   UInt i;

   if (max_shapes == 0)
      return NULL;
   if (shapes == NULL) {
      for (shapes_size = 2; shapes_size < 2 * max_shapes; shapes_size *= 2)
         ;
      shapes = alloc_chunk(shapes_size * sizeof(Shape), "cachegrind: shapes");
   }
   for (i = hash & (shapes_size - 1); ; i = (i + 1) & (shapes_size - 1)) {
      Shape* s = &shapes[i];
      if (s->code != NULL
          && s->hash == hash && same_shape(s, ops, n_ops, counted, d1))
         return s;
      if (s->code == NULL)
         return n_shapes < max_shapes ? s : NULL;
   }
}

static UChar* shared_checker_for(const ColdOp* ops, UInt n_ops, Bool counted,
                                 const CacheLevel* i1, const CacheLevel* d1,
                                 const Int* offset)
{
   UInt hash = shape_hash(ops, n_ops, counted, d1);
   Shape* s = shape_slot(ops, n_ops, counted, hash, d1);

   if (s == NULL)
      return NULL;
   if (s->code == NULL) {
      s->hash = hash;
      s->n_ops = n_ops;
      s->counted = counted;
      s->ops = new_desc(n_ops * sizeof(ColdOp));
      VG_(memcpy)(s->ops, ops, n_ops * sizeof(ColdOp));
      s->code = emit_checker(ops, n_ops, NULL, counted, offset, i1, d1);
      n_shapes++;
   }
   return s->code;
}

static Bool use_descriptors = False;

Bool cg_checkers_use_descriptors(void)
{
   return use_descriptors;
}

void cg_checkers_init(Bool descriptors, UInt shapes_wanted,
                      Bool wide_constants)
{
   use_wide_constants = wide_constants;
   use_descriptors = descriptors;
   max_shapes = shapes_wanted < MAX_SHAPES ? shapes_wanted : MAX_SHAPES;
}

void* cg_checker_for(const ColdOp* ops, UInt n_ops, ULong* counter,
                     const CacheLevel* i1, const CacheLevel* d1,
                     void** desc_out)
{
   Int offset[MAX_CHECKER_OPS];
   UInt bytes;
   UChar* desc;

   UChar* code;

   tl_assert(n_ops > 0 && n_ops <= MAX_CHECKER_OPS);
   if (desc_out == NULL)
      return emit_checker(ops, n_ops, counter, False, NULL, i1, d1);
   *desc_out = NULL;
   bytes = desc_layout(ops, n_ops, counter != NULL, offset);
   code = shared_checker_for(ops, n_ops, counter != NULL, i1, d1, offset);
   /* The table is full: a checker of the group's own, which finds the
      addresses where the shared one would and ignores the descriptor
      argument. */
   if (code == NULL)
      return emit_checker(ops, n_ops, counter, False, NULL, i1, d1);
   desc = new_desc(bytes);
   desc_bytes += bytes;
   fill_desc(desc, ops, n_ops, counter, i1, d1, offset);
   *desc_out = desc;
   return code;
}

Bool cg_checkers_available(void)
{
   return True;
}

void cg_checkers_print_stats(void)
{
   VG_(dmsg)("group checkers: %llu, %llu bytes of hit paths, %llu of miss "
             "paths\n", n_checkers, hit_bytes, miss_bytes);
   if (use_descriptors)
      VG_(dmsg)("checker descriptors: %u shapes shared, %llu bytes\n",
                n_shapes, desc_bytes);
}

#else  /* !VGA_amd64: hot groups test inline. */

Bool  cg_checkers_available(void)  { return False; }
void  cg_checkers_print_stats(void) { }
void* cg_checker_for(const ColdOp* ops, UInt n_ops, ULong* counter,
                     const CacheLevel* i1, const CacheLevel* d1,
                     void** desc_out)
{
   tl_assert(0);
   return NULL;
}
Bool cg_checkers_use_descriptors(void) { return False; }
void cg_checkers_init(Bool descriptors, UInt shapes_wanted,
                      Bool wide_constants) { }

#endif
