/* cg_costs.c -- cost centres and the tables that point at them.

   Owns: the interned file/function strings, the cost-centre table
   keyed by (file, function, line), the debug-info lookups that map an
   instruction address to its cost centre, and the per-translation
   tables of fetch sites.
   Must not: run at client run time (everything here happens while
   translating, when a translation is discarded, or at exit).

   A translation's fetch sites and execution counters die with the
   translation, after its counts are added to the cost centres; those
   live on, so a block that is discarded and retranslated (or a library
   that is unloaded and reloaded) adds to the same counts. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "cg_costs.h"
#include "cg_log_entry.h"

#define UNKNOWN_NAME "???"

/* Interned paths and function names: one copy of each, compared by
   address everywhere else. */
typedef struct _InternedString {
   struct _InternedString* next;
   UInt                    hash;
   UInt                    rank;   /* place in byte-wise order, once
                                      cg_costs_sorted has ranked them */
   HChar                   text[0];
} InternedString;

static InternedString* interned_string_of(const HChar* text)
{
   return (InternedString*)(text - __builtin_offsetof(InternedString, text));
}

static InternedString** string_buckets;
static UInt            string_n_buckets;
static UInt            string_count;
/* Cost centres by (file, function, line): open addressing, with each
   key in its slot, so that a look-up reads one slot instead of walking
   a chain of cost centres (whose key fields lie past their counts: a
   cache miss per node, most of cg_costs_for_instr's own time).  At most
   half the slots are used. */
typedef struct {
   const HChar* file;     /* NULL: a free slot */
   const HChar* fn;
   CostCentre*  cc;
   Int          line;
} CcSlot;

static CcSlot*         cc_slots;
static UInt            cc_n_slots;      /* a power of two */
static UInt            cc_count;
static CostCentre**    cc_by_index;     /* cc_count of them */
static UInt            cc_by_index_size;
static VgHashTable*    block_table;     /* BlockInfo by translation key */
static BlockInfo*      unlinked_blocks; /* discarded but maybe running */
static CgLookupStats   lookup_stats;

static UInt n_cc_events;

void cg_costs_init(Bool all_events)
{
   n_cc_events = all_events ? CG_N_EVENTS : EV_BI_MISPRED + 1;
   string_n_buckets = 1024;
   string_buckets = VG_(calloc)("cg.costs.strings", string_n_buckets,
                                sizeof(InternedString*));
   cc_n_slots = 8192;
   cc_slots = VG_(calloc)("cg.costs.slots", cc_n_slots, sizeof(CcSlot));
   block_table = VG_(HT_construct)("cg.costs.blocks");
}

static UInt string_hash(const HChar* s)
{
   UInt h = 2166136261u;          /* FNV-1a */
   for (; *s != '\0'; s++)
      h = (h ^ (UChar)*s) * 16777619u;
   return h;
}

static void strings_grow(void)
{
   UInt old_n = string_n_buckets, i;
   InternedString** old = string_buckets;

   string_n_buckets *= 2;
   string_buckets = VG_(calloc)("cg.costs.strings", string_n_buckets,
                                sizeof(InternedString*));
   for (i = 0; i < old_n; i++) {
      InternedString* is = old[i];
      while (is != NULL) {
         InternedString* next = is->next;
         UInt b = is->hash & (string_n_buckets - 1);
         is->next = string_buckets[b];
         string_buckets[b] = is;
         is = next;
      }
   }
   VG_(free)(old);
}

static const HChar* intern(const HChar* s)
{
   UInt hash = string_hash(s);
   UInt b = hash & (string_n_buckets - 1);
   SizeT len;
   InternedString* is;

   for (is = string_buckets[b]; is != NULL; is = is->next)
      if (is->hash == hash && VG_(strcmp)(is->text, s) == 0)
         return is->text;

   len = VG_(strlen)(s);
   is = VG_(malloc)("cg.costs.string", sizeof(InternedString) + len + 1);
   is->hash = hash;
   VG_(memcpy)(is->text, s, len + 1);
   is->next = string_buckets[b];
   string_buckets[b] = is;
   string_count++;
   if (string_count > 2 * string_n_buckets)
      strings_grow();
   return is->text;
}

/* "dir/file", or just "file" when the directory is unknown.  No
   normalisation: the path is reported as the debug info spells it. */
static const HChar* intern_path(const HChar* dir, const HChar* file)
{
   SizeT dir_len, file_len;
   HChar* joined;
   const HChar* result;

   if (dir == NULL || dir[0] == '\0')
      return intern(file);
   dir_len  = VG_(strlen)(dir);
   file_len = VG_(strlen)(file);
   joined = VG_(malloc)("cg.costs.path", dir_len + file_len + 2);
   VG_(memcpy)(joined, dir, dir_len);
   joined[dir_len] = '/';
   VG_(memcpy)(joined + dir_len + 1, file, file_len + 1);
   result = intern(joined);
   VG_(free)(joined);
   return result;
}

static UInt cc_hash(const HChar* file, const HChar* fn, Int line)
{
   UWord h = (UWord)file * 31 + (UWord)fn * 17 + (UWord)(UInt)line;
   h ^= h >> 17;
   h *= 0x9E3779B1u;
   return (UInt)(h ^ (h >> 13));
}

/* The slot holding the key, or the free slot where it belongs. */
static CcSlot* cc_slot(const HChar* file, const HChar* fn, Int line)
{
   UInt mask = cc_n_slots - 1;
   UInt i = cc_hash(file, fn, line) & mask;

   for (;; i = (i + 1) & mask) {
      CcSlot* slot = &cc_slots[i];
      if (slot->file == NULL
          || (slot->file == file && slot->fn == fn && slot->line == line))
         return slot;
   }
}

static void cc_grow(void)
{
   UInt i;

   cc_n_slots *= 2;
   VG_(free)(cc_slots);
   cc_slots = VG_(calloc)("cg.costs.slots", cc_n_slots, sizeof(CcSlot));
   for (i = 0; i < cc_count; i++) {
      CostCentre* cc = cc_by_index[i];
      CcSlot* slot = cc_slot(cc->file, cc->fn, cc->line);
      slot->file = cc->file;
      slot->fn   = cc->fn;
      slot->line = cc->line;
      slot->cc   = cc;
   }
}

/* Blocks and groups: hundreds of thousands of small pieces (cc1 has
   125,000 blocks and more groups) that live as long as a translation.
   They come from 64 KiB chunks, with one free list per size in 8-byte
   units, because the general allocator's header and redzone per piece
   cost about as much as a group's contents. */
#define PIECE_UNIT       8
#define PIECE_MAX_UNITS  64           /* larger pieces use VG_(malloc) */
#define PIECE_CHUNK      (64 * 1024)

typedef struct _FreePiece { struct _FreePiece* next; } FreePiece;

typedef struct {
   FreePiece* free_pieces[PIECE_MAX_UNITS + 1];
   UChar*     chunk_next;
   SizeT      chunk_left;
} PiecePool;

/* Groups' execution counters have a pool of their own: the group
   checkers add to one at every run, and a translation's few counters
   then share a cache line instead of taking one each (in the group
   records they were as far apart as the records are long). */
static PiecePool block_pool, counter_pool;

static SizeT piece_units(SizeT bytes)
{
   return (bytes + PIECE_UNIT - 1) / PIECE_UNIT;
}

static void* piece_alloc(PiecePool* pool, const HChar* cost_centre,
                         SizeT bytes)
{
   SizeT units = piece_units(bytes);
   void* piece;

   if (units > PIECE_MAX_UNITS)
      return VG_(malloc)(cost_centre, bytes);
   if (pool->free_pieces[units] != NULL) {
      piece = pool->free_pieces[units];
      pool->free_pieces[units] = pool->free_pieces[units]->next;
      return piece;
   }
   if (pool->chunk_left < units * PIECE_UNIT) {
      /* The tail of the old chunk is left unused: at most 511 bytes. */
      pool->chunk_next = VG_(malloc)("cg.costs.chunk", PIECE_CHUNK);
      pool->chunk_left = PIECE_CHUNK;
   }
   piece = pool->chunk_next;
   pool->chunk_next += units * PIECE_UNIT;
   pool->chunk_left -= units * PIECE_UNIT;
   return piece;
}

static void piece_free(PiecePool* pool, void* piece, SizeT bytes)
{
   SizeT units = piece_units(bytes);
   FreePiece* fp = piece;

   if (units > PIECE_MAX_UNITS) {
      VG_(free)(piece);
      return;
   }
   fp->next = pool->free_pieces[units];
   pool->free_pieces[units] = fp;
}

/* Cost centres live until exit, so they come from a pool of their own
   (see piece_alloc): the general allocator's per-piece work was a third
   of the cost of adding one, and a short run adds tens of thousands.
   All its pieces have one size, a multiple of 16, so each stays as
   aligned as its chunk: the log's codes need the low four bits (the
   assertion in cc_find_or_add checks every one). */
static PiecePool cc_pool;

UInt cg_costs_n_events(void)
{
   return n_cc_events;
}

static CostCentre* cc_alloc(void)
{
   SizeT bytes = offsetof(CostCentre, count) + n_cc_events * sizeof(ULong);
   CostCentre* cc;

   bytes = (bytes + 15) & ~(SizeT)15;
   cc = piece_alloc(&cc_pool, "cg.costs.cc", bytes);
   VG_(memset)(cc, 0, bytes);
   return cc;
}

/* Strings are interned, so pointer equality is name equality. */
static CostCentre* cc_find_or_add(const HChar* file, const HChar* fn,
                                  Int line)
{
   CcSlot* slot = cc_slot(file, fn, line);
   CostCentre* cc;

   if (slot->file != NULL)
      return slot->cc;

   cc = cc_alloc();
#if VG_WORDSIZE == 8
   /* The access log (amd64 only) keeps a code in the low bits of its
      address, and other things above bit 47. */
   tl_assert(((UWord)cc & ~LOG_CC_MASK) == 0);
#endif
   cc->file = file;
   cc->fn   = fn;
   cc->line = line;
   slot->file = file;
   slot->fn   = fn;
   slot->line = line;
   slot->cc   = cc;
   if (cc_count == cc_by_index_size) {
      cc_by_index_size = cc_by_index_size == 0 ? 1024 : 2 * cc_by_index_size;
      cc_by_index = VG_(realloc)("cg.costs.by_index", cc_by_index,
                                 cc_by_index_size * sizeof(CostCentre*));
   }
   cc->index = cc_count;
   cc_by_index[cc_count] = cc;
   cc_count++;
   if (cc_count > cc_n_slots / 2)
      cc_grow();
   return cc;
}

static void count_lookup(Bool has_file_line, Bool has_fn)
{
   if (has_file_line && has_fn)
      lookup_stats.lookups_full++;
   else if (has_file_line)
      lookup_stats.lookups_file_line++;
   else if (has_fn)
      lookup_stats.lookups_fn++;
   else
      lookup_stats.lookups_none++;
}

/* Names by the debug info's own pointers.  The names the symbol and
   line tables return point into their debug info's string tables, so
   equal pointers (in one epoch) are equal names: a name is worked out
   (demangled, or a path joined) and interned once per pointer, then
   found by a probe.  Pointers stay valid while the debug info that holds
   them is loaded; any unloading starts a new epoch, which empties the
   cache.  Open addressing, at most half full, never evicting (a fixed
   direct-mapped cache of 4,096 entries made cc1 demangle 5,972 times
   for its 4,881 symbols); for paths, remembering only the last one
   joined again whenever the file changed, as it often does in code
   with inline functions from headers (45-52 M cycles of python's
   start-up, now 9 M). */
typedef struct {
   const HChar* key1;     /* NULL: a free entry */
   const HChar* key2;
   const HChar* name;     /* interned */
} NameCacheEntry;

typedef struct {
   NameCacheEntry* entries;
   UInt            size;    /* a power of two, or 0 before first use */
   UInt            used;
   DiEpoch         epoch;
} NameCache;

static UInt name_cache_hash(const HChar* key1, const HChar* key2)
{
   ULong h = (ULong)(UWord)key1 * 0x9E3779B97F4A7C15ULL ^ (UWord)key2;
   h *= 0x9E3779B97F4A7C15ULL;
   return (UInt)(h >> 32);
}

static NameCacheEntry* name_cache_slot(NameCache* c, const HChar* key1,
                                       const HChar* key2)
{
   UInt mask = c->size - 1;
   UInt i = name_cache_hash(key1, key2) & mask;

   for (;; i = (i + 1) & mask) {
      NameCacheEntry* e = &c->entries[i];
      if (e->key1 == NULL || (e->key1 == key1 && e->key2 == key2))
         return e;
   }
}

static void name_cache_resize(NameCache* c, UInt size)
{
   NameCacheEntry* old = c->entries;
   UInt old_size = c->size, i;

   c->entries = VG_(calloc)("cg.costs.names", size, sizeof(NameCacheEntry));
   c->size = size;
   for (i = 0; i < old_size; i++)
      if (old[i].key1 != NULL)
         *name_cache_slot(c, old[i].key1, old[i].key2) = old[i];
   VG_(free)(old);
}

/* The entry for the two keys: found, or free (key1 NULL) for the
   caller to fill with name_cache_fill. */
static NameCacheEntry* name_cache_find(NameCache* c, DiEpoch epoch,
                                       const HChar* key1, const HChar* key2)
{
   if (c->size == 0) {
      name_cache_resize(c, 1024);
      c->epoch = epoch;
   }
   if (c->epoch.n != epoch.n) {
      VG_(memset)(c->entries, 0, c->size * sizeof(NameCacheEntry));
      c->used = 0;
      c->epoch = epoch;
   }
   return name_cache_slot(c, key1, key2);
}

static const HChar* name_cache_fill(NameCache* c, NameCacheEntry* e,
                                    const HChar* key1, const HChar* key2,
                                    const HChar* name)
{
   e->key1 = key1;
   e->key2 = key2;
   e->name = name;
   if (++c->used > c->size / 2)
      name_cache_resize(c, 2 * c->size);
   return name;
}

/* The function name of an address is what VG_(get_fnname) returns, but
   that demangles (C++) the symbol's name on every call: for cc1, a C++
   program with no line tables, that was about 1 s of a 9 s run, most of
   what --cache-sim=no adds to --tool=none.  The undemangled lookup
   finds the same symbol without demangling it, and its name is the
   key of the final names' cache; a miss asks VG_(get_fnname) itself,
   so the names are exactly its own.  VG_(get_fnname_raw) is the core's
   own (pub_core_debuginfo.h), not part of the tool interface, so it is
   declared here. */
extern Bool VG_(get_fnname_raw)(DiEpoch ep, Addr a, const HChar** buf);

static NameCache fn_names, paths;
static const HChar* unknown_name;   /* interned UNKNOWN_NAME */

/* The core's symbol search walks every debug info's mappings before it
   searches one symbol table: in cc1 437 cycles a look-up, 368 M cycles
   in all, for instructions that mostly lie in the symbol the previous
   one did.  So the last text symbol found is remembered with its
   address range, read from the symbol table itself, and an instruction
   inside it skips the search.  The answer is the core's: a valid debug
   info's symbols do not overlap (the core's reader truncates them) and
   live in mappings no other valid debug info shares, so the search for
   any address of the range ends at the same entry.  The range is cut
   to its debug info's text section, the region the search itself
   accepts, and is trusted only while the epoch lasts (unloading a debug
   info starts a new one).  The symbol table's accessors are the core's
   own (pub_core_debuginfo.h); on amd64 and x86 a symbol's addresses
   are one word. */
typedef struct { Addr main; } CoreSymAddrs;
extern Int  VG_(DebugInfo_syms_howmany)(const DebugInfo* di);
extern void VG_(DebugInfo_syms_getidx)(const DebugInfo* di, Int idx,
                                       CoreSymAddrs* addrs, UInt* size,
                                       const HChar** pri_name,
                                       const HChar*** sec_names,
                                       Bool* is_text, Bool* is_ifunc,
                                       Bool* is_global);

static struct {
   DiEpoch      epoch;
   Addr         first, last;   /* inclusive; raw NULL: nothing cached */
   const HChar* raw;
} last_symbol;

/* Remembers the text symbol that the core just named `raw` for `addr`
   if the same binary search finds it in the address's debug info. */
static void remember_symbol(DiEpoch epoch, Addr addr, const HChar* raw)
{
   DebugInfo* di = VG_(find_DebugInfo)(epoch, addr);
   Int low = 0, high;
   Addr text_first, text_last;

   last_symbol.raw = NULL;
   if (di == NULL)
      return;
   text_first = VG_(DebugInfo_get_text_avma)(di);
   text_last = text_first + VG_(DebugInfo_get_text_size)(di) - 1;
   high = VG_(DebugInfo_syms_howmany)(di) - 1;
   while (low <= high) {
      Int mid = low + (high - low) / 2;
      CoreSymAddrs addrs;
      UInt size;
      const HChar* name;
      Bool is_text;

      VG_(DebugInfo_syms_getidx)(di, mid, &addrs, &size, &name, NULL,
                                 &is_text, NULL, NULL);
      if (addr < addrs.main) {
         high = mid - 1;
      } else if (addr - addrs.main >= size) {
         low = mid + 1;
      } else {
         if (!is_text || name != raw)
            return;
         last_symbol.epoch = epoch;
         last_symbol.first = addrs.main > text_first ? addrs.main : text_first;
         last_symbol.last = addrs.main + (size - 1) < text_last
                            ? addrs.main + (size - 1) : text_last;
         last_symbol.raw = raw;
         return;
      }
   }
}

/* VG_(get_fnname_raw), answered from the last symbol where it can be. */
static Bool raw_function_name(DiEpoch epoch, Addr addr, const HChar** raw)
{
   if (last_symbol.raw != NULL && last_symbol.epoch.n == epoch.n
       && addr >= last_symbol.first && addr <= last_symbol.last) {
      *raw = last_symbol.raw;
      return True;
   }
   if (!VG_(get_fnname_raw)(epoch, addr, raw))
      return False;
   remember_symbol(epoch, addr, *raw);
   return True;
}

static const HChar* function_name(DiEpoch epoch, Addr instr_addr,
                                  Bool* has_fn)
{
   const HChar *raw, *final_name;
   NameCacheEntry* e;

   *has_fn = raw_function_name(epoch, instr_addr, &raw);
   if (!*has_fn)
      return unknown_name;
   e = name_cache_find(&fn_names, epoch, raw, NULL);
   if (e->key1 != NULL)
      return e->name;
   *has_fn = VG_(get_fnname)(epoch, instr_addr, &final_name);
   tl_assert(*has_fn);   /* the same symbol search found it just now */
   return name_cache_fill(&fn_names, e, raw, NULL, intern(final_name));
}

/* "dir/file" of a line-table entry, joined and interned once per pair
   of string-table pointers (joining and interning it for every
   instruction was a tenth of a short run's translation time). */
static const HChar* path_of(DiEpoch epoch, const HChar* dir,
                            const HChar* file)
{
   NameCacheEntry* e = name_cache_find(&paths, epoch, file, dir);

   if (e->key1 != NULL)
      return e->name;
   return name_cache_fill(&paths, e, file, dir, intern_path(dir, file));
}

/* File and line come from the line table, the function from the
   symbol table; either may be missing independently. */
static CostCentre* last_cc;

static void describe(Addr instr_addr, const HChar** path,
                     const HChar** fn, UInt* line, Bool* has_file_line,
                     Bool* has_fn)
{
   DiEpoch epoch = VG_(current_DiEpoch)();
   const HChar *file, *dir;

   if (unknown_name == NULL)
      unknown_name = intern(UNKNOWN_NAME);
   *line = 0;
   *has_file_line = VG_(get_filename_linenum)(epoch, instr_addr,
                                              &file, &dir, line);
   *path = *has_file_line ? path_of(epoch, dir, file) : unknown_name;
   if (!*has_file_line)
      *line = 0;
   *fn = function_name(epoch, instr_addr, has_fn);
}

void cg_costs_describe(Addr instr_addr, const HChar** path, const HChar** fn,
                       Int* line)
{
   Bool has_file_line, has_fn;
   UInt l;

   describe(instr_addr, path, fn, &l, &has_file_line, &has_fn);
   *line = (Int)l;
}

CostCentre* cg_costs_for_instr(Addr instr_addr, Bool count_lookup_stats)
{
   const HChar *path, *fn;
   UInt line;
   Bool has_file_line, has_fn;

   describe(instr_addr, &path, &fn, &line, &has_file_line, &has_fn);
   if (count_lookup_stats)
      count_lookup(has_file_line, has_fn);
   /* Consecutive instructions mostly share their line: the last one's
      cost centre is found without hashing (a chain walk that misses
      the host's caches). */
   if (last_cc == NULL || last_cc->file != path || last_cc->fn != fn
       || last_cc->line != (Int)line)
      last_cc = cc_find_or_add(path, fn, (Int)line);
   return last_cc;
}


static ULong* counter_alloc(void)
{
   ULong* counter = piece_alloc(&counter_pool, "cg.costs.counter",
                                sizeof(ULong));
   *counter = 0;
   return counter;
}

static void counter_free(ULong* counter)
{
   piece_free(&counter_pool, counter, sizeof(ULong));
}

static SizeT block_bytes(UInt n_fetch_sites)
{
   return sizeof(BlockInfo) + n_fetch_sites * sizeof(InstrInfo);
}

static SizeT group_bytes(UInt n_counts)
{
   return sizeof(EventGroup) + n_counts * sizeof(GroupCount);
}

/* The same address can have two live translations at once: function
   wrapping translates a wrapped function's code once redirected and
   once not.  Both stay in the table under the same key. */
BlockInfo* cg_costs_new_block(Addr key, UInt n_fetch_sites)
{
   BlockInfo* block;

   block = piece_alloc(&block_pool, "cg.costs.block",
                       block_bytes(n_fetch_sites));
   block->key = key;
   block->groups = NULL;
   block->owned = NULL;
   block->data_sites = NULL;
   block->code_start = key;
   block->cold_executions = 0;
   block->cold = False;
   block->promotion_due = False;
   block->n_fetch_sites = n_fetch_sites;
   block->n_fetch_sites_used = 0;
   VG_(HT_add_node)(block_table, block);
   return block;
}

EventGroup* cg_costs_new_group(BlockInfo* block, const GroupItem* items,
                               UInt n_items)
{
   EventGroup* group = piece_alloc(&block_pool, "cg.costs.group",
                                   group_bytes(n_items));
   UInt i;

   group->executions = counter_alloc();
   group->pool_counter = True;
   group->n_counts = n_items;
   for (i = 0; i < n_items; i++) {
      tl_assert(items[i].times <= 0xFFFF);
      group->counts[i].cc_index = items[i].cc->index;
      group->counts[i].event    = (UShort)items[i].event;
      group->counts[i].times    = (UShort)items[i].times;
   }
   group->next = block->groups;
   block->groups = group;
   return group;
}

void cg_costs_count_group_at(EventGroup* group, ULong* counter)
{
   tl_assert(group->pool_counter && *group->executions == 0);
   counter_free(group->executions);
   group->executions = counter;
   group->pool_counter = False;
}

typedef struct _BlockMem {
   struct _BlockMem* next;
   SizeT             bytes;    /* including this header */
} BlockMem;

void* cg_costs_block_alloc(BlockInfo* block, SizeT bytes)
{
   BlockMem* mem;

   bytes += sizeof(BlockMem);
   mem = piece_alloc(&block_pool, "cg.costs.owned", bytes);
   mem->next = block->owned;
   mem->bytes = bytes;
   block->owned = mem;
   return mem + 1;
}

BlockInfo* cg_costs_lookup_block(Addr key)
{
   return VG_(HT_lookup)(block_table, key);
}

/* Moving counts into the cost centres and zeroing the counters is
   right at any time, even for a translation that keeps running. */
static void fold_block(BlockInfo* block)
{
   EventGroup* group;
   UInt i;

   for (group = block->groups; group != NULL; group = group->next) {
      ULong executions = *group->executions;
      if (executions == 0)
         continue;
      for (i = 0; i < group->n_counts; i++) {
         const GroupCount* item = &group->counts[i];
         cc_by_index[item->cc_index]->count[item->event]
            += executions * item->times;
      }
      *group->executions = 0;
   }
}

static void (*block_freed_hook)(BlockInfo* block);

void cg_costs_on_block_freed(void (*fn)(BlockInfo* block))
{
   block_freed_hook = fn;
}

static void free_block(BlockInfo* block)
{
   EventGroup* group = block->groups;
   BlockMem* mem = block->owned;

   if (block_freed_hook != NULL)
      block_freed_hook(block);

   while (mem != NULL) {
      BlockMem* next = mem->next;
      piece_free(&block_pool, mem, mem->bytes);
      mem = next;
   }
   while (group != NULL) {
      EventGroup* next = group->next;
      if (group->pool_counter)
         counter_free(group->executions);
      piece_free(&block_pool, group, group_bytes(group->n_counts));
      group = next;
   }
   piece_free(&block_pool, block, block_bytes(block->n_fetch_sites));
}

void cg_costs_fold_all(void)
{
   BlockInfo* block;

   VG_(HT_ResetIter)(block_table);
   while ((block = VG_(HT_Next)(block_table)) != NULL)
      fold_block(block);
   for (block = unlinked_blocks; block != NULL; block = block->next)
      fold_block(block);
}

/* With two translations under one key we cannot tell which one the
   core dropped, and the other one's code still points into its table:
   fold the counts of one entry and unlink it, but keep it (still
   counted at exit) in that rare case. */
void cg_costs_discard_block(Addr key, Bool may_still_run)
{
   BlockInfo* block = VG_(HT_remove)(block_table, key);

   if (block == NULL)
      return;
   fold_block(block);
   if (!may_still_run && VG_(HT_lookup)(block_table, key) == NULL) {
      free_block(block);
   } else {
      block->next = unlinked_blocks;
      unlinked_blocks = block;
   }
}

/* Output order: path, then function (both byte-wise), then line. */
static Int cc_order(const void* a, const void* b)
{
   const CostCentre* x = *(const CostCentre* const*)a;
   const CostCentre* y = *(const CostCentre* const*)b;
   Int by_name;

   if (x->file != y->file) {
      by_name = VG_(strcmp)(x->file, y->file);
      if (by_name != 0)
         return by_name;
   }
   if (x->fn != y->fn) {
      by_name = VG_(strcmp)(x->fn, y->fn);
      if (by_name != 0)
         return by_name;
   }
   return x->line < y->line ? -1 : x->line > y->line ? 1 : 0;
}

static Int string_order(const void* a, const void* b)
{
   return VG_(strcmp)((*(InternedString* const*)a)->text,
                      (*(InternedString* const*)b)->text);
}

/* Every interned string gets its rank in byte-wise order: a few
   hundred or thousand strings sorted once, instead of two string
   comparisons at each of the n log n comparisons of cost centres
   (about 1 ms of a short run's 15 ms of overhead). */
static void rank_strings(void)
{
   InternedString** all = VG_(malloc)("cg.costs.ranks",
                                      (string_count + 1) * sizeof(*all));
   UInt i, n = 0;
   InternedString* is;

   for (i = 0; i < string_n_buckets; i++)
      for (is = string_buckets[i]; is != NULL; is = is->next)
         all[n++] = is;
   tl_assert(n == string_count);
   VG_(ssort)(all, n, sizeof(*all), string_order);
   for (i = 0; i < n; i++)
      all[i]->rank = i;
   VG_(free)(all);
}

/* A cost centre with its sort key: file rank, then function rank, then
   line, as cc_order orders them. */
typedef struct {
   ULong       names;   /* file rank << 32 | function rank */
   Int         line;
   CostCentre* cc;
} SortItem;

static Int sort_item_order(const void* a, const void* b)
{
   const SortItem* x = a;
   const SortItem* y = b;

   if (x->names != y->names)
      return x->names < y->names ? -1 : 1;
   return x->line < y->line ? -1 : x->line > y->line ? 1 : 0;
}

CostCentre** cg_costs_sorted(UInt* n_out)
{
   CostCentre** all = VG_(malloc)("cg.costs.sorted",
                                  (cc_count + 1) * sizeof(CostCentre*));
   SortItem* items = VG_(malloc)("cg.costs.sort_items",
                                 (cc_count + 1) * sizeof(SortItem));
   UInt i, n = 0;

   rank_strings();
   for (i = 0; i < cc_count; i++) {
      CostCentre* cc = cc_by_index[i];
      items[n].names = (ULong)interned_string_of(cc->file)->rank << 32
                       | interned_string_of(cc->fn)->rank;
      items[n].line = cc->line;
      items[n].cc = cc;
      n++;
   }
   tl_assert(n == cc_count);
   VG_(ssort)(items, n, sizeof(SortItem), sort_item_order);
   for (i = 0; i < n; i++)
      all[i] = items[i].cc;
   VG_(free)(items);
   *n_out = n;
   return all;
}

UInt cg_costs_n_strings(void)     { return string_count; }
UInt cg_costs_n_centres(void)     { return cc_count; }
UInt cg_costs_n_live_blocks(void) { return VG_(HT_count_nodes)(block_table); }
const CgLookupStats* cg_costs_lookup_stats(void) { return &lookup_stats; }

void cg_costs_for_each(void (*fn)(CostCentre* cc, void* arg), void* arg)
{
   UInt i;

   for (i = 0; i < cc_count; i++)
      fn(cc_by_index[i], arg);
}

Int cg_costs_order(const CostCentre* a, const CostCentre* b)
{
   return cc_order(&a, &b);
}

CostCentre* cg_costs_by_index(UInt index)
{
   tl_assert(index < cc_count);
   return cc_by_index[index];
}

UInt cg_costs_count(void)
{
   return cc_count;
}
