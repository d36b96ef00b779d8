/* cg_sharing.c -- --sharing=yes: a record of every line the program
   touched, and of how its threads used the lines they share
   (cg_sharing.h states the rules).

   Owns: the line records (in chunks of CHUNK_LINES consecutive lines,
   found through a hash table of chunks), the running thread, and the
   shared lines' records.
   Must not: touch the cache simulation (its counts are the same with
   and without --sharing) or write the file (cg_sharing_file.c).

   Why it is shaped so: every data access comes here, MRU hits included
   (a false-sharing loop is all hits in its own thread's view), and most
   touch a line that only their own thread has used: that case is a
   chunk memo compare, an index and a few ORs, with no allocation; the
   per-thread records, source lines and ownership model wait for a
   second thread. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cg_sharing.h"
#include "cg_data.h"
#include "cg_options.h"
#include "cg_threads.h"
#include "cg_vgcompat.h"

#define CHUNK_BITS  6
#define CHUNK_LINES (1 << CHUNK_BITS)

/* A line as its first thread used it, in 40 bytes: every line the
   program touches has one, and the per-access check reads it (64-byte
   records, pointers and 64-bit counts, made xz -T2's run 15 % longer:
   the records miss the host's caches as the program's own data does).
   Once another thread comes, `first_tid` is SHARED_LINE, which no
   running thread's number equals, and `shared` indexes the line's
   SharedLine: the check stays one compare. */
#define SHARED_LINE   0xFFFF
#define MAX_NUMBER    (SHARED_LINE - 1)   /* later threads share it */
#define MAX_COUNT     0xFFFFFFFFu
typedef struct {
   UShort       first_tid;     /* 0: untouched */
   UShort       children_at_last_write;   /* saturating */
   UInt         shared;        /* index in shared_table */
   ULong        read_bytes;
   ULong        write_bytes;
   UInt         reads;         /* a record about to wrap is shared */
   UInt         writes;
   UInt         last_read_cc;  /* cost centre index + 1; 0: none */
   UInt         last_write_cc;
} LineRecord;

typedef struct {
   UWord        number;        /* line number >> CHUNK_BITS */
   LineRecord   lines[CHUNK_LINES];
} Chunk;

static Bool enabled;
static Int line_bits, granule_bits;
/* The running thread's number (cg_threads.c), as line records hold
   it: threads after the 65,534th share the last number */
static UInt running_tid = 1;

/* Open addressing, linear probing, at most half full */
static Chunk** chunk_table;
static UWord chunk_table_mask;
static UWord n_chunks;
/* The chunks used last, direct-mapped by number: a program working on
   a few pages at once (xz's input, tables and dictionary) finds each
   here, without the hash table's probe and the chunk's own first line
   (a one-chunk memo missed on 1 access in 6 there) */
#define RECENT_CHUNKS 256
static struct { UWord number; Chunk* chunk; } recent_chunks[RECENT_CHUNKS];

static SharedLine* shared_lines;   /* newest first */
static SharedLine** shared_table;  /* by LineRecord.shared */
static UInt shared_table_size, n_shared_records;
static ULong lines_touched, lines_shared;

Bool cg_sharing_enabled(void) { return enabled; }
Int  cg_sharing_line_size(void) { return 1 << line_bits; }
Int  cg_sharing_granule_bits(void) { return granule_bits; }
ULong cg_sharing_lines_touched(void) { return lines_touched; }
ULong cg_sharing_lines_shared(void) { return lines_shared; }

void cg_sharing_init(Int line_size)
{
   enabled = True;
   line_bits = 0;
   while ((1 << line_bits) < line_size)
      line_bits++;
   /* 64 bits a mask: a bit a byte up to 64-byte lines */
   granule_bits = line_bits > 6 ? line_bits - 6 : 0;
   chunk_table_mask = 1023;
   chunk_table = VG_(calloc)("cg.sharing.table", chunk_table_mask + 1,
                             sizeof(Chunk*));
}

static UInt children_of_running(void)
{
   return cg_threads_children(cg_threads_running());
}

static inline UShort saturated(UInt n)
{
   return n < 0xFFFF ? (UShort)n : 0xFFFF;
}

void cg_sharing_thread_runs(ThreadId tid)
{
   UInt number = cg_threads_number_of(tid);

   running_tid = number < MAX_NUMBER ? number : MAX_NUMBER;
}

/*------------------------------------------------------------*/
/*--- Chunks of line records                               ---*/
/*------------------------------------------------------------*/

static inline UWord chunk_slot(UWord number)
{
   return (UWord)((number * 0x9E3779B97F4A7C15ULL) >> 20) & chunk_table_mask;
}

static void grow_chunk_table(void)
{
   Chunk** old = chunk_table;
   UWord old_size = chunk_table_mask + 1, i;

   chunk_table_mask = old_size * 2 - 1;
   chunk_table = VG_(calloc)("cg.sharing.table", old_size * 2,
                             sizeof(Chunk*));
   for (i = 0; i < old_size; i++)
      if (old[i] != NULL) {
         UWord s = chunk_slot(old[i]->number);
         while (chunk_table[s] != NULL)
            s = (s + 1) & chunk_table_mask;
         chunk_table[s] = old[i];
      }
   VG_(free)(old);
}

/* Zeroed (untouched lines), carved from slabs of the address space
   manager's (a chunk is just over a page) */
static UChar* slab_cursor;       /* the free part of the current slab */
static UChar* slab_end;

static Chunk* new_chunk(void)
{
   const SizeT slab_bytes = 1 << 20;
   SizeT size = (sizeof(Chunk) + 15) & ~(SizeT)15;
   Chunk* c;

   if (slab_cursor == NULL || slab_cursor + size > slab_end) {
      slab_cursor = cg_shadow_alloc(slab_bytes);
      if (slab_cursor == NULL)
         cg_out_of_memory("cg.sharing.chunks", slab_bytes);
      slab_end = slab_cursor + slab_bytes;
   }
   c = (Chunk*)slab_cursor;
   slab_cursor += size;
   return c;
}

static Chunk* remember(UWord number, Chunk* c)
{
   recent_chunks[number % RECENT_CHUNKS].number = number;
   recent_chunks[number % RECENT_CHUNKS].chunk = c;
   return c;
}

static __attribute__((noinline)) Chunk* find_chunk(UWord number)
{
   UWord s = chunk_slot(number);
   Chunk* c;

   for (; chunk_table[s] != NULL; s = (s + 1) & chunk_table_mask)
      if (chunk_table[s]->number == number)
         return remember(number, chunk_table[s]);
   c = new_chunk();
   c->number = number;
   chunk_table[s] = c;
   if (++n_chunks * 2 > chunk_table_mask + 1)
      grow_chunk_table();
   return remember(number, c);
}

static inline LineRecord* record_of(UWord line)
{
   UWord number = line >> CHUNK_BITS;
   UWord slot = number % RECENT_CHUNKS;
   Chunk* c = recent_chunks[slot].chunk;

   if (UNLIKELY(c == NULL || recent_chunks[slot].number != number))
      c = find_chunk(number);
   return &c->lines[line & (CHUNK_LINES - 1)];
}

/*------------------------------------------------------------*/
/*--- Shared lines                                         ---*/
/*------------------------------------------------------------*/

static ULong thread_bit(ThreadId tid)
{
   return (ULong)1 << (tid < 64 ? tid : 63);
}

static void add_source(SharingSide* side, CostCentre* cc, ULong reads,
                       ULong writes)
{
   SharingSource** link = &side->sources;
   SharingSource* s;

   for (s = *link; s != NULL; link = &s->next, s = s->next)
      if (s->cc == cc)
         break;
   if (s == NULL) {
      s = VG_(calloc)("cg.sharing.source", 1, sizeof *s);
      s->cc = cc;
   } else {
      *link = s->next;
   }
   /* The latest at the front: a loop's next access finds it first */
   s->next = side->sources;
   side->sources = s;
   s->reads += reads;
   s->writes += writes;
}

static SharingSide* side_of(SharedLine* line, ThreadId tid)
{
   SharingSide** link = &line->sides;
   SharingSide* side;
   UInt n = 0;

   for (side = *link; side != NULL; link = &side->next, side = side->next, n++)
      if (side->tid == tid)
         return side;
   if (n == 1)
      lines_shared++;           /* its second thread */
   side = VG_(calloc)("cg.sharing.side", 1, sizeof *side);
   side->tid = tid;
   *link = side;
   return side;
}

/* The heap block holding the line, if the data profile knows it:
   looked up at the address the second thread touched, which is in a
   shared block */
static void describe_holder(SharedLine* line, Addr addr)
{
   UWord block_offset;

   if (!cg_data_enabled())
      return;
   line->object = cg_data_object_at(addr, &block_offset);
   if (line->object != NULL)
      line->object_offset = (Long)block_offset - (Long)(addr - line->addr);
}

/* A second thread touches the line: its first thread's record becomes
   that thread's side, its accesses until now kept apart (early_*). */
static CostCentre* cost_centre(UInt index_plus_1)
{
   return index_plus_1 == 0 ? NULL : cg_costs_by_index(index_plus_1 - 1);
}

/* A second thread touches the line (or its first thread's counts would
   wrap): its first thread's record becomes that thread's side, its
   accesses until now kept apart (early_*). */
static SharedLine* make_shared(LineRecord* r, UWord line_number, Addr addr)
{
   SharedLine* line = VG_(calloc)("cg.sharing.line", 1, sizeof *line);
   SharingSide* first;

   line->addr = (Addr)line_number << line_bits;
   first = side_of(line, r->first_tid);
   first->read_bytes = r->read_bytes;
   first->write_bytes = r->write_bytes;
   first->reads = r->reads;
   first->writes = r->writes;
   first->children_at_last_write = r->children_at_last_write;
   first->early_reads = r->reads;
   first->early_writes = r->writes;
   first->early_read_cc = cost_centre(r->last_read_cc);
   first->early_write_cc = cost_centre(r->last_write_cc);
   line->holders = thread_bit(r->first_tid);
   line->modified_by = r->writes > 0 ? r->first_tid : 0;
   describe_holder(line, addr);
   line->next = shared_lines;
   shared_lines = line;
   if (n_shared_records == shared_table_size) {
      shared_table_size = shared_table_size == 0 ? 1024 : 2 * shared_table_size;
      shared_table = VG_(realloc)("cg.sharing.shared", shared_table,
                                  shared_table_size * sizeof *shared_table);
   }
   shared_table[n_shared_records] = line;
   r->shared = n_shared_records++;
   r->first_tid = SHARED_LINE;
   return line;
}

/* The schedule's ownership model: a write needs the only copy, a read
   a copy, fetched from the thread whose copy is modified */
static void model_access(SharedLine* line, ThreadId tid, Bool write)
{
   ULong bit = thread_bit(tid);

   if (write) {
      if (line->holders & ~bit)
         line->moves++;
      line->holders = bit;
      line->modified_by = tid;
   } else if (!(line->holders & bit)) {
      if (line->modified_by != 0 && line->modified_by != tid) {
         line->moves++;
         line->modified_by = 0;
      }
      line->holders |= bit;
   }
}

static __attribute__((noinline))
void touch_shared(LineRecord* r, UWord line_number, Addr addr, ULong bytes,
                  Bool write, CostCentre* cc)
{
   SharedLine* line;
   SharingSide* side;

   if (r->first_tid == SHARED_LINE)
      line = shared_table[r->shared];
   else
      line = make_shared(r, line_number, addr);
   side = side_of(line, running_tid);

   if (write) {
      side->write_bytes |= bytes;
      side->writes++;
      side->children_at_last_write = children_of_running();
   } else {
      side->read_bytes |= bytes;
      side->reads++;
   }
   add_source(side, cc, write ? 0 : 1, write ? 1 : 0);
   model_access(line, running_tid, write);
}

/*------------------------------------------------------------*/
/*--- Every access                                         ---*/
/*------------------------------------------------------------*/

static inline __attribute__((always_inline))
void touch_line(UWord line_number, Addr addr, ULong bytes, Bool write,
                CostCentre* cc)
{
   LineRecord* r = record_of(line_number);

   if (UNLIKELY(r->first_tid != running_tid)) {
      if (r->first_tid != 0) {
         touch_shared(r, line_number, addr, bytes, write, cc);
         return;
      }
      r->first_tid = running_tid;
      lines_touched++;
   }
   if (write) {
      if (UNLIKELY(r->writes == MAX_COUNT)) {
         touch_shared(r, line_number, addr, bytes, write, cc);
         return;
      }
      r->write_bytes |= bytes;
      r->writes++;
      r->last_write_cc = cc->index + 1;
      r->children_at_last_write = saturated(children_of_running());
   } else {
      if (UNLIKELY(r->reads == MAX_COUNT)) {
         touch_shared(r, line_number, addr, bytes, write, cc);
         return;
      }
      r->read_bytes |= bytes;
      r->reads++;
      r->last_read_cc = cc->index + 1;
   }
}

/* The granules from offset `lo` to `hi` of a line, as mask bits */
static inline ULong granules(UWord lo, UWord hi)
{
   UWord first = lo >> granule_bits, last = hi >> granule_bits;

   return ((((ULong)2) << last) - 1) & ~((((ULong)1) << first) - 1);
}

static inline __attribute__((always_inline))
void touch(CostCentre* cc, Addr addr, UWord size, Bool write)
{
   UWord line_mask = ((UWord)1 << line_bits) - 1;
   Addr end = addr + (size > 0 ? size : 1) - 1, a = addr;

   /* A straddle touches each of its lines (sizes never exceed a line,
      but a loop costs nothing) */
   for (;;) {
      UWord line_number = a >> line_bits;
      Addr line_end = a | line_mask;
      Addr last = end < line_end ? end : line_end;
      touch_line(line_number, a, granules(a & line_mask, last & line_mask),
                 write, cc);
      if (last == end)
         return;
      a = last + 1;
   }
}

VG_REGPARM(3) void cg_sharing_read(CostCentre* cc, Addr addr, UWord size)
{
   touch(cc, addr, size, False);
}

VG_REGPARM(3) void cg_sharing_write(CostCentre* cc, Addr addr, UWord size)
{
   touch(cc, addr, size, True);
}

/*------------------------------------------------------------*/
/*--- At exit                                              ---*/
/*------------------------------------------------------------*/

/* False or true sharing, by what weighs more: each pair of threads, A
   writing and B accessing, weighs min(B's accesses, A's writes) (the
   transfers from A to B it can cause), on the true side if B accesses
   a byte A writes, else on the false side.  (A thread that reads the
   others' counters once after joining them must not turn a line they
   falsely share into true sharing.) */
static void classify(SharedLine* line)
{
   ULong all_writes = 0, false_weight = 0, true_weight = 0;
   SharingSide *a, *b;

   for (a = line->sides; a != NULL; a = a->next) {
      all_writes += a->writes;
      for (b = line->sides; b != NULL; b = b->next) {
         ULong accesses = b->reads + b->writes, weight;
         if (a == b || a->writes == 0 || a->initial)
            continue;
         weight = accesses < a->writes ? accesses : a->writes;
         if (a->write_bytes & (b->read_bytes | b->write_bytes))
            true_weight += weight;
         else
            false_weight += weight;
      }
   }
   line->false_sharing = false_weight > true_weight;
   line->estimate = 0;
   for (a = line->sides; a != NULL; a = a->next) {
      ULong mine = a->reads + a->writes;
      ULong others_writes = all_writes - a->writes;
      line->estimate += mine < others_writes ? mine : others_writes;
   }
}

static Int cmp_lines(const void* pa, const void* pb)
{
   const SharedLine* a = *(const SharedLine* const*)pa;
   const SharedLine* b = *(const SharedLine* const*)pb;

   if (a->estimate != b->estimate)
      return a->estimate > b->estimate ? -1 : 1;
   if (a->addr != b->addr)
      return a->addr < b->addr ? -1 : 1;
   return 0;
}

/* Whether thread `other` was created, by `writer` or a thread it
   created after, once `writer` had made its last write */
static Bool created_after(UInt other, const SharingSide* writer)
{
   while (cg_threads_parent(other) != 0) {
      if (cg_threads_parent(other) == writer->tid)
         return cg_threads_child_index(other) > writer->children_at_last_write;
      other = cg_threads_parent(other);
   }
   return False;
}

/* Marks the initial writers; True if another thread writes the line */
static Bool mark_initial_writers(SharedLine* line)
{
   SharingSide *a, *b;
   Bool racing_writer = False;

   for (a = line->sides; a != NULL; a = a->next) {
      a->initial = a->writes > 0;
      for (b = line->sides; b != NULL && a->initial; b = b->next)
         if (b != a && !created_after(b->tid, a))
            a->initial = False;
      racing_writer |= a->writes > 0 && !a->initial;
   }
   return racing_writer;
}

SharedLine** cg_sharing_finish(UWord* n)
{
   SharedLine** reported;
   SharedLine* line;
   UWord count = 0;

   for (line = shared_lines; line != NULL; line = line->next)
      if (mark_initial_writers(line))
         count++;
   reported = VG_(malloc)("cg.sharing.report",
                          (count > 0 ? count : 1) * sizeof *reported);
   count = 0;
   for (line = shared_lines; line != NULL; line = line->next)
      if (mark_initial_writers(line)) {
         classify(line);
         reported[count++] = line;
      }
   VG_(ssort)(reported, count, sizeof *reported, cmp_lines);
   *n = count;
   return reported;
}
