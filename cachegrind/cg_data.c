/* cg_data.c -- the data-centric profile (--data-profile=yes).

   Owns: the data objects (heap allocation sites, anonymous mappings,
   global symbols, thread stacks and the `other` bucket), the live
   blocks that belong to them, the classification of an address, the
   per-access work that classifies, simulates and counts a data access
   (in the client's thread, or with the access log partly in the
   simulator's), and the records the counts go to (cg_data_records.h;
   cg_data_file.c writes them).
   Must not: decide which accesses exist (cg_instrument.c) or emit IR
   (cg_deliver.c); the allocator's calls are recognised in cg_alloc.c.

   Every data access is attributed, not only the misses, so no MRU
   filter in compiled code skips any (a filtered hit would not be
   classified).  Each access is classified in the client's thread, in
   program order with the allocations, frees, mappings and thread
   switches it depends on, and counted where it is simulated:
   - With the access log (cg_log.c: amd64, neither --toggle-collect nor
     --interval-size; the usual case), compiled code appends (site,
     address) to the access buffer; cg_data_drain classifies the
     buffer's accesses and writes them to the log as entries of their
     own, which the simulator thread (or, without one, the client's at
     each hand-over) simulates and counts (simulate_entries).
   - Otherwise `process` does both at once, for each access of the
     buffer, or, with --toggle-collect or --interval-size, from
     cg_data_access.
   An access is simulated through the same D1 and LL as every other
   path (the D1 look-up, then cg_sim_data_outcome) and counted three
   times over: in its cost centre as always (misses; the accesses come
   from the group counters), in the (object, line) record and in the
   (object, field) record.  An object's counts are the sum of its
   lines', so the objects add up to the summary's totals exactly.

   Why it is shaped this way: an instruction in a loop tends to touch
   the same block again and again, so each site remembers the block it
   touched last (the client's half) and the object, line record and
   field record its counts go to (the counting half, see CountingSite).
   A block is valid for a site while the address falls in it and its
   generation is the one the site saw (a freed block's struct is reused
   with a new generation).  Only when that check fails is the address
   classified again: live heap and mapped blocks in an ordered set, the
   threads' stacks, then the data symbols of the debug info, else
   `other`.  With the log, the counting half learns of the new block
   from a bind entry before the access.

   Fields: the offset of an access in its block, modulo the object's
   element size.  --data-stride=<n> sets the element size of every
   object.  Otherwise a heap or mapped block under 256 bytes is one
   element (a struct: the field is the offset in the block; the first
   block of the site decides), and for larger blocks and for globals
   the size is detected: over the object's first DETECT_ACCESSES
   accesses, the greatest common divisor of the distances between two
   consecutive accesses of one instruction to one block (one field of
   the elements, walked in order or not; the copies of an instruction
   in an unrolled loop share their site, cg_deliver.c), if at most
   4 KiB; failing that, the block if it is at most 4 KiB, else the
   widest access.  Until then fields are kept by plain offset, and folded once
   the size is known. */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_xarray.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_oset.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "cg_data.h"
#include "cg_data_records.h"
#include "cg_cache.h"
#include "cg_control.h"
#include "cg_file.h"
#include "cg_log.h"
#include "cg_log_entry.h"
#include "cg_options.h"
#include "cg_sim.h"
#include "cg_tool.h"
#include "cg_vgcompat.h"

#define ELEMENT_BLOCK    256    /* a block below this size is one element */
#define SMALL_BLOCK      4096   /* else, undetected, the element */
#define DETECT_ACCESSES  1024

typedef struct _DataBlock {
   Addr         start;
   SizeT        size;       /* 0 once freed: no address is in it */
   DataObject*  obj;
   UInt         gen;
   struct _DataBlock* next_free;
   ULong        reusable_at; /* retired: once this many chunks are counted */
} DataBlock;

/* A site has two halves.  The client's says which block its last
   access fell in; the counting half (a cache line of its own) says
   which object that block
   belongs to and where its counts go.  With the access log they live
   in different threads: the client classifies, the simulator thread
   counts, and a line written by one and read by the other at every
   access would cost both a transfer between cores. */
typedef struct {
   /* Set at translation time */
   CostCentre*  cc;
   UChar        base;       /* READ_BASE or WRITE_BASE */
   UChar        first;      /* EV_DR or EV_DW */
   UShort       size;
   UInt         field_offset;  /* field's offset, if field is set */
   /* D1 hits not yet added to line's and field's counts (see
      count_access) */
   ULong        pending;
   /* The block bound by the client (bind), by value */
   DataObject*  obj;
   Addr         start;
   /* Where the counts go: NULL until the first access after a bind to
      another object; field stays NULL while the object's element size
      is not known */
   LineRec*     line;       /* (obj, cc) */
   FieldRec*    field;      /* (obj, field_offset) */
   Addr         last_addr;  /* element size detection; 0 after a bind */
} CountingSite;

struct _DataSite {
   union {
      DataBlock*   block;   /* touched last, valid while gen matches */
      struct _DataSite* free_next;   /* while free */
   };
   UInt         gen;
   UShort       size;
   UChar        base;
   CountingSite* counting;  /* kept while free */
   struct _DataSite* next_in_block;  /* the translation's sites */
};

/*------------------------------------------------------------*/
/*--- The tool's state                                     ---*/
/*------------------------------------------------------------*/

static Bool enabled;
static Bool logging;       /* the data profile writes the access log */
static UWord* log_word;    /* cg_log's cursor, then its limit */
static UInt next_gen = 1;
static UInt n_objects;
static DataObject* objects_created;     /* newest first */
static DataObject* other_object;

/* A block no address falls in: sites start with it, and `other` (which
   has no range) is reached through it. */
static DataBlock no_block = { 0, 0, NULL, 0, NULL, 0 };
static DataBlock other_block;

static OSet* live_blocks;               /* heap and mapped, by start */
static DataBlock* free_blocks;
static DataBlock** stack_blocks;        /* by thread id */
static DataObject** stack_objects;
static Bool* thread_live;                /* has run, not exited */
static DataBlock* running_stack;
static ThreadId highest_tid = 1;

/* Chained hash tables, grown to keep about one entry a bucket.  The
   line and field tables belong to the counting side (which may be the
   simulator thread): their memory comes from record_alloc. */
typedef struct {
   void** buckets;
   UWord  n_buckets;
   UWord  n_entries;
   Bool   counting;         /* memory from record_alloc, never freed */
} Table;
static Table object_table;

/* What the counting side (the simulator thread, with the log) reads
   and writes, on cache lines of its own: a word the client's thread
   writes often, next to one of these, would send the line between the
   cores at every access. */
static struct __attribute__((aligned(64))) {   /* whole lines */
   const CacheLevel* d1;
   Bool    d1_is_lru;           /* its MRU line is way 0 */
   Table   line_table, field_table;
   UChar*  region_cursor;       /* record_alloc's */
   UChar*  region_end;
} counting_side;
#define d1          (counting_side.d1)
#define d1_is_lru   (counting_side.d1_is_lru)
#define line_table  (counting_side.line_table)
#define field_table (counting_side.field_table)

static ULong n_classified;
static const UWord* collecting;   /* cg_control.c's word */
static ULong n_classified_as[DATA_N_KINDS];

Bool cg_data_enabled(void)
{
   return enabled;
}

/*------------------------------------------------------------*/
/*--- Hashing                                              ---*/
/*------------------------------------------------------------*/

static UWord mix(UWord a, UWord b)
{
   UWord h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL);
   return h ^ (h >> 29);
}

/*------------------------------------------------------------*/
/*--- The counting side's memory                           ---*/
/*------------------------------------------------------------*/

/* Line and field records and their tables are made by the counting
   side, which with a simulator thread may not call the core's
   allocator (it is not thread-safe).  They come from regions of fresh
   zeroed memory that the client's thread maps and hands over one at a
   time (provide_region, before every hand-over of the log and while it
   waits for the simulator); the counting side takes the spare region
   when its own is used up.  A chunk of the log makes at most a few MB
   of records, so a spare of 64 MB is always there in practice; if not,
   the simulator thread waits for the client's next hand-over. */
#define REGION_BYTES ((SizeT)64 << 20)
#define MAX_TABLE_BYTES (REGION_BYTES / 4)

static void* volatile spare_region;  /* mapped by the client's thread */
static Bool counting_in_client;      /* no simulator thread counts now */

static void* map_region(void)
{
   void* r = cg_shadow_alloc(REGION_BYTES);

   if (r == NULL)
      cg_out_of_memory("cg.data.records", REGION_BYTES);
   return r;
}

/* Not fatal if there is no memory: the spare may never be needed (the
   log's chunks survive an exhausted address space too); take_region
   maps or waits when it is. */
static void provide_region(void)
{
   if (__atomic_load_n(&spare_region, __ATOMIC_ACQUIRE) == NULL) {
      void* r = cg_shadow_alloc(REGION_BYTES);
      if (r != NULL)
         __atomic_store_n(&spare_region, r, __ATOMIC_RELEASE);
   }
}

static void* take_region(void)
{
   for (;;) {
      void* r = __atomic_exchange_n(&spare_region, NULL, __ATOMIC_ACQ_REL);
      if (r != NULL)
         return r;
      if (counting_in_client || !cg_log_simulator_running())
         return map_region();
#if defined(VGA_amd64)
      __asm__ volatile ("pause");
#endif
   }
}

/* Zeroed memory, 16-byte aligned; `bytes` at most REGION_BYTES. */
static void* record_alloc(SizeT bytes)
{
   void* p;

   bytes = (bytes + 15) & ~(SizeT)15;
   if ((SizeT)(counting_side.region_end - counting_side.region_cursor)
       < bytes) {
      counting_side.region_cursor = take_region();
      counting_side.region_end = counting_side.region_cursor + REGION_BYTES;
   }
   p = counting_side.region_cursor;
   counting_side.region_cursor += bytes;
   return p;
}

/*------------------------------------------------------------*/
/*--- Hash tables                                          ---*/
/*------------------------------------------------------------*/

static void table_init(Table* t, const HChar* cc, Bool counting)
{
   t->n_buckets = 1024;
   t->n_entries = 0;
   t->counting = counting;
   t->buckets = counting ? record_alloc(t->n_buckets * sizeof(void*))
                         : VG_(calloc)(cc, t->n_buckets, sizeof(void*));
}

/* Every entry type starts with its bucket link (the first word of the
   struct: table_add writes it there); `hash_of` rehashes. */
static void table_grow(Table* t, UWord (*hash_of)(const void*))
{
   UWord n = t->n_buckets * 2, i;
   void** nb;

   if (t->counting && n * sizeof(void*) > MAX_TABLE_BYTES)
      return;                /* longer chains from here on */
   nb = t->counting ? record_alloc(n * sizeof(void*))
                    : VG_(calloc)("cg.data.table", n, sizeof(void*));
   for (i = 0; i < t->n_buckets; i++) {
      void* e = t->buckets[i];
      while (e != NULL) {
         void* next = *(void**)e;
         UWord b = hash_of(e) & (n - 1);
         *(void**)e = nb[b];
         nb[b] = e;
         e = next;
      }
   }
   if (!t->counting)
      VG_(free)(t->buckets);
   t->buckets = nb;
   t->n_buckets = n;
}

static void table_add(Table* t, void* e, UWord hash,
                      UWord (*hash_of)(const void*))
{
   UWord b = hash & (t->n_buckets - 1);

   *(void**)e = t->buckets[b];
   t->buckets[b] = e;
   if (++t->n_entries > t->n_buckets)
      table_grow(t, hash_of);
}

/*------------------------------------------------------------*/
/*--- Objects                                              ---*/
/*------------------------------------------------------------*/

static UWord object_hash(const void* e)
{
   return ((const DataObject*)e)->hash;
}

static void set_stride(DataObject* o, UWord stride)
{
   o->stride = stride;
   o->stride_mask = stride != 0 && (stride & (stride - 1)) == 0
                    ? stride - 1 : 0;
   o->stride_magic = 0;
#if defined(VGA_amd64)
   if (stride != 0 && o->stride_mask == 0 && stride <= SMALL_BLOCK)
      o->stride_magic = ((1ULL << 44) + stride - 1) / stride;
#endif
}

/* offset modulo the object's stride (offset >= stride > 0).  A division
   costs ~25 cycles on every access to an array of 12-byte elements
   (bzip2: a sixth of the profile's time), so: a mask for powers of two,
   else a multiplication by ceil(2^44 / stride), exact for offsets below
   2^32 and strides up to 2^12 (the error, offset * (m - 2^44/stride) /
   2^44, stays below 1/stride). */
static inline UWord offset_in_element(const DataObject* obj, UWord offset)
{
   if (obj->stride_mask != 0)
      return offset & obj->stride_mask;
#if defined(VGA_amd64)
   if (obj->stride_magic != 0 && offset < (1ULL << 32)) {
      UWord q = (UWord)(((unsigned __int128)offset * obj->stride_magic) >> 44);
      return offset - q * obj->stride;
   }
#endif
   return offset % obj->stride;
}

static UWord key_hash(DataKind kind, const Addr* frames, UInt n,
                      const HChar* name, Addr start)
{
   UWord h = mix(kind, start);
   UInt i;

   for (i = 0; i < n; i++)
      h = mix(h, frames[i]);
   if (name != NULL)
      for (; *name != 0; name++)
         h = mix(h, (UChar)*name);
   return h;
}

static Bool same_key(const DataObject* o, DataKind kind, const Addr* frames,
                     UInt n, const HChar* name, Addr start)
{
   UInt i;

   if (o->kind != kind || o->n_frames != n || o->start != start)
      return False;
   for (i = 0; i < n; i++)
      if (o->frames[i] != frames[i])
         return False;
   if ((o->name == NULL) != (name == NULL))
      return False;
   return name == NULL || VG_(strcmp)(o->name, name) == 0;
}

static DataObject* object_for(DataKind kind, const Addr* frames, UInt n,
                              const HChar* name, Addr start)
{
   UWord h = key_hash(kind, frames, n, name, start);
   DataObject* o = object_table.buckets[h & (object_table.n_buckets - 1)];

   for (; o != NULL; o = o->next_in_bucket)
      if (o->hash == h && same_key(o, kind, frames, n, name, start))
         return o;
   o = VG_(calloc)("cg.data.object", 1, sizeof *o);
   o->hash = h;
   o->kind = kind;
   o->id = n_objects++;
   o->n_frames = n;
   if (n > 0) {
      UInt i;
      VG_(memcpy)(o->frames, frames, n * sizeof(Addr));
      /* Now, while the code's debug information is surely loaded */
      o->site = VG_(malloc)("cg.data.site", n * sizeof(SiteFrame));
      for (i = 0; i < n; i++)
         cg_costs_describe(frames[i], &o->site[i].file, &o->site[i].fn,
                           &o->site[i].line);
   }
   o->name = name == NULL ? NULL : VG_(strdup)("cg.data.name", name);
   o->start = start;
   o->has_fields = kind == DATA_HEAP || kind == DATA_MMAP
                   || kind == DATA_GLOBAL;
   set_stride(o, (UWord)cg_clo.data_stride);
   o->next_created = objects_created;
   objects_created = o;
   table_add(&object_table, o, h, object_hash);
   return o;
}

/*------------------------------------------------------------*/
/*--- The address cache                                   ---*/
/*------------------------------------------------------------*/

/* The address cache: the last answer per 16-byte granule.  A block's
   entry is checked like a site's (range and generation), so it needs no
   invalidation; an `other` answer is kept for the start addresses that
   got it, a bit each (a granule can hold a global's last bytes and a
   gap, so one answer does not hold for its neighbours), and is valid
   while other_epoch is unchanged: a new mapping or a large block
   changes it, a block up to 64 KiB clears the entries of its granules. */
#define ADDR_CACHE_SIZE (1 << 16)

typedef struct {
   DataBlock* block;
   UInt       gen;          /* the block's, or other_epoch */
   UShort     other_starts; /* `other`: bit n, granule + n is */
   Addr       other_granule;
} AddrCacheEntry;

static AddrCacheEntry* addr_cache;
static UInt other_epoch = 1;

static inline AddrCacheEntry* addr_cache_entry(Addr a)
{
   /* Folded with higher bits: a library's data and the heap would
      otherwise meet at the same entries. */
   return &addr_cache[((a >> 4) ^ (a >> 20)) & (ADDR_CACHE_SIZE - 1)];
}

/* Addresses in [start, start + size) may no longer be `other`. */
static void forget_other(Addr start, SizeT size)
{
   Addr a;

   if (size > 4096 * 16) {
      other_epoch++;
      return;
   }
   for (a = start & ~(Addr)15; a < start + size; a += 16) {
      AddrCacheEntry* e = addr_cache_entry(a);
      if (e->block == &other_block)
         e->block = NULL;
   }
}

/*------------------------------------------------------------*/
/*--- Blocks                                               ---*/
/*------------------------------------------------------------*/

/* The ordered set compares an address with a block's range; a block
   of size 0 occupies its first byte for the set's sake (malloc(0)
   returns distinct addresses) but holds no access. */
static Word cmp_addr_block(const void* key, const void* elem)
{
   Addr a = *(const Addr*)key;
   const DataBlock* b = *(DataBlock* const*)elem;
   SizeT size = b->size == 0 ? 1 : b->size;

   if (a < b->start)
      return -1;
   if (a - b->start >= size)
      return 1;
   return 0;
}

/* The set holds pointers to blocks, so that a block's struct (which
   sites point at) never moves. */
typedef struct {
   Addr       start;       /* the key */
   DataBlock* block;
} LiveEntry;

static Word cmp_live(const void* key, const void* elem)
{
   return cmp_addr_block(key, &((const LiveEntry*)elem)->block);
}

static DataBlock* live_block_at(Addr a)
{
   LiveEntry* e = VG_(OSetGen_Lookup)(live_blocks, &a);
   return e == NULL ? NULL : e->block;
}

/* Retired blocks, oldest first: with the log, a bind entry may still
   name one (see ENTRY_BIND), so its struct waits until the chunk that
   was open when it retired has been counted. */
static DataBlock* retired_head;
static DataBlock** retired_tail = &retired_head;

#define BLOCK_SLAB 1024

static DataBlock* new_block(Addr start, SizeT size, DataObject* obj)
{
   DataBlock* b = free_blocks;

   if (b == NULL && retired_head != NULL
       && (!logging || retired_head->reusable_at
                       <= cg_log_chunks_simulated())) {
      ULong counted = logging ? cg_log_chunks_simulated() : 0;
      /* Every retired block that may be reused now */
      while (retired_head != NULL && retired_head->reusable_at <= counted) {
         DataBlock* r = retired_head;
         retired_head = r->next_free;
         r->next_free = free_blocks;
         free_blocks = r;
      }
      if (retired_head == NULL)
         retired_tail = &retired_head;
      b = free_blocks;
   }
   if (b != NULL) {
      free_blocks = b->next_free;
   } else {
      /* From slabs: blocks are read at every access, and close together
         they miss the host's caches less */
      static DataBlock* slab_cursor;
      static DataBlock* slab_end;
      if (slab_cursor == slab_end) {
         slab_cursor = VG_(malloc)("cg.data.blocks",
                                   BLOCK_SLAB * sizeof(DataBlock));
         slab_end = slab_cursor + BLOCK_SLAB;
      }
      b = slab_cursor++;
   }
   b->start = start;
   b->size = size;
   b->obj = obj;
   b->gen = next_gen++;
   b->next_free = NULL;
   return b;
}

static void retire_block(DataBlock* b)
{
   b->size = 0;
   b->gen = 0;
   b->reusable_at = logging ? cg_log_chunks_handed_over() + 1 : 0;
   b->next_free = NULL;
   *retired_tail = b;
   retired_tail = &b->next_free;
}

static void remove_live(Addr start)
{
   LiveEntry* e = VG_(OSetGen_Remove)(live_blocks, &start);

   if (e == NULL)
      return;
   retire_block(e->block);
   VG_(OSetGen_FreeNode)(live_blocks, e);
}

/* Blocks the allocator has handed out again must have been freed by a
   path we did not see (a free inside the C library, say): drop every
   live block that overlaps [start, start + size). */
static void drop_overlapping(Addr start, SizeT size)
{
   Addr end = start + (size == 0 ? 1 : size);
   Addr a = start;
   DataBlock* b = live_block_at(a);

   if (b != NULL)
      remove_live(b->start);
   for (;;) {
      LiveEntry* e;
      VG_(OSetGen_ResetIterAt)(live_blocks, &a);
      e = VG_(OSetGen_Next)(live_blocks);
      if (e == NULL || e->block->start >= end)
         break;
      remove_live(e->block->start);
   }
}

void cg_data_block_allocated(DataKind kind, const Addr* frames,
                             UInt n_frames, Addr start, SizeT size)
{
   DataObject* obj;
   DataBlock* b;
   LiveEntry* e;

   if (!enabled)
      return;
   obj = object_for(kind, frames, n_frames, NULL, 0);
   if (obj->blocks == 0)
      obj->first_block_size = size;
   obj->blocks++;
   obj->bytes += size;
   /* blocks first: the stride of an object with blocks may be being
      written by the simulator thread (fix_stride) */
   if (obj->blocks == 1 && obj->stride == 0 && size > 0
       && size < ELEMENT_BLOCK)
      set_stride(obj, size);   /* one element; later blocks too */
   drop_overlapping(start, size);
   forget_other(start, size);
   b = new_block(start, size, obj);
   e = VG_(OSetGen_AllocNode)(live_blocks, sizeof *e);
   e->start = start;
   e->block = b;
   VG_(OSetGen_Insert)(live_blocks, e);
}

void cg_data_block_freed(Addr start)
{
   DataBlock* b;

   if (!enabled || start == 0)
      return;
   b = live_block_at(start);
   if (b != NULL && b->start == start)
      remove_live(start);
}

void cg_data_mapping_removed(Addr start, SizeT size)
{
   if (enabled && size > 0)
      drop_overlapping(start, size);
}

/*------------------------------------------------------------*/
/*--- Classification                                       ---*/
/*------------------------------------------------------------*/

static DataBlock* stack_block_of(ThreadId tid)
{
   Addr top = VG_(thread_get_stack_max)(tid);
   SizeT size = VG_(thread_get_stack_size)(tid);
   DataBlock* b = stack_blocks[tid];

   if (top == 0 || size == 0)
      return NULL;
   if (stack_objects[tid] == NULL) {
      HChar name[32];
      VG_(sprintf)(name, "thread %u", tid);
      stack_objects[tid] = object_for(DATA_STACK, NULL, 0, name, 0);
      stack_objects[tid]->blocks = 1;
   }
   /* The range is the stack's whole extent, below the stack pointer
      too: it moves, the extent does not. */
   if (b == NULL || b->start != top + 1 - size || b->size != size) {
      if (b != NULL)
         retire_block(b);
      b = stack_blocks[tid] = new_block(top + 1 - size, size,
                                        stack_objects[tid]);
      stack_objects[tid]->bytes = size;
   }
   return b;
}

static DataBlock* stack_holding(Addr a)
{
   ThreadId tid;

   for (tid = 1; tid <= highest_tid; tid++) {
      DataBlock* b;
      if (!thread_live[tid])
         continue;
      b = stack_block_of(tid);
      if (b != NULL && a - b->start < b->size)
         return b;
   }
   return NULL;
}

/* A global's block grows to cover the offsets seen: the symbol table
   gives the start, not the size, and an address past what has been
   seen is classified again (which extends it). */
static DataBlock* global_holding(Addr a, UWord size)
{
   const HChar* name;
   const HChar* objname = NULL;
   PtrdiffT offset;
   DataObject* obj;
   DataBlock* b;
   Addr start;
   VgSectKind kind = VG_(DebugInfo_sect_kind)(&objname, a);

   if (kind == Vg_SectUnknown || kind == Vg_SectText || kind == Vg_SectPLT)
      return NULL;
   if (!VG_(get_datasym_and_offset)(VG_(current_DiEpoch)(), a, &name,
                                    &offset) || offset < 0)
      return NULL;
   start = a - offset;
   obj = object_for(DATA_GLOBAL, NULL, 0, name, start);
   b = obj->global_block;
   if (b == NULL) {
      obj->blocks = 1;
      if (objname != NULL)
         obj->objfile = VG_(strdup)("cg.data.objfile", objname);
      b = obj->global_block = new_block(start, 0, obj);
   }
   /* The block holds the start addresses seen (an access is classified
      by its start: a wide one may run into the next symbol, whose first
      bytes must stay that symbol's); bytes, what was touched. */
   if ((SizeT)offset + 1 > b->size)
      b->size = (SizeT)offset + 1;
   if ((ULong)offset + size > obj->bytes)
      obj->bytes = (ULong)offset + size;
   return b;
}

/* The running thread's stack first, then the live blocks: a thread's
   stack lies in the mapping pthread_create made for it, so an address
   in a mapping is looked for in the stacks before it is the mapping's. */
static DataBlock* look_up(Addr a, UWord size)
{
   DataBlock* b;

   n_classified++;
   b = running_stack;
   if (b != NULL && a - b->start < b->size)
      return b;
   b = live_block_at(a);
   if (b != NULL && a - b->start >= b->size)
      b = NULL;                       /* a block of size 0 */
   if (b == NULL || b->obj->kind == DATA_MMAP) {
      DataBlock* st = stack_holding(a);
      if (st != NULL)
         return st;
   }
   if (b != NULL)
      return b;
   b = global_holding(a, size);
   if (b != NULL)
      return b;
   return &other_block;
}

/* Out of line: the sites' own check settles most accesses. */
static __attribute__((noinline)) DataBlock* classify(Addr a, UWord size)
{
   AddrCacheEntry* e = addr_cache_entry(a);
   DataBlock* b = e->block;

   Addr granule = a & ~(Addr)15;

   if (b == &other_block) {
      if (e->other_granule == granule && e->gen == other_epoch
          && (e->other_starts >> (a & 15)) & 1)
         return b;
   } else if (b != NULL && a - b->start < b->size && b->gen == e->gen) {
      return b;
   }
   b = look_up(a, size);
   n_classified_as[b->obj->kind]++;
   if (b == &other_block) {
      if (e->block != &other_block || e->other_granule != granule
          || e->gen != other_epoch) {
         e->other_starts = 0;
         e->other_granule = granule;
      }
      e->other_starts |= (UShort)(1 << (a & 15));
      e->gen = other_epoch;
   } else {
      e->gen = b->gen;
   }
   e->block = b;
   return b;
}

void cg_data_memory_map_changed(void)
{
   other_epoch++;
}

/*------------------------------------------------------------*/
/*--- Lines and fields                                     ---*/
/*------------------------------------------------------------*/

static UWord line_hash(const void* e)
{
   const LineRec* l = e;
   return l->hash;
}

static LineRec* line_for(DataObject* obj, CostCentre* cc)
{
   UWord h = mix(obj->id, (UWord)cc);
   LineRec* l = line_table.buckets[h & (line_table.n_buckets - 1)];

   for (; l != NULL; l = l->next_in_bucket)
      if (l->obj == obj && l->cc == cc)
         return l;
   l = record_alloc(sizeof *l);
   l->hash = h;
   l->obj = obj;
   l->cc = cc;
   table_add(&line_table, l, h, line_hash);
   return l;
}

static UWord field_hash(const void* e)
{
   const FieldRec* f = e;
   return f->hash;
}

static FieldRec* field_for(DataObject* obj, UWord offset)
{
   UWord h = mix(obj->id, offset);
   FieldRec* f = field_table.buckets[h & (field_table.n_buckets - 1)];

   for (; f != NULL; f = f->next_in_bucket)
      if (f->obj == obj && f->offset == offset)
         return f;
   f = record_alloc(sizeof *f);
   f->hash = h;
   f->obj = obj;
   f->offset = offset;
   f->next_of_object = obj->fields;
   obj->fields = f;
   table_add(&field_table, f, h, field_hash);
   return f;
}

/* The element size is now known: the plain offsets kept so far are
   folded into offset modulo it.  Records folded away keep a NULL
   object, so no site's cached pointer matches them again. */
static void fix_stride(DataObject* obj)
{
   FieldRec* f = obj->fields;
   FieldRec* past = NULL;      /* records at offsets past one element */
   UWord stride;

   if (obj->delta_gcd != 0 && obj->delta_gcd <= SMALL_BLOCK)
      stride = obj->delta_gcd;
   else if (obj->first_block_size > 0 && obj->first_block_size <= SMALL_BLOCK)
      stride = obj->first_block_size;
   else
      stride = obj->widest_access > 0 ? obj->widest_access : 1;
   set_stride(obj, stride);
   obj->fields = NULL;
   while (f != NULL) {
      FieldRec* next = f->next_of_object;
      if (f->offset < stride) {
         f->next_of_object = obj->fields;
         obj->fields = f;
      } else {
         f->next_of_object = past;
         past = f;
      }
      f = next;
   }
   while (past != NULL) {
      FieldRec* next = past->next_of_object;
      FieldRec* into = field_for(obj, past->offset % stride);
      UInt k;
      for (k = 0; k < N_DATA_COUNTS; k++)
         into->count[k] += past->count[k];
      past->obj = NULL;
      past = next;
   }
}

static UWord gcd(UWord a, UWord b)
{
   while (b != 0) {
      UWord t = a % b;
      a = b;
      b = t;
   }
   return a;
}

/* Element size detection, over an object's first accesses: the
   distances between consecutive accesses of one site within one block
   (last_addr is cleared when the site is bound to another block). */
static void learn_stride(CountingSite* c, Addr addr)
{
   DataObject* obj = c->obj;

   if (c->last_addr != 0) {
      UWord delta = addr > c->last_addr ? addr - c->last_addr
                                        : c->last_addr - addr;
      if (delta != 0)
         obj->delta_gcd = gcd(obj->delta_gcd, delta);
   }
   c->last_addr = addr;
   if (c->size > obj->widest_access)
      obj->widest_access = c->size;
   if (++obj->accesses_seen == DETECT_ACCESSES)
      fix_stride(obj);
}

/*------------------------------------------------------------*/
/*--- Sites                                                ---*/
/*------------------------------------------------------------*/

/* Both halves come from pools of their own, dense: a site's halves are
   read at every access, and scattered among the translation's other
   records they missed the host's caches (sqlite3 7.5 s against 6.55 s
   with dense pools).  They are freed with their translation
   (free_sites, from cg_costs.c), once nothing is pending for them
   (cg_main.c syncs first), and reused. */
#define COUNTING_BYTES 64
#define SLAB_SITES     4096

static void flush_pending(CountingSite* c);

/* Freed sites, with their counting halves, linked through ->free_next */
static DataSite* free_sites;
static DataSite** site_slabs;          /* every slab, for flush_all */
static UInt n_site_slabs;
static DataSite* site_cursor;          /* bump allocation */
static DataSite* site_end;
static CountingSite* counting_cursor;
static CountingSite* counting_end;

static DataSite* site_alloc(void)
{
   DataSite* s = free_sites;

   if (s != NULL) {
      free_sites = s->free_next;
      return s;
   }
   if (site_cursor == site_end) {
      site_cursor = VG_(malloc)("cg.data.sites",
                                SLAB_SITES * sizeof(DataSite));
      site_end = site_cursor + SLAB_SITES;
      site_slabs = VG_(realloc)("cg.data.sites", site_slabs,
                                (n_site_slabs + 1) * sizeof(DataSite*));
      site_slabs[n_site_slabs++] = site_cursor;
   }
   s = site_cursor++;
   if (counting_cursor == counting_end) {
      UChar* raw = VG_(malloc)("cg.data.counting",
                               (SLAB_SITES + 1) * COUNTING_BYTES);
      counting_cursor = (CountingSite*)(((UWord)raw + COUNTING_BYTES - 1)
                                        & ~(UWord)(COUNTING_BYTES - 1));
      counting_end = counting_cursor + SLAB_SITES;
   }
   s->counting = counting_cursor++;
   return s;
}

DataSite* cg_data_new_site(BlockInfo* block, CostCentre* cc, Int size,
                           Bool is_write)
{
   DataSite* s = site_alloc();
   CountingSite* c = s->counting;

   tl_assert(sizeof(CountingSite) <= COUNTING_BYTES);
   VG_(memset)(s, 0, sizeof *s);
   VG_(memset)(c, 0, sizeof *c);
   s->block = &no_block;
   s->gen = 1;          /* never no_block's */
   s->size = (UShort)size;
   s->base = is_write ? WRITE_BASE : READ_BASE;
   s->counting = c;
   c->cc = cc;
   c->size = (UShort)size;
   c->base = s->base;
   c->first = is_write ? EV_DW : EV_DR;
   c->obj = NULL;       /* bound at the first access */
   s->next_in_block = block->data_sites;
   block->data_sites = s;
   return s;
}

/* Every site's pending hits into its records (free sites have none). */
static void flush_all(void)
{
   UInt k;

   for (k = 0; k < n_site_slabs; k++) {
      DataSite* s = site_slabs[k];
      DataSite* end = k + 1 == n_site_slabs ? site_cursor
                                            : s + SLAB_SITES;
      for (; s < end; s++)
         flush_pending(s->counting);
   }
}

/* cg_costs.c frees the translation's memory: its sites go back to the
   pools.  Nothing can be pending for them (the discard synced). */
static void free_sites_of(BlockInfo* block)
{
   DataSite* s = block->data_sites;

   while (s != NULL) {
      DataSite* next = s->next_in_block;
      flush_pending(s->counting);
      s->free_next = free_sites;
      free_sites = s;
      s = next;
   }
   block->data_sites = NULL;
}

Bool cg_data_site_is(const DataSite* s, Int size, Bool is_write)
{
   return s->size == size && s->base == (is_write ? WRITE_BASE : READ_BASE);
}

/*------------------------------------------------------------*/
/*--- Counting                                             ---*/
/*------------------------------------------------------------*/

static inline void add_outcome(ULong* count, UWord outcome)
{
   count[0] += 1;
   count[1] += outcome != 0;
   count[2] += outcome >> 1;
}

/* The hits a site has kept, into its line and field records. */
static void flush_pending(CountingSite* c)
{
   if (c->pending == 0)
      return;
   c->line->count[c->base] += c->pending;
   if (c->field != NULL)
      c->field->count[c->base] += c->pending;
   c->pending = 0;
}

/* The counting side: from a bind on, a site's accesses count for the
   bound block's object, at their offset from its start. */
static void bind(CountingSite* c, const DataBlock* b)
{
   if (c->obj != b->obj) {
      if (c->obj != NULL)
         flush_pending(c);
      c->line = NULL;
      c->field = NULL;
   }
   if (c->obj != b->obj || c->start != b->start)
      c->last_addr = 0;
   c->obj = b->obj;
   c->start = b->start;
}

/* Every access the fast path of count_access does not settle: a miss,
   another field, a site's first access to an object, or an object whose
   element size is still being learnt. */
static __attribute__((noinline))
void count_slowly(CountingSite* c, Addr addr, UWord outcome)
{
   DataObject* obj = c->obj;
   UWord offset;
   FieldRec* f;

   if (c->line != NULL)
      flush_pending(c);
   else
      c->line = line_for(obj, c->cc);
   add_outcome(c->line->count + c->base, outcome);
   if (!obj->has_fields) {
      c->field = NULL;
      return;
   }
   offset = addr - c->start;
   if (UNLIKELY(obj->stride == 0))
      learn_stride(c, addr);
   if (offset >= obj->stride && obj->stride != 0)
      offset = offset_in_element(obj, offset);
   if (c->field != NULL && offset == c->field_offset) {
      f = c->field;          /* a miss on the same field */
   } else {
      f = field_for(obj, offset);
      /* Kept only once the element size is known: before, fields are
         kept by plain offset and may be folded into others
         (fix_stride) */
      c->field = NULL;
      if (obj->stride != 0 && offset <= 0xFFFFFFFFUL) {
         c->field = f;
         c->field_offset = (UInt)offset;
      }
   }
   add_outcome(f->count + c->base, outcome);
}

/* One access with its outcome (0: D1 hit, 1: D1 miss, LL hit, 2: both
   missed).  Why it is shaped so: a D1 hit (nearly every access) to the
   field the site touched last only adds one to the site's pending
   count, on the cache line the simulator loaded anyway; the line and
   field records, scattered, are written only when the field, the object
   or the outcome changes (and at the end, cg_data_write).  Reading and
   writing both records at every access was a quarter of the simulator
   thread's time. */
static inline void count_access(CountingSite* c, Addr addr, UWord outcome)
{
   const DataObject* obj = c->obj;

   if (LIKELY(outcome == 0 && c->line != NULL)) {
      if (!obj->has_fields) {
         c->pending++;
         return;
      }
      if (LIKELY(c->field != NULL)) {
         UWord offset = addr - c->start;
         if (offset >= obj->stride)
            offset = offset_in_element(obj, offset);
         if (LIKELY(offset == c->field_offset)) {
            c->pending++;
            return;
         }
      }
   }
   count_slowly(c, addr, outcome);
}

/*------------------------------------------------------------*/
/*--- Classifying in the client's thread                   ---*/
/*------------------------------------------------------------*/

/* The block holding the site's access, if it is not the one the site
   had: the site is rebound to it, and the new block returned (else
   NULL). */
static inline DataBlock* rebind(DataSite* s, Addr addr)
{
   DataBlock* b = s->block;
   DataBlock* nb;

   if (LIKELY(addr - b->start < b->size && b->gen == s->gen))
      return NULL;
   nb = classify(addr, s->size);
   if (nb == b && nb->gen == s->gen)
      return NULL;          /* `other` again */
   s->block = nb;
   s->gen = nb->gen;
   return nb;
}

/* Without the log: classified, simulated and counted at once. */
static inline void process(DataSite* s, Addr addr)
{
   CountingSite* c = s->counting;
   DataBlock* nb = rebind(s, addr);
   UWord outcome = 0;

   if (nb != NULL)
      bind(c, nb);
   /* D1's MRU test first (the model keeps the mirror without the log):
      most accesses need no call of the model. */
   if (!cg_cache_mru_hit_by_line_addr(d1, addr, s->size))
      outcome = cg_sim_data_outcome(c->cc, addr, s->size, c->first,
                                    *collecting);
   if (LIKELY(*collecting != 0))
      count_access(c, addr, outcome);
}

/*------------------------------------------------------------*/
/*--- The access log's entries                             ---*/
/*------------------------------------------------------------*/

/* With the access log (cg_log.c: amd64, neither --toggle-collect nor
   --interval-size), the client's thread only classifies: each data
   access becomes a log entry (counting half | ENTRY_ACCESS, address),
   preceded, when the site's block changed, by (counting half |
   ENTRY_BIND, block).  Fetches that miss I1's MRU filter are logged
   between them as usual (cg_log_fetch), so the simulator sees fetches
   and data in program order.  The simulator thread simulates the access
   (D1 and the levels below, cg_sim_data_outcome) and counts it.  Bits
   63 and 62 are free in a first word (a cost centre's or a counting
   half's address has 48 bits at most, and cg_data.c writes no shared
   checker's constants there).

   A bind names the block by pointer, so a retired block's struct is
   reused only once every chunk that was open when it retired has been
   counted (retire_block, new_block). */
#define ENTRY_ACCESS ((UWord)1 << (sizeof(UWord) * 8 - 1))  /* 63 */
#define ENTRY_BIND   ((UWord)1 << (sizeof(UWord) * 8 - 2))  /* 62 */
#define ENTRY_TAGS   (ENTRY_ACCESS | ENTRY_BIND)

static inline void append_entry(UWord first, UWord second)
{
   UWord* at = (UWord*)log_word[0];

   if (UNLIKELY(at >= (UWord*)log_word[1])) {
      cg_log_append_words(first, second);
      return;
   }
   cg_log_store_entry(at, first, second);
   log_word[0] = (UWord)(at + 2);
}

static inline void log_access(DataSite* s, Addr addr)
{
   DataBlock* nb = rebind(s, addr);

   if (nb != NULL)
      append_entry((UWord)s->counting | ENTRY_BIND, (UWord)nb);
   append_entry((UWord)s->counting | ENTRY_ACCESS, addr);
}

/* The simulator's side (or the client's, without a simulator thread):
   runs of fetch entries go to cg_sim_log_entries. */
static void simulate_entries(const UWord* p, const UWord* end)
{
   while (p < end) {
      UWord first = p[0];
      CountingSite* c = (CountingSite*)(first & ~ENTRY_TAGS);

      __builtin_prefetch(p + 256);

      if ((first & ENTRY_TAGS) == 0) {
         const UWord* q = p + 2;
         while (q < end && (q[0] & ENTRY_TAGS) == 0)
            q += 2;
         cg_sim_log_entries(p, q);
         p = q;
         continue;
      }
      if (first & ENTRY_BIND) {
         bind(c, (const DataBlock*)p[1]);
      } else {
         Addr addr = p[1];
         /* The model sees the address as every logged access's is
            seen (cg_sim.c's decode_entry): without the top byte, so
            that LL's narrow tags never widen (which allocates) here */
         Addr simulated = addr & LOG_ADDR_MASK;
         UWord outcome = 0;
         /* Most accesses hit D1's MRU line: the model's own test
            inline, no call (no mirror is kept with the log) */
         if (!(d1_is_lru && cg_cache_model_mru_hit(d1, simulated, c->size)))
            outcome = cg_sim_data_outcome(c->cc, simulated, c->size,
                                          c->first, 1);
         count_access(c, addr, outcome);
      }
      p += 2;
   }
}

/*------------------------------------------------------------*/
/*--- The access buffer                                    ---*/
/*------------------------------------------------------------*/

/* Compiled code appends (site, address) pairs here and calls
   cg_data_drain when a group has left the cursor at or past
   buffer_limit; the slack beyond it holds a group's accesses.  Why: a
   helper call per access cost more than the work it did (sqlite3 ran
   2.8 s with a call per access against 1.4 s without the profile);
   appending is a few stores, and the loop below runs the same work
   without the calls.

   The buffer must be empty whenever anything the classification
   depends on changes, and before a fetch reaches the simulator or the
   log (LL sees data and fetch misses in program order), so
   cg_data_drain runs first in: every such fetch, the allocator and
   guarded-access helpers, before and after each system call, at a
   thread switch or exit, a discarded translation (its sites go with
   it), a fork and the end of the run.  --toggle-collect and
   --interval-size read or change what is counted between accesses:
   with them each access calls cg_data_access. */
#define BUFFER_ENTRIES 4096
#define BUFFER_SLACK   64      /* more than a group's data events */

static UWord buffer[2 * (BUFFER_ENTRIES + BUFFER_SLACK)];
/* Written at every access: on a cache line of its own, which the
   simulator thread never reads (the collecting word, which it read
   next to this one, cost matrix_walk a transfer between cores per D1
   miss: 1.3 s against 1.1 s) */
static struct __attribute__((aligned(64))) {   /* a whole line */
   UWord* cursor;
} buffer_state = { buffer };
#define buffer_cursor (buffer_state.cursor)
static Bool buffering;

Bool cg_data_buffering(void)
{
   return buffering;
}

UWord** cg_data_cursor_word(void)
{
   return &buffer_cursor;
}

const UWord* cg_data_buffer_limit(void)
{
   return buffer + 2 * BUFFER_ENTRIES;
}

/* The buffer's (site, address) pairs as log entries.  With room in the
   chunk for a bind and an access per pair (nearly always), without a
   check of the limit at each. */
static void log_buffer(const UWord* p, const UWord* end)
{
   UWord* at = (UWord*)log_word[0];

   if ((UWord)((UWord*)log_word[1] - at) < 2 * (UWord)(end - p)) {
      for (; p < end; p += 2)
         log_access((DataSite*)p[0], (Addr)p[1]);
      return;
   }
   for (; p < end; p += 2) {
      DataSite* s = (DataSite*)p[0];
      Addr addr = p[1];
      DataBlock* nb = rebind(s, addr);
      if (UNLIKELY(nb != NULL)) {
         cg_log_store_entry(at, (UWord)s->counting | ENTRY_BIND, (UWord)nb);
         at += 2;
      }
      cg_log_store_entry(at, (UWord)s->counting | ENTRY_ACCESS, addr);
      at += 2;
   }
   log_word[0] = (UWord)at;
}

VG_REGPARM(0) void cg_data_drain(void)
{
   const UWord* p;
   const UWord* end = buffer_cursor;

   if (end == buffer)
      return;
   /* Emptied first: nothing below appends, but be safe if it did. */
   buffer_cursor = buffer;
   if (logging) {
      log_buffer(buffer, end);
      return;
   }
   for (p = buffer; p < end; p += 2)
      process((DataSite*)p[0], (Addr)p[1]);
}

void cg_data_translation_discarded(BlockInfo* block)
{
   if (!enabled)
      return;
   cg_data_drain();
   /* Its sites are freed with it: nothing may be pending for them */
   if (logging && block != NULL && block->data_sites != NULL)
      cg_log_drain();
}

void cg_data_sync(void)
{
   if (!enabled)
      return;
   cg_data_drain();
   if (logging)
      cg_log_drain();
}

VG_REGPARM(2) void cg_data_access(DataSite* s, Addr addr)
{
   cg_data_drain();
   if (logging)
      log_access(s, addr);
   else
      process(s, addr);
}

VG_REGPARM(2) void cg_data_access_counted(DataSite* s, Addr addr)
{
   s->counting->cc->count[s->base == READ_BASE ? EV_DR : EV_DW]
      += *collecting;
   cg_data_access(s, addr);
}

VG_REGPARM(1) void cg_data_fetch(InstrInfo* ii)
{
   if (buffer_cursor != buffer)
      cg_data_drain();
   if (logging)
      cg_log_fetch(ii);
   else
      cg_sim_fetch(ii);
}

static void before_fork(ThreadId tid)
{
   cg_data_sync();
}

void cg_data_thread_runs(ThreadId tid)
{
   if (!enabled)
      return;
   cg_data_drain();
   if (!thread_live[tid]) {
      /* A new stack: addresses in it may have been answered `mmap` */
      thread_live[tid] = True;
      VG_(memset)(addr_cache, 0, ADDR_CACHE_SIZE * sizeof(AddrCacheEntry));
   }
   if (tid > highest_tid)
      highest_tid = tid;
   running_stack = stack_block_of(tid);
}

void cg_data_thread_exits(ThreadId tid)
{
   if (enabled)
      cg_data_drain();
   if (enabled)
      thread_live[tid] = False;
   if (enabled && running_stack == stack_blocks[tid])
      running_stack = NULL;
   if (enabled && stack_blocks[tid] != NULL) {
      retire_block(stack_blocks[tid]);
      stack_blocks[tid] = NULL;
   }
}

/* The client's thread, before each hand-over of the log and while it
   waits for the simulator. */
static void serve_simulator(void)
{
   provide_region();
}

void cg_data_init(Bool with_log)
{
   enabled = cg_clo.data_profile;
   if (!enabled)
      return;
   collecting = cg_control_collecting_word();
   buffering = cg_clo.n_toggle_patterns == 0 && cg_clo.interval_size == 0;
   logging = with_log && buffering;
   if (logging) {
      log_word = cg_log_cursor_and_limit();
      cg_log_set_data_profile(simulate_entries, serve_simulator);
   }
   VG_(atfork)(before_fork, NULL, NULL);
   cg_costs_on_block_freed(free_sites_of);
   d1 = cg_sim_d1();
   d1_is_lru = cg_sim_d1_is_lru();
   table_init(&object_table, "cg.data.objects", False);
   table_init(&line_table, "cg.data.lines", True);
   table_init(&field_table, "cg.data.fields", True);
   live_blocks = VG_(OSetGen_Create)(offsetof(LiveEntry, start), cmp_live,
                                     VG_(malloc), "cg.data.live", VG_(free));
   stack_blocks = VG_(calloc)("cg.data.stacks", VG_N_THREADS,
                              sizeof(DataBlock*));
   stack_objects = VG_(calloc)("cg.data.stacks", VG_N_THREADS,
                               sizeof(DataObject*));
   thread_live = VG_(calloc)("cg.data.threads", VG_N_THREADS, sizeof(Bool));
   addr_cache = VG_(calloc)("cg.data.addr_cache", ADDR_CACHE_SIZE,
                            sizeof(AddrCacheEntry));
   other_object = object_for(DATA_OTHER, NULL, 0, "other", 0);
   other_block.start = 0;
   other_block.size = 0;
   other_block.obj = other_object;
   other_block.gen = next_gen++;
}

/*------------------------------------------------------------*/
/*--- For the file's writer (cg_data_file.c)               ---*/
/*------------------------------------------------------------*/

void cg_data_finish(void)
{
   DataObject* o;

   if (!enabled)
      return;
   cg_data_sync();
   /* The simulator thread is idle from here on: folding fields
      (fix_stride) makes records in this thread. */
   counting_in_client = True;
   flush_all();
   for (o = objects_created; o != NULL; o = o->next_created)
      if (o->has_fields && o->stride == 0)
         fix_stride(o);
}

const DataObject* cg_data_object_at(Addr a, UWord* offset)
{
   DataBlock* b = live_block_at(a);

   if (b == NULL || b->size == 0)
      return NULL;
   *offset = a - b->start;
   return b->obj;
}

DataObject* cg_data_objects(UInt* n_objects_out)
{
   *n_objects_out = n_objects;
   return objects_created;
}

const DataObject* cg_data_other_object(void)
{
   return other_object;
}

void cg_data_for_each_line(void (*fn)(LineRec* line, void* arg), void* arg)
{
   UWord b;

   for (b = 0; b < line_table.n_buckets; b++) {
      LineRec* l;
      for (l = line_table.buckets[b]; l != NULL; l = l->next_in_bucket)
         fn(l, arg);
   }
}

UWord cg_data_n_lines(void)
{
   return line_table.n_entries;
}

void cg_data_print_stats(void)
{
   if (!enabled)
      return;
   VG_(dmsg)("data profile: %u objects, %lu lines, %lu fields; "
             "%llu look-ups\n",
             n_objects, line_table.n_entries, field_table.n_entries,
             n_classified);
   VG_(dmsg)("data look-ups found: heap %llu, mmap %llu, global %llu, "
             "stack %llu, other %llu; address cache epochs %u\n", n_classified_as[DATA_HEAP],
             n_classified_as[DATA_MMAP], n_classified_as[DATA_GLOBAL],
             n_classified_as[DATA_STACK], n_classified_as[DATA_OTHER],
             other_epoch);
}
