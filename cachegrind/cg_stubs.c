/* cg_stubs.c -- call stubs: tiny entry points that load a helper's
   constant arguments, so that compiled code passes only what varies.

   Owns: the stubs' memory, their machine code, and the tables that
   share one stub between all call sites with the same constants.
   Must not: decide what is called when (cg_deliver.c does) or log
   anything itself (the helpers in cg_log.c do).

   Why: VEX sets up a guarded call's arguments before it tests the
   guard, so every argument costs instructions at every check, taken
   or not.  A data check's hit path was nine host instructions, three
   of them the call's two arguments (a 10-byte constant and two moves);
   a fetch check's was six, two of them its constant argument.  Through
   a stub, the data call passes the address alone and the fetch call
   nothing: the stub puts the constants in the argument registers and
   jumps to the helper, whose return goes straight back to compiled
   code.  That costs one jump on the rarer path, the call.

   Stubs are amd64 code in Valgrind's own anonymous memory, which is
   executable (it is where the core keeps its translations too).  They
   live until exit and are shared: a data stub per log entry word (cost
   centre and access code), a fetch stub per pair of log words (cost
   centre; address and length), so their number is bounded by the
   program's distinct instructions, not by how often code is
   retranslated. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "cg_tool.h"

#if defined(VGA_amd64)

#define CHUNK_BYTES   (1 << 20)
#define DATA_STUB     16      /* movabs $entry,%rsi; jmp *slot(%rip) */
#define FETCH_STUB    32      /* movabs ..,%rdi; movabs ..,%rsi; jmp * */

/* The helpers stubs jump to.  Each chunk starts with a copy of this
   table, so that a stub reaches its helper's address with a 32-bit
   RIP-relative displacement wherever the chunk is. */
typedef enum {
   TARGET_FETCH, TARGET_DATA1, TARGET_DATA2, TARGET_DATA4, TARGET_DATA8,
   TARGET_DATA16, TARGET_DATA32, N_TARGETS
} Target;

static UChar* chunk;          /* current chunk */
static SizeT  chunk_used;

/* Open-addressed tables of stubs, keyed by the constants inside them. */
typedef struct {
   UChar** slots;
   UWord   n_slots;           /* a power of two */
   UWord   n_used;
} StubTable;

static StubTable data_stubs, fetch_stubs;

static void* target_address(Target t)
{
   switch (t) {
   case TARGET_FETCH:  return (void*)cg_log_fetch_entry;
   case TARGET_DATA1:  return (void*)cg_log_stub_data1;
   case TARGET_DATA2:  return (void*)cg_log_stub_data2;
   case TARGET_DATA4:  return (void*)cg_log_stub_data4;
   case TARGET_DATA8:  return (void*)cg_log_stub_data8;
   case TARGET_DATA16: return (void*)cg_log_stub_data16;
   case TARGET_DATA32: return (void*)cg_log_stub_data32;
   default:            tl_assert(0);
   }
   return NULL; /* not reached */
}

static void new_chunk(void)
{
   Int t;

   chunk = VG_(am_shadow_alloc)(CHUNK_BYTES);
   if (chunk == NULL)
      VG_(out_of_memory_NORETURN)("cachegrind: call stubs", CHUNK_BYTES);
   for (t = 0; t < N_TARGETS; t++)
      ((void**)chunk)[t] = target_address((Target)t);
   chunk_used = 64;           /* the table, rounded up to a cache line */
}

static UChar* alloc_stub(SizeT size)
{
   UChar* stub;

   if (chunk == NULL || chunk_used + size > CHUNK_BYTES)
      new_chunk();
   stub = chunk + chunk_used;
   chunk_used += size;
   return stub;
}

static void put_word(UChar* at, UWord w)
{
   Int i;
   for (i = 0; i < 8; i++)
      at[i] = (UChar)(w >> (8 * i));
}

static UWord get_word(const UChar* at)
{
   UWord w = 0;
   Int i;
   for (i = 0; i < 8; i++)
      w |= (UWord)at[i] << (8 * i);
   return w;
}

/* movabs $value, %rdi (reg 7) or %rsi (reg 6): REX.W B8+r imm64. */
static UChar* emit_movabs(UChar* at, Int reg, UWord value)
{
   at[0] = 0x48;
   at[1] = (UChar)(0xB8 + reg);
   put_word(at + 2, value);
   return at + 10;
}

/* jmp *disp32(%rip), through the chunk's table entry for `t`. */
static UChar* emit_jump(UChar* at, Target t)
{
   UChar* slot = chunk + t * sizeof(void*);
   Long disp = (Long)(slot - (at + 6));
   UInt disp32 = (UInt)(Int)disp;
   Int i;

   tl_assert(disp == (Long)(Int)disp);
   at[0] = 0xFF;
   at[1] = 0x25;
   for (i = 0; i < 4; i++)
      at[2 + i] = (UChar)(disp32 >> (8 * i));
   return at + 6;
}

/* Pads with int3: nothing ever runs there. */
static void pad(UChar* from, UChar* to)
{
   while (from < to)
      *from++ = 0xCC;
}

/*------------------------------------------------------------*/
/*--- Sharing                                              ---*/
/*------------------------------------------------------------*/

static UWord hash_words(UWord a, UWord b)
{
   UWord h = a * 0x9E3779B97F4A7C15ULL ^ (b + (b >> 29));
   return h ^ (h >> 32);
}

/* The constants a stub loads: first and second movabs immediates. */
static UWord stub_first(const UChar* stub)  { return get_word(stub + 2); }
static UWord stub_second(const UChar* stub) { return get_word(stub + 12); }

static void table_insert(StubTable* t, UChar* stub, UWord hash);

static void table_grow(StubTable* t, Bool is_fetch)
{
   UChar** old = t->slots;
   UWord old_n = t->n_slots, i;

   t->n_slots = old_n == 0 ? 4096 : 2 * old_n;
   t->slots = VG_(calloc)("cg.stubs.table", t->n_slots, sizeof(UChar*));
   t->n_used = 0;
   for (i = 0; i < old_n; i++) {
      UChar* s = old[i];
      if (s == NULL)
         continue;
      table_insert(t, s, is_fetch ? hash_words(stub_first(s), stub_second(s))
                                  : hash_words(stub_first(s), 0));
   }
   if (old != NULL)
      VG_(free)(old);
}

static void table_insert(StubTable* t, UChar* stub, UWord hash)
{
   UWord i = hash & (t->n_slots - 1);

   while (t->slots[i] != NULL)
      i = (i + 1) & (t->n_slots - 1);
   t->slots[i] = stub;
   t->n_used++;
}

/*------------------------------------------------------------*/
/*--- The stubs                                            ---*/
/*------------------------------------------------------------*/

static Target data_target(Int size)
{
   switch (size) {
   case 1:  return TARGET_DATA1;
   case 2:  return TARGET_DATA2;
   case 4:  return TARGET_DATA4;
   case 8:  return TARGET_DATA8;
   case 16: return TARGET_DATA16;
   case 32: return TARGET_DATA32;
   default: return N_TARGETS;
   }
}

void* cg_stub_data(UWord entry, Int size)
{
   Target target = data_target(size);
   UWord hash = hash_words(entry, 0), i;
   UChar *stub, *end;

   if (target == N_TARGETS)
      return NULL;
   if (2 * (data_stubs.n_used + 1) > data_stubs.n_slots)
      table_grow(&data_stubs, False);
   /* The entry's code says the size, so the entry alone is the key. */
   for (i = hash & (data_stubs.n_slots - 1); data_stubs.slots[i] != NULL;
        i = (i + 1) & (data_stubs.n_slots - 1))
      if (stub_first(data_stubs.slots[i]) == entry)
         return data_stubs.slots[i];
   stub = alloc_stub(DATA_STUB);
   end = emit_jump(emit_movabs(stub, 6, entry), target);
   pad(end, stub + DATA_STUB);
   data_stubs.slots[i] = stub;
   data_stubs.n_used++;
   return stub;
}

void* cg_stub_fetch(UWord first, UWord second)
{
   UWord hash = hash_words(first, second), i;
   UChar *stub, *end;

   if (2 * (fetch_stubs.n_used + 1) > fetch_stubs.n_slots)
      table_grow(&fetch_stubs, True);
   for (i = hash & (fetch_stubs.n_slots - 1); fetch_stubs.slots[i] != NULL;
        i = (i + 1) & (fetch_stubs.n_slots - 1)) {
      UChar* s = fetch_stubs.slots[i];
      if (stub_first(s) == first && stub_second(s) == second)
         return s;
   }
   stub = alloc_stub(FETCH_STUB);
   end = emit_movabs(stub, 7, first);
   end = emit_movabs(end, 6, second);
   end = emit_jump(end, TARGET_FETCH);
   pad(end, stub + FETCH_STUB);
   fetch_stubs.slots[i] = stub;
   fetch_stubs.n_used++;
   return stub;
}

Bool cg_stubs_available(void)
{
   return True;
}

void cg_stubs_print_stats(void)
{
   VG_(dmsg)("call stubs: %lu data, %lu fetch\n", data_stubs.n_used,
             fetch_stubs.n_used);
}

#else  /* !VGA_amd64: compiled code passes every argument itself. */

Bool  cg_stubs_available(void)                   { return False; }
void* cg_stub_data(UWord entry, Int size)         { return NULL; }
void* cg_stub_fetch(UWord first, UWord second)    { return NULL; }
void  cg_stubs_print_stats(void)                  { }

#endif
