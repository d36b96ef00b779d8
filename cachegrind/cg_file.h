/* cg_file.h -- the one way the tool writes a file (cg_file.c).

   Every output file (cachegrind.out, the phase profile, the basic
   block vectors and the pc file) is opened, written, carried across a
   fork and finished (or given up at an exec) here, so a full disk, a
   failed rename and two processes of one run wanting the same name
   are handled, and reported, the same way for all of them. */

#ifndef CG_FILE_H
#define CG_FILE_H

#include "pub_tool_basics.h"

typedef struct _CgFile CgFile;

/* Once, at start-up: registers the fork handling of the run. */
void cg_file_init(void);

/* Tells the writer about a name template the tool will write, before
   the program runs: at the program's first fork it warns about those
   without %p (parent and child share them) and notes which files
   already exist under them (an earlier run's, to be replaced).
   `numbered`: the tool also writes <name>.<N> for N >= 2 (threads). */
void cg_file_expect(const HChar* option, const HChar* format,
                    Bool numbered);

/* Expands `format` (as --<option>=format) now, so that a forked child
   uses its own pid, appends `suffix` (may be NULL) and opens the file
   for writing with permission bits `mode`.  Always returns a handle;
   if nothing could be opened, cg_file_opened says so and the caller
   reports it in its own words, then calls cg_file_forget. */
CgFile*      cg_file_open(const HChar* option, const HChar* format,
                          const HChar* suffix, Int mode);
Bool         cg_file_opened(const CgFile* f);
/* The expanded name the file will have. */
const HChar* cg_file_name(const CgFile* f);

/* Buffered writing; failures are remembered and reported when the
   file is committed. */
void cg_file_put_bytes(CgFile* f, const HChar* s, SizeT len);
void cg_file_put_str(CgFile* f, const HChar* s);
void cg_file_put_ulong(CgFile* f, ULong n);
void cg_file_put_long(CgFile* f, Long n);
void cg_file_put_hex(CgFile* f, ULong n);
void cg_file_printf(CgFile* f, const HChar* format, ...)
   PRINTF_CHECK(2, 3);
/* "cmd: <program> <arg>...\n", the arguments as given, unquoted: the
   line every file of the tool has */
void cg_file_put_command(CgFile* f);

/* Around a fork, from the module's own fork handlers: suspend before
   it (what is buffered is written, so the child cannot write it
   again), resume in the parent (appends; False, reported, if the file
   could not be reopened: commit then only cleans up), forget in the
   child (the parent's file is not the child's: no file is touched). */
void cg_file_suspend(CgFile* f);
Bool cg_file_resume(CgFile* f);
void cg_file_forget(CgFile* f);

/* For a process image that exec replaces, whose end (where the file
   would be committed) never comes: closes the file without writing
   what is buffered and removes the writer's own temporary file, so
   that nothing half-written is left under a name no process will
   finish.  A file written in place (a device, a link, or a name whose
   temporary file could not be created) is left as it is: it may not
   be the writer's to remove.  Frees `f`. */
void cg_file_abandon(CgFile* f);

/* Writes what is buffered, closes the file and gives it its name; a
   short write (disk full) or a failed rename is reported in one
   message naming the file, and only the writer's own temporary file
   is removed.  Frees `f`.  True if a complete file was left. */
Bool cg_file_commit(CgFile* f);

#endif /* CG_FILE_H */
