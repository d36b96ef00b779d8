/*
 * cg_merge -- merge several Cachegrind profiles into one.
 *
 * Part of cachegrind-ng.  Behaves like the cg_merge shipped with
 * Valgrind 3.19 (same output bytes, progress messages and exit statuses),
 * with a streaming design, one-line error messages and a few documented
 * additions (see docs/cg_merge.1).
 *
 * Usage:  cg_merge [-o outfile] file1 file2 ...
 *
 * INPUT FORMAT (the strict reading of 3.19)
 *
 *     desc: TEXT          one or more, each starting exactly "desc: "
 *     cmd: TEXT           exactly one, starting "cmd: "
 *     events: E1 E2 ...   starting "events: "; the number of events is the
 *                         number of places where a space is followed by an
 *                         ASCII letter
 *     fl=FILE             sets the current file (the function carries over)
 *     fn=FUNC             sets the current function
 *     LINE C1 C2 ...      a count line: unsigned decimals separated by
 *                         white space, exactly one count per event; the
 *                         counts are added to (file, function, LINE)
 *     summary: S1 S2 ...  the last line; must equal the column totals
 *
 * Lines are read raw: only the '\n' is removed, and a line ends at its
 * first NUL byte.  The events line must name at least one event (no
 * file without one could pass the checks below).  Anything else in the body (blank lines, comments,
 * negative numbers, fi=/fe=) is an error.  File and function both start
 * as "???".  Counts and line numbers are unsigned 64-bit and wrap around;
 * they are printed signed, as 3.19 does.
 *
 * OUTPUT FORMAT
 *
 * The first input's desc, cmd and events lines verbatim; then, for each
 * (file, function) in strcmp order of file then function, "fl=FILE",
 * "fn=FUNC" and one line per line number in ascending (unsigned) order:
 * the line number, three spaces, each count followed by one space; last
 * "summary:" followed by " S" per event.
 *
 * DESIGN
 *
 * Each input is parsed line by line straight into one merged table, so
 * memory grows with the number of distinct (file, function, line) keys,
 * not with the number or the size of the inputs.  File and function names
 * are interned in a string table (one id per distinct name); the cost
 * table is an open-addressing hash keyed by (file id, function id, line)
 * whose entries index a flat array of counts.  Only at output time are
 * the names ranked with strcmp and the entries sorted.
 *
 * An input whose events line differs from the first input's is still
 * parsed to its end (so that its own errors are reported first, as 3.19
 * does) but its counts are not merged; the mismatch is reported after it.
 *
 * Any input error is fatal and exits at once, with one line on stderr
 * naming the file and line (3.19 prints two to five lines); so that this
 * line is all a failure prints, 3.19's progress messages ("parsing F",
 * "merging F", "writing OUT") are printed only once the merge has
 * succeeded, in 3.19's order.  The output is only opened
 * after every input has been read, and is written to a temporary file in
 * the same directory that is renamed over the target at the end, so a
 * failed merge never leaves anything at the -o path.
 *
 * All state lives in a `struct merge` context; there are no mutable
 * globals.
 */

#define _XOPEN_SOURCE 700    /* POSIX.1-2008 with XSI: realpath, mkstemp */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define CG_MERGE_VERSION "cg_merge (cachegrind-ng) 0.1.0"

#define EXIT_INPUT_ERROR 1
#define EXIT_OUT_OF_MEMORY 2

/* ------------------------------------------------------------------ */
/* Memory                                                              */

/* Report running out of memory the way 3.19 does and exit. */
static void out_of_memory(const char *where)
{
    fprintf(stderr, "cg_merge: out of memory in %s\n", where);
    exit(EXIT_OUT_OF_MEMORY);
}

static void *xmalloc(size_t size, const char *where)
{
    void *p = malloc(size ? size : 1);
    if (p == NULL)
        out_of_memory(where);
    return p;
}

static void *xcalloc(size_t n, size_t size, const char *where)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL)
        out_of_memory(where);
    return p;
}

/* Grow an array of n elements of the given size, checking for overflow. */
static void *xrealloc_array(void *p, size_t n, size_t size, const char *where)
{
    size_t bytes;
    if (size != 0 && n > SIZE_MAX / size)
        out_of_memory(where);
    bytes = n * size;
    p = realloc(p, bytes != 0 ? bytes : 1);
    if (p == NULL)
        out_of_memory(where);
    return p;
}

static char *xstrdup(const char *s, const char *where)
{
    size_t len = strlen(s) + 1;
    char *copy = xmalloc(len, where);
    memcpy(copy, s, len);
    return copy;
}

/* ------------------------------------------------------------------ */
/* Hashing                                                             */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

static uint64_t hash_string(const char *s)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);       /* FNV-1a */
    for (; *s != '\0'; s++) {
        h ^= (unsigned char)*s;
        h *= UINT64_C(0x100000001b3);
    }
    return mix64(h);
}

static uint64_t hash_cost_key(uint32_t file, uint32_t fn, uint64_t line)
{
    return mix64(line ^ mix64(((uint64_t)file << 32) | fn));
}

/* ------------------------------------------------------------------ */
/* Interned names (files and functions share one table)               */

struct name_table {
    char **names;          /* id -> name */
    uint64_t *hashes;      /* id -> hash of the name */
    uint32_t count, cap;
    uint32_t *slots;       /* open addressing: id + 1, or 0 when empty */
    size_t slot_mask;      /* number of slots - 1 (a power of two) */
};

static void name_table_init(struct name_table *t)
{
    t->count = 0;
    t->cap = 64;
    t->names = xrealloc_array(NULL, t->cap, sizeof *t->names, "names");
    t->hashes = xrealloc_array(NULL, t->cap, sizeof *t->hashes, "names");
    t->slot_mask = 127;
    t->slots = xcalloc(t->slot_mask + 1, sizeof *t->slots, "names");
}

static void name_table_free(struct name_table *t)
{
    uint32_t i;
    for (i = 0; i < t->count; i++)
        free(t->names[i]);
    free(t->names);
    free(t->hashes);
    free(t->slots);
}

static void name_table_place(struct name_table *t, uint32_t id)
{
    size_t i = (size_t)t->hashes[id] & t->slot_mask;
    while (t->slots[i] != 0)
        i = (i + 1) & t->slot_mask;
    t->slots[i] = id + 1;
}

static void name_table_grow_slots(struct name_table *t)
{
    uint32_t id;
    free(t->slots);
    t->slot_mask = t->slot_mask * 2 + 1;
    t->slots = xcalloc(t->slot_mask + 1, sizeof *t->slots, "names");
    for (id = 0; id < t->count; id++)
        name_table_place(t, id);
}

static uint32_t name_table_add(struct name_table *t, const char *name,
                               uint64_t hash)
{
    uint32_t id = t->count;
    if (t->count == UINT32_MAX - 1)
        out_of_memory("names");
    if (t->count == t->cap) {
        t->cap *= 2;
        t->names = xrealloc_array(t->names, t->cap, sizeof *t->names, "names");
        t->hashes = xrealloc_array(t->hashes, t->cap, sizeof *t->hashes,
                                   "names");
    }
    t->names[id] = xstrdup(name, "names");
    t->hashes[id] = hash;
    t->count++;
    if ((size_t)t->count * 2 > t->slot_mask)
        name_table_grow_slots(t);
    else
        name_table_place(t, id);
    return id;
}

/* Return the id of `name`, adding it on first sight. */
static uint32_t intern_name(struct name_table *t, const char *name)
{
    uint64_t hash = hash_string(name);
    size_t i = (size_t)hash & t->slot_mask;
    while (t->slots[i] != 0) {
        uint32_t id = t->slots[i] - 1;
        if (t->hashes[id] == hash && strcmp(t->names[id], name) == 0)
            return id;
        i = (i + 1) & t->slot_mask;
    }
    return name_table_add(t, name, hash);
}

/* ------------------------------------------------------------------ */
/* Merged costs: (file, function, line) -> one count per event        */

struct cost_key {
    uint64_t line;
    uint32_t file, fn;
};

struct cost_table {
    size_t n_events;
    struct cost_key *keys;  /* entry -> key */
    uint64_t *counts;       /* entry e's counts at [e * n_events] */
    size_t count, cap;
    uint32_t *slots;        /* open addressing: entry + 1, or 0 */
    size_t slot_mask;
};

static void cost_table_init(struct cost_table *t, size_t n_events)
{
    t->n_events = n_events;
    t->count = 0;
    t->cap = 256;
    t->keys = xrealloc_array(NULL, t->cap, sizeof *t->keys, "costs");
    t->counts = xcalloc(t->cap, n_events * sizeof *t->counts, "costs");
    t->slot_mask = 511;
    t->slots = xcalloc(t->slot_mask + 1, sizeof *t->slots, "costs");
}

static void cost_table_free(struct cost_table *t)
{
    free(t->keys);
    free(t->counts);
    free(t->slots);
}

static void cost_table_place(struct cost_table *t, size_t entry)
{
    const struct cost_key *k = &t->keys[entry];
    size_t i = (size_t)hash_cost_key(k->file, k->fn, k->line) & t->slot_mask;
    while (t->slots[i] != 0)
        i = (i + 1) & t->slot_mask;
    t->slots[i] = (uint32_t)(entry + 1);
}

static void cost_table_grow_slots(struct cost_table *t)
{
    size_t e;
    free(t->slots);
    t->slot_mask = t->slot_mask * 2 + 1;
    t->slots = xcalloc(t->slot_mask + 1, sizeof *t->slots, "costs");
    for (e = 0; e < t->count; e++)
        cost_table_place(t, e);
}

static void cost_table_grow_entries(struct cost_table *t)
{
    size_t old_cap = t->cap;
    size_t row = t->n_events * sizeof *t->counts;
    t->cap *= 2;
    t->keys = xrealloc_array(t->keys, t->cap, sizeof *t->keys, "costs");
    t->counts = xrealloc_array(t->counts, t->cap, row ? row : 1, "costs");
    memset((char *)t->counts + old_cap * row, 0, (t->cap - old_cap) * row);
}

static size_t cost_table_add(struct cost_table *t, struct cost_key key)
{
    size_t entry = t->count;
    if (entry >= UINT32_MAX - 1)
        out_of_memory("costs");
    if (entry == t->cap)
        cost_table_grow_entries(t);
    t->keys[entry] = key;
    t->count++;
    if (t->count * 2 > t->slot_mask)
        cost_table_grow_slots(t);
    else
        cost_table_place(t, entry);
    return entry;
}

/* Free the hash index once no more lookups will happen (before sorting). */
static void cost_table_drop_index(struct cost_table *t)
{
    free(t->slots);
    t->slots = NULL;
}

/* Return the counts of (file, fn, line), a zeroed row on first sight. */
static uint64_t *cost_row(struct cost_table *t, uint32_t file, uint32_t fn,
                          uint64_t line)
{
    size_t i = (size_t)hash_cost_key(file, fn, line) & t->slot_mask;
    struct cost_key key;
    size_t entry;
    while (t->slots[i] != 0) {
        size_t e = t->slots[i] - 1;
        const struct cost_key *k = &t->keys[e];
        if (k->line == line && k->file == file && k->fn == fn)
            return &t->counts[e * t->n_events];
        i = (i + 1) & t->slot_mask;
    }
    key.line = line;
    key.file = file;
    key.fn = fn;
    entry = cost_table_add(t, key);     /* may move t->counts */
    return &t->counts[entry * t->n_events];
}

/* ------------------------------------------------------------------ */
/* Reading lines                                                       */

/*
 * Reads one input line by line.  A line is returned NUL-terminated with
 * its '\n' removed; a final line without '\n' is returned too.  `lno` is
 * the number of the line last returned (1 for the first).
 */
struct line_reader {
    FILE *fp;
    const char *path;
    unsigned long lno;      /* lines returned so far */
    char *buf;
    size_t cap;             /* bytes allocated (always > len) */
    size_t pos, len;        /* unread bytes are buf[pos .. len) */
    int at_eof;
};

enum read_status { READ_LINE, READ_EOF, READ_ERROR };

static void reader_init(struct line_reader *r)
{
    r->fp = NULL;
    r->path = NULL;
    r->cap = 65536;
    r->buf = xmalloc(r->cap, "readline");
}

static void reader_start(struct line_reader *r, FILE *fp, const char *path)
{
    r->fp = fp;
    r->path = path;
    r->lno = 0;
    r->pos = 0;
    r->len = 0;
    r->at_eof = 0;
}

/* Move unread bytes to the front, grow if full, then read more. */
static enum read_status reader_fill(struct line_reader *r)
{
    size_t got;
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->len + 1 >= r->cap) {
        if (r->cap > SIZE_MAX / 2)
            out_of_memory("readline");
        r->cap *= 2;
        r->buf = xrealloc_array(r->buf, r->cap, 1, "readline");
    }
    got = fread(r->buf + r->len, 1, r->cap - 1 - r->len, r->fp);
    r->len += got;
    if (got == 0) {
        if (ferror(r->fp))
            return READ_ERROR;
        r->at_eof = 1;
    }
    return READ_LINE;
}

static enum read_status read_line(struct line_reader *r, char **line)
{
    size_t scanned = 0;     /* bytes from pos already known to hold no \n */
    for (;;) {
        char *start = r->buf + r->pos;
        char *nl = memchr(start + scanned, '\n', r->len - r->pos - scanned);
        if (nl != NULL) {
            *nl = '\0';
            *line = start;
            r->pos = (size_t)(nl - r->buf) + 1;
            r->lno++;
            return READ_LINE;
        }
        scanned = r->len - r->pos;
        if (r->at_eof) {
            if (scanned == 0)
                return READ_EOF;
            r->buf[r->len] = '\0';
            *line = start;
            r->pos = r->len;
            r->lno++;
            return READ_LINE;
        }
        if (reader_fill(r) == READ_ERROR)
            return READ_ERROR;
    }
}

/* ------------------------------------------------------------------ */
/* Diagnostics                                                         */

/*
 * Every error is one line on stderr, "PROG: FILE:LINE: MESSAGE" (or
 * "PROG: FILE: MESSAGE" when no line is concerned), then exit 1.  The
 * progress messages of a successful merge are printed only at its end
 * (see print_progress), so that a failure prints that line alone.
 */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5), noreturn))
#endif
static void die_at(const char *prog, const char *path, unsigned long lno,
                   const char *fmt, ...)
{
    va_list ap;
    if (lno > 0)
        fprintf(stderr, "%s: %s:%lu: ", prog, path, lno);
    else
        fprintf(stderr, "%s: %s: ", prog, path);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    putc('\n', stderr);
    exit(EXIT_INPUT_ERROR);
}

/* ------------------------------------------------------------------ */
/* The merge context                                                   */

struct header {
    char **desc;            /* desc lines, verbatim */
    size_t n_desc, cap_desc;
    char *cmd;              /* cmd line, verbatim */
    char *events;           /* events line, verbatim */
};

struct merge {
    const char *prog;           /* argv[0], prefix of every message */
    int have_first;             /* has the first input been read? */
    const char *first_path;     /* the first input, for messages */
    struct header header;       /* the first input's header lines */
    size_t n_events;
    struct name_table names;
    struct cost_table costs;
    uint64_t *summary;          /* merged column totals */
    struct line_reader reader;  /* reused for every input */
};

/* State while one input is being parsed. */
struct input {
    struct line_reader *reader;
    const char *prog;
    const char *path;
    int events_differ;          /* if so, parse but don't merge */
    unsigned long events_lno;   /* line number of the events line */
    size_t n_events;            /* this input's event count */
    uint64_t *numbers;          /* the numbers of the current line */
    uint64_t *totals;           /* this input's computed column totals */
    uint32_t file, fn;          /* current name ids */
    char *summary_line;
    unsigned long summary_lno;
};

static void merge_init(struct merge *m, const char *prog)
{
    memset(m, 0, sizeof *m);
    m->prog = prog;
    name_table_init(&m->names);
    reader_init(&m->reader);
}

static void merge_free(struct merge *m)
{
    size_t i;
    for (i = 0; i < m->header.n_desc; i++)
        free(m->header.desc[i]);
    free(m->header.desc);
    free(m->header.cmd);
    free(m->header.events);
    name_table_free(&m->names);
    if (m->have_first)
        cost_table_free(&m->costs);
    free(m->summary);
    free(m->reader.buf);
}

/* ------------------------------------------------------------------ */
/* Parsing one input                                                   */

/* An error in the line just read. */
#define DIE_HERE(in, ...) \
    die_at((in)->prog, (in)->path, (in)->reader->lno, __VA_ARGS__)

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Events are counted as 3.19 does: a space followed by an ASCII letter. */
static size_t count_events(const char *events_line)
{
    const char *p = strchr(events_line, ':');
    size_t n = 0;
    for (; p[0] != '\0'; p++) {
        unsigned char next = (unsigned char)p[1];
        if (p[0] == ' ' && ((next >= 'a' && next <= 'z') ||
                            (next >= 'A' && next <= 'Z')))
            n++;
    }
    return n;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
           c == '\r';
}

/*
 * Parse a run of unsigned decimals separated by white space, keeping at
 * most `max` of them in `out`; return how many there were.  Any other
 * character is an error, reported before any miscount (as 3.19 does).
 * `what` names the line in messages.
 */
static size_t parse_numbers(struct input *in, const char *s, uint64_t *out,
                            size_t max, const char *what)
{
    size_t n = 0;
    while (*s != '\0') {
        uint64_t value = 0;
        if (is_space(*s)) {
            s++;
            continue;
        }
        if (!isdigit((unsigned char)*s))
            DIE_HERE(in, "%s holds something other than unsigned decimal "
                     "numbers", what);
        for (; isdigit((unsigned char)*s); s++)
            value = value * 10 + (uint64_t)(*s - '0');
        if (*s != '\0' && !is_space(*s))
            DIE_HERE(in, "%s holds something other than unsigned decimal "
                     "numbers", what);
        if (n < max)
            out[n] = value;
        n++;
    }
    return n;
}

static void add_counts(uint64_t *to, const uint64_t *from, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        to[i] += from[i];
}

/* "LINE C1 ... Cn": add to this input's totals and to the merged table. */
static void parse_count_line(struct merge *m, struct input *in,
                             const char *line)
{
    size_t n = parse_numbers(in, line, in->numbers, in->n_events + 1,
                             "count line");
    const uint64_t *counts = in->numbers + 1;
    if (n - 1 != in->n_events)
        DIE_HERE(in, "count line has %zu count%s for %zu event%s", n - 1,
                 n - 1 == 1 ? "" : "s", in->n_events,
                 in->n_events == 1 ? "" : "s");
    add_counts(in->totals, counts, in->n_events);
    if (!in->events_differ)
        add_counts(cost_row(&m->costs, in->file, in->fn, in->numbers[0]),
                   counts, in->n_events);
}

static void put_signed(uint64_t value, FILE *out);     /* (see below) */

/* The summary must give one count per event, equal to the totals. */
static void check_summary(struct input *in)
{
    const char *rest = in->summary_line + strlen("summary:");
    size_t n = parse_numbers(in, rest, in->numbers, in->n_events,
                             "summary line");
    size_t i;
    if (n != in->n_events)
        DIE_HERE(in, "summary line has %zu count%s for %zu event%s", n,
                 n == 1 ? "" : "s", in->n_events,
                 in->n_events == 1 ? "" : "s");
    for (i = 0; i < n; i++) {
        if (in->numbers[i] == in->totals[i])
            continue;
        fprintf(stderr, "%s: %s:%lu: summary line disagrees with the sum "
                "of the count lines (event %zu: ", in->prog, in->path,
                in->summary_lno, i + 1);
        put_signed(in->numbers[i], stderr);
        fputs(" stated, ", stderr);
        put_signed(in->totals[i], stderr);
        fputs(" summed)\n", stderr);
        exit(EXIT_INPUT_ERROR);
    }
}

static enum read_status next_line(struct input *in, char **line)
{
    enum read_status st = read_line(in->reader, line);
    if (st == READ_ERROR)
        die_at(in->prog, in->path, in->reader->lno, "read error: %s",
               strerror(errno));
    return st;
}

/* The end of the file where a line of kind `what` was expected. */
static void die_eof(struct input *in, const char *what)
{
    if (in->reader->lno == 0)
        die_at(in->prog, in->path, 0, "empty file (a profile starts with "
               "a 'desc: ' line)");
    DIE_HERE(in, "the file ends before its %s", what);
}

/* desc lines: kept for the first input only. */
static void parse_desc_lines(struct merge *m, struct input *in, char **line)
{
    struct header *h = &m->header;
    if (next_line(in, line) == READ_EOF)
        die_eof(in, "'desc: ' line");
    if (!starts_with(*line, "desc: "))
        DIE_HERE(in, "the first line is not a 'desc: ' line");
    do {
        if (!m->have_first) {
            if (h->n_desc == h->cap_desc) {
                h->cap_desc = h->cap_desc ? h->cap_desc * 2 : 4;
                h->desc = xrealloc_array(h->desc, h->cap_desc,
                                         sizeof *h->desc, "desc");
            }
            h->desc[h->n_desc++] = xstrdup(*line, "desc");
        }
        if (next_line(in, line) == READ_EOF)
            die_eof(in, "'cmd: ' line");
    } while (starts_with(*line, "desc: "));
}

/* Set the event count; the first input fixes the merged table's shape. */
static void take_events_line(struct merge *m, struct input *in,
                             const char *line)
{
    in->n_events = count_events(line);
    in->events_lno = in->reader->lno;
    if (in->n_events == 0)
        DIE_HERE(in, "'events: ' line names no events");
    if (!m->have_first) {
        m->header.events = xstrdup(line, "events");
        m->n_events = in->n_events;
        cost_table_init(&m->costs, m->n_events);
        m->summary = xcalloc(m->n_events, sizeof *m->summary, "summary");
    } else if (strcmp(line, m->header.events) != 0) {
        in->events_differ = 1;
    }
}

static void parse_header(struct merge *m, struct input *in)
{
    char *line;
    parse_desc_lines(m, in, &line);
    if (!starts_with(line, "cmd: "))
        DIE_HERE(in, "expected a 'cmd: ' line after the 'desc: ' lines");
    if (!m->have_first)
        m->header.cmd = xstrdup(line, "cmd");
    if (next_line(in, &line) == READ_EOF)
        die_eof(in, "'events: ' line");
    if (!starts_with(line, "events: "))
        DIE_HERE(in, "expected an 'events: ' line after the 'cmd: ' line");
    take_events_line(m, in, line);
}

/* Body lines up to and including "summary: "; then nothing may follow. */
static void parse_body(struct merge *m, struct input *in)
{
    char *line;
    for (;;) {
        if (next_line(in, &line) == READ_EOF)
            die_eof(in, "'summary: ' line (truncated?)");
        if (isdigit((unsigned char)line[0]))
            parse_count_line(m, in, line);
        else if (starts_with(line, "fn="))
            in->fn = intern_name(&m->names, line + 3);
        else if (starts_with(line, "fl="))
            in->file = intern_name(&m->names, line + 3);
        else if (starts_with(line, "summary: "))
            break;
        else
            DIE_HERE(in, "unexpected line: not fl=, fn=, a count line "
                     "or the 'summary: ' line");
    }
    in->summary_line = xstrdup(line, "summary");
    in->summary_lno = in->reader->lno;
    if (next_line(in, &line) != READ_EOF)
        DIE_HERE(in, "a line after the 'summary: ' line, which must be "
                 "the last");
    check_summary(in);
}

static void input_init(struct merge *m, struct input *in, const char *path)
{
    memset(in, 0, sizeof *in);
    in->reader = &m->reader;
    in->prog = m->prog;
    in->path = path;
    in->file = in->fn = intern_name(&m->names, "???");
}

static void input_free(struct input *in)
{
    free(in->numbers);
    free(in->totals);
    free(in->summary_line);
}

/* Parse one input file, merging its counts as it goes. */
static void merge_file(struct merge *m, const char *path)
{
    struct input in;
    FILE *fp;

    input_init(m, &in, path);
    fp = fopen(path, "r");
    if (fp == NULL)
        die_at(m->prog, path, 0, "cannot open: %s", strerror(errno));
    reader_start(&m->reader, fp, path);

    parse_header(m, &in);
    in.numbers = xcalloc(in.n_events + 1, sizeof *in.numbers, "counts");
    in.totals = xcalloc(in.n_events, sizeof *in.totals, "counts");
    parse_body(m, &in);
    fclose(fp);

    if (in.events_differ)
        die_at(m->prog, path, in.events_lno, "'events: ' line differs "
               "from that of %s", m->first_path);
    add_counts(m->summary, in.totals, m->n_events);
    if (!m->have_first)
        m->first_path = path;
    m->have_first = 1;
    input_free(&in);
}

/*
 * 3.19's progress messages, printed once the merge has succeeded: one
 * "parsing" per input, "merging" after each input but the first, then
 * "writing".
 */
static void print_progress(const char *prog, const char **inputs, int n,
                           const char *out_name)
{
    int i;
    for (i = 0; i < n; i++) {
        fprintf(stderr, "%s: parsing %s\n", prog, inputs[i]);
        if (i > 0)
            fprintf(stderr, "%s: merging %s\n", prog, inputs[i]);
    }
    fprintf(stderr, "%s: writing %s\n", prog,
            out_name ? out_name : "(stdout)");
}

/* ------------------------------------------------------------------ */
/* Sorting the merged costs                                            */

struct ranked_name {
    const char *name;
    uint32_t id;
};

struct sort_item {
    uint32_t file_rank, fn_rank;
    uint64_t line;
    size_t entry;
};

static int compare_names(const void *a, const void *b)
{
    const struct ranked_name *x = a, *y = b;
    return strcmp(x->name, y->name);
}

static int compare_items(const void *a, const void *b)
{
    const struct sort_item *x = a, *y = b;
    if (x->file_rank != y->file_rank)
        return x->file_rank < y->file_rank ? -1 : 1;
    if (x->fn_rank != y->fn_rank)
        return x->fn_rank < y->fn_rank ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return 0;
}

/* rank[id] = position of name `id` in strcmp order. */
static uint32_t *rank_names(const struct name_table *t)
{
    struct ranked_name *order = xcalloc(t->count, sizeof *order, "sort");
    uint32_t *rank = xcalloc(t->count, sizeof *rank, "sort");
    uint32_t i;
    for (i = 0; i < t->count; i++) {
        order[i].name = t->names[i];
        order[i].id = i;
    }
    qsort(order, t->count, sizeof *order, compare_names);
    for (i = 0; i < t->count; i++)
        rank[order[i].id] = i;
    free(order);
    return rank;
}

/* The merged entries in output order. */
static struct sort_item *sort_costs(struct merge *m)
{
    struct cost_table *t = &m->costs;
    uint32_t *rank = rank_names(&m->names);
    struct sort_item *items;
    size_t e;
    cost_table_drop_index(t);
    items = xcalloc(t->count, sizeof *items, "sort");
    for (e = 0; e < t->count; e++) {
        items[e].file_rank = rank[t->keys[e].file];
        items[e].fn_rank = rank[t->keys[e].fn];
        items[e].line = t->keys[e].line;
        items[e].entry = e;
    }
    qsort(items, t->count, sizeof *items, compare_items);
    free(rank);
    return items;
}

/* ------------------------------------------------------------------ */
/* Writing the output                                                  */

/* Print a 64-bit count the way 3.19's "%lld" does (signed). */
static void put_signed(uint64_t value, FILE *out)
{
    char digits[24];
    char *p = digits + sizeof digits;
    int negative = value > (uint64_t)INT64_MAX;
    if (negative)
        value = ~value + 1;
    *--p = '\0';
    do {
        *--p = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    if (negative)
        *--p = '-';
    fputs(p, out);
}

static void write_header(const struct header *h, FILE *out)
{
    size_t i;
    for (i = 0; i < h->n_desc; i++) {
        fputs(h->desc[i], out);
        putc('\n', out);
    }
    fputs(h->cmd, out);
    putc('\n', out);
    fputs(h->events, out);
    putc('\n', out);
}

static void write_cost_line(uint64_t line, const uint64_t *counts, size_t n,
                            FILE *out)
{
    size_t i;
    put_signed(line, out);
    fputs("   ", out);
    for (i = 0; i < n; i++) {
        put_signed(counts[i], out);
        putc(' ', out);
    }
    putc('\n', out);
}

static void write_costs(const struct merge *m, const struct sort_item *items,
                        FILE *out)
{
    const struct cost_table *t = &m->costs;
    const struct cost_key *prev = NULL;
    size_t i;
    for (i = 0; i < t->count; i++) {
        const struct cost_key *k = &t->keys[items[i].entry];
        if (prev == NULL || k->file != prev->file || k->fn != prev->fn) {
            fprintf(out, "fl=%s\nfn=%s\n", m->names.names[k->file],
                    m->names.names[k->fn]);
        }
        write_cost_line(k->line, &t->counts[items[i].entry * t->n_events],
                        t->n_events, out);
        prev = k;
    }
}

static void write_summary(const struct merge *m, FILE *out)
{
    size_t i;
    fputs("summary:", out);
    for (i = 0; i < m->n_events; i++) {
        putc(' ', out);
        put_signed(m->summary[i], out);
    }
    putc('\n', out);
}

/* Write the whole merged profile; return 0, or an errno value. */
static int write_profile(const struct merge *m, const struct sort_item *items,
                         FILE *out)
{
    errno = 0;
    write_header(&m->header, out);
    write_costs(m, items, out);
    write_summary(m, out);
    if (fflush(out) != 0 || ferror(out))
        return errno != 0 ? errno : EIO;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The output file                                                     */

/*
 * Where and how the output goes.  A regular file (or a path that does
 * not exist yet) is written to a temporary file in the same directory
 * and renamed over `target` at the end; anything else that already
 * exists (a device such as /dev/null, a FIFO, a dangling symlink) is
 * written in place, since it cannot be replaced.
 */
struct output {
    const char *name;       /* as given with -o, for messages */
    char *target;           /* path renamed over (symlinks resolved) */
    char *temp;             /* the temporary file, or NULL */
    mode_t mode;            /* mode the result gets */
    FILE *fp;
};

static mode_t default_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return (mode_t)0666 & ~mask;
}

/* "DIR/.cg_merge-XXXXXX" beside `target`. */
static char *temp_template(const char *target)
{
    const char *slash = strrchr(target, '/');
    size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = ".cg_merge-XXXXXX";
    char *t = xmalloc(dir_len + strlen(base) + 1, "output");
    memcpy(t, target, dir_len);
    strcpy(t + dir_len, base);
    return t;
}

/* Decide target and mode; return 1 if it should be replaced atomically. */
static int plan_output(struct output *o)
{
    struct stat st;
    o->mode = default_file_mode();
    if (stat(o->name, &st) != 0)
        return lstat(o->name, &st) != 0;   /* dangling symlink: in place */
    if (!S_ISREG(st.st_mode))
        return 0;
    o->mode = st.st_mode & 07777;
    o->target = realpath(o->name, NULL);
    return o->target != NULL;
}

static int open_temp_output(struct output *o)
{
    int fd;
    if (o->target == NULL)
        o->target = xstrdup(o->name, "output");
    o->temp = temp_template(o->target);
    fd = mkstemp(o->temp);
    if (fd < 0) {
        free(o->temp);
        o->temp = NULL;
        return -1;
    }
    if (fchmod(fd, o->mode) != 0 || (o->fp = fdopen(fd, "w")) == NULL) {
        int err = errno;
        close(fd);
        unlink(o->temp);
        errno = err;
        return -1;
    }
    return 0;
}

/* Open the output; on failure return -1 with errno set. */
static int open_output(struct output *o)
{
    if (o->name[0] == '\0') {
        errno = ENOENT;
        return -1;
    }
    if (plan_output(o))
        return open_temp_output(o);
    o->fp = fopen(o->name, "w");
    return o->fp != NULL ? 0 : -1;
}

/*
 * Close the output and move it into place.  `err` is the writing's
 * result; return it, or the error of closing or renaming.
 */
static int finish_output(struct output *o, int err)
{
    if (fclose(o->fp) != 0 && err == 0)
        err = errno != 0 ? errno : EIO;
    o->fp = NULL;
    if (o->temp == NULL)
        return err;
    if (err == 0 && rename(o->temp, o->target) != 0)
        err = errno;
    if (err != 0)
        unlink(o->temp);
    return err;
}

static int write_to_file(const struct merge *m, const struct sort_item *items,
                         const char *name)
{
    struct output o;
    int err;
    memset(&o, 0, sizeof o);
    o.name = name;
    if (open_output(&o) != 0) {
        err = errno;
        fprintf(stderr, "%s: %s: cannot create output file: %s\n", m->prog,
                name, strerror(err));
        free(o.target);
        return 1;
    }
    err = write_profile(m, items, o.fp);
    err = finish_output(&o, err);
    if (err != 0)
        fprintf(stderr, "%s: %s: error writing output file: %s\n", m->prog,
                name, strerror(err));
    free(o.target);
    free(o.temp);
    return err != 0;
}

/* Write the merged profile to `out_name`, or stdout when it is NULL. */
static int write_output(struct merge *m, const char *out_name)
{
    struct sort_item *items = sort_costs(m);
    int status = 0, err;
    if (out_name != NULL) {
        status = write_to_file(m, items, out_name);
    } else if ((err = write_profile(m, items, stdout)) != 0) {
        fprintf(stderr, "%s: (stdout): error writing output: %s\n", m->prog,
                strerror(err));
        status = 1;
    }
    free(items);
    return status;
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */

#define USAGE_TEXT "[-o outfile] [files-to-merge]"

struct options {
    const char *out_name;       /* -o argument, or NULL */
    const char **inputs;
    int n_inputs;
};

/* -h and --help: 3.19's two lines and exit status. */
static void usage(const char *prog)
{
    fprintf(stderr, "%s: Merges multiple cachegrind output files into one\n",
            prog);
    fprintf(stderr, "%s: usage: %s " USAGE_TEXT "\n", prog, prog);
    exit(1);
}

/* A command-line error: one line, exit 1. */
static void usage_error(const char *prog, const char *what)
{
    fprintf(stderr, "%s: %s (usage: %s " USAGE_TEXT ")\n", prog, what, prog);
    exit(1);
}

static int has_arg(int argc, char **argv, const char *a, const char *b)
{
    int i;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], a) == 0 || (b && strcmp(argv[i], b) == 0))
            return 1;
    return 0;
}

/* As in 3.19: only the first "-o" is an option; all else is an input. */
static void parse_options(int argc, char **argv, const char *prog,
                          struct options *opt)
{
    int i, o_index = 0;
    if (has_arg(argc, argv, "-h", "--help"))
        usage(prog);
    if (argc < 2)
        usage_error(prog, "no input files");
    if (has_arg(argc, argv, "--version", NULL)) {
        puts(CG_MERGE_VERSION);
        exit(0);
    }
    for (i = 1; i < argc && o_index == 0; i++)
        if (strcmp(argv[i], "-o") == 0)
            o_index = i;
    if (o_index == argc - 1)
        usage_error(prog, "option -o: no output file name after it");
    opt->out_name = o_index ? argv[o_index + 1] : NULL;
    opt->inputs = xcalloc((size_t)argc, sizeof *opt->inputs, "arguments");
    opt->n_inputs = 0;
    for (i = 1; i < argc; i++)
        if (o_index == 0 || (i != o_index && i != o_index + 1))
            opt->inputs[opt->n_inputs++] = argv[i];
}

int main(int argc, char **argv)
{
    struct options opt;
    struct merge m;
    int i, status;
    const char *prog = argc > 0 && argv[0] != NULL ? argv[0] : "cg_merge";

    parse_options(argc, argv, prog, &opt);
    if (opt.n_inputs == 0) {
        free(opt.inputs);
        return 0;
    }
    merge_init(&m, prog);
    for (i = 0; i < opt.n_inputs; i++)
        merge_file(&m, opt.inputs[i]);
    status = write_output(&m, opt.out_name);
    if (status == 0)
        print_progress(prog, opt.inputs, opt.n_inputs, opt.out_name);
    merge_free(&m);
    free(opt.inputs);
    return status;
}
