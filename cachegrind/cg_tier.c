/* cg_tier.c -- cold and hot translations of a block.

   Owns: which blocks are hot, when a cold one is promoted, and the
   helpers a cold translation calls instead of testing inline.
   Must not: emit IR (cg_deliver.c does) or simulate (cg_sim.c and the
   simulator thread do).

   Why: a hot translation tests every fetch and data access against the
   MRU filter inline.  That code is fast to run but expensive to
   translate: VEX's passes and its register allocator cost about twice
   as much for it as for the program's own IR, and most blocks of a
   program run only a few times (start-up code).  So a block is first
   translated cold: each run of events (an EventGroup) makes one call,
   to a helper below, which does in C exactly what the inline tests of
   the hot translation would do, in the same order, calling the same
   log helpers with the same arguments.  The counts therefore cannot
   depend on which translation ran.

   Promotion: a cold translation's first helper call counts the block's
   executions and notes the block when it reaches --hot-threshold.  The
   next time the scheduler is about to enter compiled code, the noted
   blocks' translations are discarded (the tool's discard hook marks
   them hot here), and the next jump to each translates it again, hot.
   Nothing is discarded while it runs, so nothing runs twice. */

#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "cg_tier.h"
#include "cg_cache.h"
#include "cg_log.h"
#include "cg_sim.h"

static Bool  tiers_on;
static ULong hot_threshold;      /* --hot-threshold */
static VgHashTable* hot_blocks;   /* of HotNode, keyed by block address */
/* Blocks a promotion discarded (the promoted one, and any other
   translation that covered its first byte) that have not been
   translated again: that translation does not count in --stats=yes,
   where the reference never translated them twice. */
static VgHashTable* retranslations;
static ULong n_promotions;
static ULong n_cold_translations;
static Bool  cold_first = True;   /* see cg_tier_block_is_cold */

typedef struct _HotNode {
   struct _HotNode* next;          /* VgHashNode layout */
   UWord            key;
} HotNode;

/* The L1 levels whose MRU mirrors the cold operations test. */
static const CacheLevel* i1_level;
static const CacheLevel* d1_level;

static Bool supported_arch(void)
{
#if defined(VGA_amd64) || defined(VGA_x86)
   return True;
#else
   return False;
#endif
}

void cg_tier_init(Bool cache_sim, Bool log_enabled, ULong threshold)
{
   const CacheLevel* i1 = cg_sim_i1();
   const CacheLevel* d1 = cg_sim_d1();

   hot_threshold = threshold;
   /* Without the log the inline tests call the simulator itself; the
      cold helpers only know the log's helpers. */
   tiers_on = cache_sim && log_enabled && hot_threshold > 0
              && supported_arch();
   if (!tiers_on)
      return;
   hot_blocks = VG_(HT_construct)("cg.tier.hot");
   retranslations = VG_(HT_construct)("cg.tier.again");
   i1_level = i1;
   d1_level = d1;
}

void cg_tier_print_stats(void)
{
   if (!tiers_on) {
      VG_(dmsg)("translations: all hot\n");
      return;
   }
   VG_(dmsg)("translations: %llu cold, %llu of them promoted to hot after "
             "%llu executions; cold first %s\n", n_cold_translations,
             n_promotions, hot_threshold,
             cold_first ? "throughout" : "until the cold code ran too often");
}

/* Cold-first pays only while most cold blocks stay cold: a promotion
   costs a second, hot translation and empties the core's look-up cache
   of translations, and a cold execution costs more than a hot one.  A
   program that runs most of its blocks hundreds of times (a compiler)
   would pay both for nearly every block.  So once the cold blocks have
   run MEAN_EXECUTIONS_LIMIT times each on average (after a start of
   MIN_COLD_SAMPLE translations), new blocks are translated hot at
   once; start-up code, which runs a few times, stays cold.  (Counting
   promotions instead reacts too late: a block is promoted only
   after its threshold.) */
#define MIN_COLD_SAMPLE       2000
#define MEAN_EXECUTIONS_LIMIT 100

Bool cg_tier_block_is_cold(Addr key)
{
   if (!tiers_on || !cold_first || VG_(HT_lookup)(hot_blocks, key) != NULL)
      return False;
   n_cold_translations++;
   return True;
}

static ULong n_cold_executions;   /* of all cold blocks */

static inline void note_cold_execution(void)
{
   if (++n_cold_executions >= MEAN_EXECUTIONS_LIMIT * n_cold_translations
       && n_cold_translations >= MIN_COLD_SAMPLE)
      cold_first = False;
}

static Bool promoting;   /* inside cg_tier_promote_due */

static void add_key(VgHashTable* set, Addr key)
{
   HotNode* node;

   if (VG_(HT_lookup)(set, key) != NULL)
      return;
   node = VG_(malloc)("cg.tier.key", sizeof(HotNode));
   node->key = key;
   VG_(HT_add_node)(set, node);
}

Bool cg_tier_take_retranslation(Addr key)
{
   HotNode* node;

   if (!tiers_on)
      return False;
   node = VG_(HT_remove)(retranslations, key);
   if (node == NULL)
      return False;
   VG_(free)(node);
   return True;
}

UInt cg_tier_n_pending_retranslations(void)
{
   return tiers_on ? VG_(HT_count_nodes)(retranslations) : 0;
}

/* Called for every translation the core discards, before its counters
   are folded.  A cold one that has reached the threshold was noted for
   promotion (or is discarded for another reason just as it would
   have been): it becomes hot. */
Bool cg_tier_translation_discarded(Addr key, ULong executions, Bool was_cold)
{
   if (promoting)
      add_key(retranslations, key);
   if (!tiers_on || !was_cold || executions < hot_threshold
       || VG_(HT_lookup)(hot_blocks, key) != NULL)
      return promoting;
   add_key(hot_blocks, key);
   n_promotions++;
   return promoting;
}

/* Blocks whose cold translation reached the threshold since the last
   time the scheduler entered compiled code.  A translation cannot be
   discarded while it runs (its counters and records would go), so the
   helper only notes it; cg_tier_promote_due discards it on the
   scheduler's next entry to compiled code (at most a time slice
   later: until then it runs cold, with the same counts). */
#define MAX_DUE 256
#define PROMOTION_INTERVAL 2000000   /* blocks run: some milliseconds */
static struct { Addr key; Addr code_start; } due[MAX_DUE];
static UInt n_due;

static void note_due(BlockInfo* block)
{
   if (n_due == MAX_DUE)
      return;   /* retried at the block's next execution */
   due[n_due].key = block->key;
   due[n_due].code_start = block->code_start;
   n_due++;
   block->promotion_due = True;
}

/* The tool interface offers VG_(discard_translations_safely), which
   insists on being called while the core handles a client request.
   Here the core is just as surely outside compiled code (it is about to
   enter it), so we call the core's own function, declared as in
   pub_core_transtab.h. */
extern void VG_(discard_translations)(Addr start, ULong range,
                                      const HChar* who);

void cg_tier_promote_due(ULong blocks_done)
{
   static ULong last_promotion;
   UInt i;

   /* Every discard empties the core's fast look-up cache of
      translations, so promotions are batched. */
   if (n_due == 0 || (n_due < MAX_DUE
                      && blocks_done - last_promotion < PROMOTION_INTERVAL))
      return;
   last_promotion = blocks_done;
   /* The scheduler may already hold the code address of one of the
      translations discarded here (it runs a block it has just chained
      to without another look-up), so their records must outlive it. */
   promoting = True;
   for (i = 0; i < n_due; i++) {
      BlockInfo* block = cg_costs_lookup_block(due[i].key);
      /* Gone meanwhile (discarded, or retranslated and now hot). */
      if (block == NULL || !block->cold || !block->promotion_due)
         continue;
      /* The discard hook (cg_tier_translation_discarded) marks it hot;
         the next jump to it translates it again. */
      VG_(discard_translations)(due[i].code_start, 1,
                                "cachegrind: promotion");
   }
   promoting = False;
   n_due = 0;
}

/*------------------------------------------------------------*/
/*--- The cold helpers                                     ---*/
/*------------------------------------------------------------*/

/* Each mirrors the inline test cg_deliver.c emits for the same
   operation in a hot translation; see not_mru_const, fetch_not_mru and
   not_mru_access there.  They must stay exactly equivalent. */

static inline Bool i1_not_mru(UWord block)
{
   return *cg_cache_mru_slot(i1_level, block)
          != cg_cache_mru_value(i1_level, block);
}

static inline Bool fetch_needs_log(const ColdOp* op)
{
   const InstrInfo* site = (const InstrInfo*)op->word;
   Int line_bits = i1_level->line_bits;
   UWord first = site->addr >> line_bits;
   UWord last  = (site->addr + site->len - 1) >> line_bits;

   switch (op->kind) {
   case COLD_FETCH:           return i1_not_mru(first);
   case COLD_FETCH_ALWAYS:    return True;
   case COLD_FETCH_LAST_ONLY: return i1_not_mru(last);
   default:                   return i1_not_mru(first) | i1_not_mru(last);
   }
}

static inline Bool data_needs_log(Addr addr, UWord size)
{
   return !cg_cache_mru_hit_by_line_addr(d1_level, addr, size);
}

/* The log helper the hot translation calls for this size. */
static void log_data(UWord entry, Addr addr, UWord size)
{
   switch (size) {
   case 1:  cg_log_data1(entry, addr);  break;
   case 2:  cg_log_data2(entry, addr);  break;
   case 4:  cg_log_data4(entry, addr);  break;
   case 8:  cg_log_data8(entry, addr);  break;
   case 16: cg_log_data16(entry, addr); break;
   case 32: cg_log_data32(entry, addr); break;
   default: cg_log_data(entry, addr, size); break;
   }
}

static void run_ops(const ColdRun* run, const UWord* addrs)
{
   UInt i;

   if (run->block != NULL) {
      note_cold_execution();
      if (++run->block->cold_executions >= hot_threshold
          && !run->block->promotion_due)
         note_due(run->block);
   }

   for (i = 0; i < run->n_ops; i++) {
      const ColdOp* op = &run->ops[i];
      if (op->kind == COLD_DATA) {
         Addr addr = addrs[op->arg];
         if (data_needs_log(addr, op->size))
            log_data(op->word, addr, op->size);
      } else if (fetch_needs_log(op)) {
         cg_log_fetch((const InstrInfo*)op->word);
      }
   }
}

/* One per number of data addresses, so that compiled code passes only
   the arguments it has. */
VG_REGPARM(1) void cg_tier_run0(const ColdRun* run)
{
   run_ops(run, NULL);
}

VG_REGPARM(2) void cg_tier_run1(const ColdRun* run, Addr a0)
{
   UWord addrs[1] = { a0 };
   run_ops(run, addrs);
}

VG_REGPARM(3) void cg_tier_run2(const ColdRun* run, Addr a0, Addr a1)
{
   UWord addrs[2] = { a0, a1 };
   run_ops(run, addrs);
}

VG_REGPARM(3) void cg_tier_run3(const ColdRun* run, Addr a0, Addr a1,
                                Addr a2)
{
   UWord addrs[3] = { a0, a1, a2 };
   run_ops(run, addrs);
}

VG_REGPARM(3) void cg_tier_run4(const ColdRun* run, Addr a0, Addr a1,
                                Addr a2, Addr a3)
{
   UWord addrs[4] = { a0, a1, a2, a3 };
   run_ops(run, addrs);
}

VG_REGPARM(3) void cg_tier_run5(const ColdRun* run, Addr a0, Addr a1,
                                Addr a2, Addr a3, Addr a4)
{
   UWord addrs[5] = { a0, a1, a2, a3, a4 };
   run_ops(run, addrs);
}
