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
#include "pub_tool_threadstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cg_sharing.h"
#include "cg_data.h"
#include "cg_options.h"
#include "cg_vgcompat.h"

#define CHUNK_BITS  6
#define CHUNK_LINES (1 << CHUNK_BITS)

/* A line as its first thread used it; `shared` once another came */
typedef struct {
   ThreadId     first_tid;     /* 0: untouched */
   ULong        read_bytes;
   ULong        write_bytes;
   ULong        reads;
   ULong        writes;
   CostCentre*  last_read_cc;
   CostCentre*  last_write_cc;
   SharedLine*  shared;
   UInt         children_at_last_write;
} LineRecord;

typedef struct {
   UWord        number;        /* line number >> CHUNK_BITS */
   LineRecord   lines[CHUNK_LINES];
} Chunk;

static Bool enabled;
static Int line_bits, granule_bits;
/* Threads are numbered in order of creation, the main thread 1:
   Valgrind gives an exited thread's ThreadId to the next one created,
   and two threads must not be one.  `running_tid` is that number. */
static ThreadId running_tid = 1;
static UInt* number_of_tid;      /* by ThreadId; 0: the main thread */
static UInt n_tids;
/* By number ([1] the main thread's): who created it, as its creator's
   how-manieth child, and how many threads it has created */
typedef struct {
   UInt parent;                  /* 0: none (the main thread) */
   UInt child_index;
   UInt children;
} ThreadInfo;
static ThreadInfo* threads;
static UInt n_thread_slots;
static UInt threads_created = 1;

/* Open addressing, linear probing, at most half full */
static Chunk** chunk_table;
static UWord chunk_table_mask;
static UWord n_chunks;
static Chunk* memo_chunk;       /* the last chunk looked up */

static SharedLine* shared_lines;   /* newest first */
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

static void *grow(void* array, UInt* n, UInt wanted, SizeT size)
{
   UInt new_n = wanted + 16;

   array = VG_(realloc)("cg.sharing.threads", array, new_n * size);
   VG_(memset)((UChar*)array + *n * size, 0, (new_n - *n) * size);
   *n = new_n;
   return array;
}

void cg_sharing_thread_created(ThreadId parent, ThreadId child)
{
   UInt number, parent_number;

   if (!enabled || parent == VG_INVALID_THREADID)
      return;                      /* the main thread: number 1 */
   if (child >= n_tids)
      number_of_tid = grow(number_of_tid, &n_tids, child, sizeof(UInt));
   number = ++threads_created;
   if (number >= n_thread_slots)
      threads = grow(threads, &n_thread_slots, number, sizeof(ThreadInfo));
   parent_number = parent < n_tids && number_of_tid[parent] != 0
                   ? number_of_tid[parent] : 1;
   threads[number].parent = parent_number;
   threads[number].child_index = ++threads[parent_number].children;
   number_of_tid[child] = number;
}

static UInt children_of_running(void)
{
   return running_tid < n_thread_slots ? threads[running_tid].children : 0;
}

void cg_sharing_thread_runs(ThreadId tid)
{
   running_tid = tid < n_tids && number_of_tid[tid] != 0 ? number_of_tid[tid]
                                                          : 1;
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
static Chunk* new_chunk(void)
{
   static UChar* slab_cursor;
   static UChar* slab_end;
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

static __attribute__((noinline)) Chunk* find_chunk(UWord number)
{
   UWord s = chunk_slot(number);
   Chunk* c;

   for (; chunk_table[s] != NULL; s = (s + 1) & chunk_table_mask)
      if (chunk_table[s]->number == number)
         return memo_chunk = chunk_table[s];
   c = new_chunk();
   c->number = number;
   chunk_table[s] = c;
   if (++n_chunks * 2 > chunk_table_mask + 1)
      grow_chunk_table();
   return memo_chunk = c;
}

static inline LineRecord* record_of(UWord line)
{
   Chunk* c = memo_chunk;

   if (UNLIKELY(c == NULL || c->number != line >> CHUNK_BITS))
      c = find_chunk(line >> CHUNK_BITS);
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

   for (side = *link; side != NULL; link = &side->next, side = side->next)
      if (side->tid == tid)
         return side;
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
   first->early_read_cc = r->last_read_cc;
   first->early_write_cc = r->last_write_cc;
   line->holders = thread_bit(r->first_tid);
   line->modified_by = r->writes > 0 ? r->first_tid : 0;
   describe_holder(line, addr);
   line->next = shared_lines;
   shared_lines = line;
   lines_shared++;
   r->shared = line;
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
   SharedLine* line = r->shared != NULL ? r->shared
                                        : make_shared(r, line_number, addr);
   SharingSide* side = side_of(line, running_tid);

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

static inline void touch_line(UWord line_number, Addr addr, ULong bytes,
                              Bool write, CostCentre* cc)
{
   LineRecord* r = record_of(line_number);

   if (UNLIKELY(r->first_tid != running_tid || r->shared != NULL)) {
      if (r->first_tid != 0) {
         touch_shared(r, line_number, addr, bytes, write, cc);
         return;
      }
      r->first_tid = running_tid;
      lines_touched++;
   }
   if (write) {
      r->write_bytes |= bytes;
      r->writes++;
      r->last_write_cc = cc;
      r->children_at_last_write = children_of_running();
   } else {
      r->read_bytes |= bytes;
      r->reads++;
      r->last_read_cc = cc;
   }
}

/* The granules from offset `lo` to `hi` of a line, as mask bits */
static inline ULong granules(UWord lo, UWord hi)
{
   UWord first = lo >> granule_bits, last = hi >> granule_bits;

   return ((((ULong)2) << last) - 1) & ~((((ULong)1) << first) - 1);
}

static void touch(CostCentre* cc, Addr addr, UWord size, Bool write)
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
   while (other < n_thread_slots && threads[other].parent != 0) {
      if (threads[other].parent == writer->tid)
         return threads[other].child_index > writer->children_at_last_write;
      other = threads[other].parent;
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
