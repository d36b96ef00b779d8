/* cg_file.c -- the one writer of every file the tool writes.

   Owns: opening a file (its name expanded when opened; a temporary
   name in the same directory, or the name itself for a device or a
   symbolic link), the write buffer and its number formatting, carrying
   a file across a fork, and committing it: reporting a short write or
   a failed rename, and giving the file its name; or giving it up when
   an exec replaces the process image.  Also the run's own
   state about forks: whether a process of the run forked, and which
   files existed under shared names before the first fork.
   Must not: know any file's format; remove any file but its own
   temporary ones.

   Names shared by a forking run.  A name without %p is the same in a
   parent and its forked child.  Renaming onto it, as a run that never
   forks does, would let the second process silently replace the
   first one's file.  So in a run that forked, a finished file is given
   such a name with link(2), which fails if the name exists: the
   process that comes second writes <name>.<pid> instead and says so.
   A file found under the name at the run's first fork was left by an
   earlier run and is still replaced: it is moved aside and removed,
   and only if it is still that same file (device, inode, time of last
   modification and size). */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_xarray.h"
#include "cg_file.h"
#include "cg_vgcompat.h"


/* A large profile is a few megabytes of short lines: 64 KiB per
   write(2) keeps system calls out of the time it takes. */
#define FILE_BUF_SIZE 65536

struct _CgFile {
   HChar* name;          /* the expanded name: where the file ends up */
   HChar* temp;          /* what is written, or NULL: written in place */
   HChar* shared_link;   /* the link a forked run shares, written beside */
   Bool   shared;        /* no %p in the template: relatives share it */
   Int    fd;            /* -1: not open, or suspended for a fork */
   Bool   write_failed;
   Bool   lost;          /* not reopened after a fork (reported) */
   Int    used;
   HChar  buf[FILE_BUF_SIZE];
};

/*------------------------------------------------------------*/
/*--- The run's state about forks                          ---*/
/*------------------------------------------------------------*/

/* Main file, phase profile, vectors, pc file. */
#define MAX_EXPECTED 4

typedef struct {
   const HChar* option;
   const HChar* format;
   Bool         numbered;
} ExpectedName;

/* A file under a shared name at the first fork: an earlier run's. */
typedef struct {
   HChar* name;
   ULong  dev, ino, mtime, mtime_nsec;
   Long   size;
} EarlierFile;

/* Kept across a fork: a child knows what its parent knew. */
static struct {
   Bool         forked;          /* a process of the run has forked */
   ExpectedName expected[MAX_EXPECTED];
   UInt         n_expected;
   EarlierFile* earlier;
   UInt         n_earlier, earlier_capacity;
} file_run;

void cg_file_expect(const HChar* option, const HChar* format,
                    Bool numbered)
{
   ExpectedName* e;

   if (file_run.n_expected == MAX_EXPECTED)
      return;
   e = &file_run.expected[file_run.n_expected++];
   e->option = option;
   e->format = format;
   e->numbered = numbered;
}

/* Whether `format` has the conversion %<what>; "%%" is a plain '%'. */
static Bool has_conversion(const HChar* format, HChar what)
{
   const HChar* p;

   for (p = format; *p != '\0'; p++) {
      if (*p != '%')
         continue;
      p++;
      if (*p == what)
         return True;
      if (*p == '\0')
         break;
   }
   return False;
}

/* Whether expanding `format` now is harmless: a malformed name must
   end the run at exit, as in Cachegrind, not at a fork, and expanding
   %n would use up a sequence number the real expansion expects. */
static Bool expands_quietly(const HChar* format)
{
   const HChar* p = format;
   HChar var[256];

   if (*p == '\0' || *p == '~')
      return False;
   for (; *p != '\0'; p++) {
      const HChar* close;
      if (*p != '%')
         continue;
      p++;
      if (*p == 'p' || *p == '%')
         continue;
      if (*p != 'q' || p[1] != '{')
         return False;
      close = VG_(strchr)(p, '}');
      if (close == NULL || close - (p + 2) >= (Word)sizeof var)
         return False;
      VG_(strncpy)(var, p + 2, close - (p + 2));
      var[close - (p + 2)] = '\0';
      if (VG_(getenv)(var) == NULL)
         return False;
      p = close;
   }
   return True;
}

static void note_if_present(const HChar* name)
{
   struct vg_stat st;
   EarlierFile* e;

   if (sr_isError(VG_(stat)(name, &st)) || !VKI_S_ISREG(st.mode))
      return;
   if (file_run.n_earlier == file_run.earlier_capacity) {
      file_run.earlier_capacity = 2 * file_run.earlier_capacity + 4;
      file_run.earlier = VG_(realloc)("cg.file.earlier", file_run.earlier,
                                      file_run.earlier_capacity
                                      * sizeof(EarlierFile));
   }
   e = &file_run.earlier[file_run.n_earlier++];
   e->name = VG_(strdup)("cg.file.earlier", name);
   e->dev = st.dev;
   e->ino = st.ino;
   e->mtime = st.mtime;
   e->mtime_nsec = st.mtime_nsec;
   e->size = st.size;
}

static Bool is_link(const HChar* name)
{
   HChar target[8];
   return VG_(readlink)(name, target, sizeof target) >= 0;
}

/* Something other than a regular file or a link, such as /dev/null:
   every process writes it in place, and sharing it loses nothing. */
static Bool is_device(const HChar* name)
{
   struct vg_stat st;
   return !sr_isError(VG_(stat)(name, &st)) && !VKI_S_ISREG(st.mode)
          && !is_link(name);
}

/* At the first fork, for a template without %p: notes the files under
   its names (before the first fork no relative exists, so they are an
   earlier run's; a thread's vector file may have any thread number).
   Returns whether the name is worth a warning. */
static Bool examine_shared_name(const ExpectedName* e)
{
   HChar* base;
   HChar* numbered;
   UInt n;

   if (!expands_quietly(e->format))
      return True;
   base = VG_(expand_file_name)(e->option, e->format);
   if (is_device(base)) {
      VG_(free)(base);
      return False;
   }
   note_if_present(base);
   numbered = VG_(malloc)("cg.file.name", VG_(strlen)(base) + 16);
   for (n = 2; e->numbered && n < VG_N_THREADS; n++) {
      VG_(sprintf)(numbered, "%s.%u", base, n);
      note_if_present(numbered);
   }
   VG_(free)(numbered);
   VG_(free)(base);
   return True;
}

static void warn_shared_names(const Bool* shared, UInt n_shared)
{
   UInt i;

   VG_(umsg)("Warning: the program forked, and %s no %%p:\n",
             n_shared == 1 ? "this output file name has"
                           : "these output file names have");
   for (i = 0; i < file_run.n_expected; i++)
      if (shared[i])
         VG_(umsg)("   %s=%s\n", file_run.expected[i].option,
                   file_run.expected[i].format);
   VG_(umsg)("   Parent and child share %s: the process that writes %s "
             "later\n", n_shared == 1 ? "it" : "them",
             n_shared == 1 ? "it" : "one");
   VG_(umsg)("   writes '<name>.<pid>' instead.\n");
}

static void before_fork(ThreadId tid)
{
   Bool shared[MAX_EXPECTED];
   UInt i, n_shared = 0;

   if (file_run.forked)
      return;
   file_run.forked = True;
   for (i = 0; i < file_run.n_expected; i++) {
      const ExpectedName* e = &file_run.expected[i];
      shared[i] = !has_conversion(e->format, 'p') && examine_shared_name(e);
      if (shared[i])
         n_shared++;
   }
   if (n_shared > 0)
      warn_shared_names(shared, n_shared);
}

void cg_file_init(void)
{
   VG_(atfork)(before_fork, NULL, NULL);
}

/*------------------------------------------------------------*/
/*--- Opening                                              ---*/
/*------------------------------------------------------------*/

/* Only a regular file (or a new one) is replaced by renaming: a device
   such as /dev/null must be written in place, never replaced, and so
   must a symbolic link (renaming would replace the link, not the file
   it names). */
static Bool may_replace_by_rename(const HChar* name)
{
   return !is_link(name) && !is_device(name);
}

static Int open_truncated(const HChar* name, Int mode)
{
   SysRes sr = VG_(open)(name, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                         mode);
   return sr_isError(sr) ? -1 : (Int)sr_Res(sr);
}

/* `name` followed by `suffix`, in the tool's heap. */
static HChar* name_with(const HChar* name, const HChar* suffix)
{
   HChar* s = VG_(malloc)("cg.file.name",
                          VG_(strlen)(name) + VG_(strlen)(suffix) + 1);
   VG_(strcpy)(s, name);
   VG_(strcat)(s, suffix);
   return s;
}

static HChar* name_with_pid(const HChar* name, const HChar* middle)
{
   HChar suffix[48];

   VG_(sprintf)(suffix, "%s.%d", middle, VG_(getpid)());
   return name_with(name, suffix);
}

/* The temporary file, or failing that (say, a directory the tool may
   not create files in) the name itself, or a device or link in place.
   A regular file is not truncated in place once the run has forked:
   under a shared name it could be a relative's finished file. */
static void open_file(CgFile* f, Int mode)
{
   Bool by_rename = may_replace_by_rename(f->name);

   if (by_rename) {
      f->temp = name_with_pid(f->name, ".tmp");
      f->fd = open_truncated(f->temp, mode);
      if (f->fd < 0) {
         VG_(free)(f->temp);
         f->temp = NULL;
      }
   }
   if (f->fd < 0 && !(by_rename && file_run.forked && f->shared))
      f->fd = open_truncated(f->name, mode);
}

CgFile* cg_file_open(const HChar* option, const HChar* format,
                     const HChar* suffix, Int mode)
{
   HChar* base = VG_(expand_file_name)(option, format);
   CgFile* f = VG_(malloc)("cg.file", sizeof(CgFile));

   f->name = name_with(base, suffix != NULL ? suffix : "");
   VG_(free)(base);
   f->temp = NULL;
   f->shared = !has_conversion(format, 'p');
   f->shared_link = NULL;
   if (file_run.forked && f->shared && is_link(f->name)) {
      /* Written in place, a link's file could be a relative's, and who
         comes second cannot be told: after a fork, write beside it. */
      f->shared_link = f->name;
      f->name = name_with_pid(f->shared_link, "");
   }
   f->fd = -1;
   f->write_failed = False;
   f->lost = False;
   f->used = 0;
   open_file(f, mode);
   return f;
}

Bool cg_file_opened(const CgFile* f)     { return f->fd >= 0; }
const HChar* cg_file_name(const CgFile* f) { return f->name; }

static void free_file(CgFile* f)
{
   VG_(free)(f->shared_link);
   VG_(free)(f->name);
   VG_(free)(f->temp);
   VG_(free)(f);
}

void cg_file_forget(CgFile* f)
{
   if (f->fd >= 0)
      VG_(close)(f->fd);
   free_file(f);
}

/*------------------------------------------------------------*/
/*--- Writing                                              ---*/
/*------------------------------------------------------------*/

static void flush(CgFile* f)
{
   Int done = 0;

   while (!f->write_failed && !f->lost && done < f->used) {
      Int n = VG_(write)(f->fd, f->buf + done, f->used - done);
      if (n <= 0)
         f->write_failed = True;
      else
         done += n;
   }
   f->used = 0;
}

void cg_file_put_bytes(CgFile* f, const HChar* s, SizeT len)
{
   while (len > 0) {
      SizeT room = FILE_BUF_SIZE - f->used;
      SizeT chunk = len < room ? len : room;
      VG_(memcpy)(f->buf + f->used, s, chunk);
      f->used += chunk;
      s += chunk;
      len -= chunk;
      if (f->used == FILE_BUF_SIZE)
         flush(f);
   }
}

void cg_file_put_str(CgFile* f, const HChar* s)
{
   cg_file_put_bytes(f, s, VG_(strlen)(s));
}

/* Digits by hand: a large profile has hundreds of thousands of
   numbers, most of them 0, and VG_(sprintf) took about 35 ns each
   (two thirds of python's 17 ms of output writing). */
void cg_file_put_ulong(CgFile* f, ULong n)
{
   HChar digits[20];
   Int at = sizeof digits;

   do {
      digits[--at] = (HChar)('0' + n % 10);
      n /= 10;
   } while (n != 0);
   /* straight into the buffer: this is the writer's busiest call */
   if (FILE_BUF_SIZE - f->used < (Int)sizeof digits)
      flush(f);
   while (at < (Int)sizeof digits)
      f->buf[f->used++] = digits[at++];
}

void cg_file_put_long(CgFile* f, Long n)
{
   if (n < 0) {
      cg_file_put_bytes(f, "-", 1);
      cg_file_put_ulong(f, -(ULong)n);
   } else {
      cg_file_put_ulong(f, (ULong)n);
   }
}

void cg_file_put_hex(CgFile* f, ULong n)
{
   HChar digits[16];
   Int at = sizeof digits;

   do {
      digits[--at] = "0123456789abcdef"[n & 15];
      n >>= 4;
   } while (n != 0);
   cg_file_put_bytes(f, digits + at, sizeof digits - at);
}

static void put_char(HChar c, void* opaque)
{
   CgFile* f = opaque;

   /* cg_file_put_ulong can leave the buffer full */
   if (f->used == FILE_BUF_SIZE)
      flush(f);
   f->buf[f->used++] = c;
}

void cg_file_printf(CgFile* f, const HChar* format, ...)
{
   va_list args;

   va_start(args, format);
   VG_(vcbprintf)(put_char, f, format, args);
   va_end(args);
}

/*------------------------------------------------------------*/
/*--- Around a fork                                        ---*/
/*------------------------------------------------------------*/

void cg_file_suspend(CgFile* f)
{
   flush(f);
   if (f->fd >= 0)
      VG_(close)(f->fd);
   f->fd = -1;
}

Bool cg_file_resume(CgFile* f)
{
   const HChar* path = f->temp != NULL ? f->temp : f->name;
   SysRes sr;

   if (f->lost)
      return False;
   sr = VG_(open)(path, VKI_O_WRONLY | VKI_O_APPEND, 0);
   if (!sr_isError(sr)) {
      f->fd = (Int)sr_Res(sr);
      return True;
   }
   f->lost = True;
   VG_(umsg)("error: can't reopen '%s' after a fork; '%s' will be "
             "missing.\n", path, f->name);
   return False;
}

/*------------------------------------------------------------*/
/*--- Giving up, at an exec                                ---*/
/*------------------------------------------------------------*/

void cg_file_abandon(CgFile* f)
{
   /* the buffer is dropped: writing it would only lengthen a file
      that is about to be removed */
   if (f->fd >= 0)
      VG_(close)(f->fd);
   if (f->temp != NULL)
      VG_(unlink)(f->temp);
   free_file(f);
}

/*------------------------------------------------------------*/
/*--- Committing                                           ---*/
/*------------------------------------------------------------*/

/* link(2): 0, or the error number. */
static Int link_file(const HChar* from, const HChar* to)
{
   SysRes sr = VG_(do_syscall)(__NR_link, (RegWord)from, (RegWord)to,
                               0, 0, 0, 0, 0, 0);
   return sr_isError(sr) ? (Int)sr_Err(sr) : 0;
}

static Bool exists(const HChar* path)
{
   struct vg_stat st;
   return !sr_isError(VG_(stat)(path, &st));
}

/* Whether what is now at `path` is the file an earlier run left under
   `name` (noted at the first fork).  A rename keeps all of these. */
static Bool is_earlier_runs(const HChar* name, const HChar* path)
{
   struct vg_stat st;
   UInt i;

   if (sr_isError(VG_(stat)(path, &st)))
      return False;
   for (i = 0; i < file_run.n_earlier; i++) {
      const EarlierFile* e = &file_run.earlier[i];
      if (VG_(strcmp)(e->name, name) == 0)
         return st.dev == e->dev && st.ino == e->ino
                && st.mtime == e->mtime && st.mtime_nsec == e->mtime_nsec
                && st.size == e->size;
   }
   return False;
}

/* Moves an earlier run's file away from the name and removes it.  A
   relative's file that took its place between the look and the move
   is moved back. */
static void remove_earlier_runs(const CgFile* f)
{
   HChar* aside = name_with(f->temp, ".old");

   if (VG_(rename)(f->name, aside) == 0) {
      if (is_earlier_runs(f->name, aside) || link_file(aside, f->name) == 0)
         VG_(unlink)(aside);
      else
         VG_(umsg)("error: another process's '%s' was moved to '%s' and "
                   "could not be moved back.\n", f->name, aside);
   }
   VG_(free)(aside);
}

static Bool rename_temp_to(CgFile* f, const HChar* to)
{
   if (VG_(rename)(f->temp, to) == 0)
      return True;
   VG_(umsg)("error: can't rename '%s' to '%s'\n", f->temp, to);
   VG_(unlink)(f->temp);
   return False;
}

static Bool place_beside(CgFile* f)
{
   HChar* beside = name_with_pid(f->name, "");
   Bool placed = rename_temp_to(f, beside);

   if (placed)
      VG_(umsg)("'%s' was written by another process of this run; this "
                "process wrote '%s'.\n", f->name, beside);
   VG_(free)(beside);
   return placed;
}

/* A name relatives share, in a run that forked: see the top. */
static Bool place_shared(CgFile* f)
{
   Int attempt, err = 0;

   for (attempt = 0; attempt < 3; attempt++) {
      err = link_file(f->temp, f->name);
      if (err == 0) {
         VG_(unlink)(f->temp);
         return True;
      }
      if (err != VKI_EEXIST || !is_earlier_runs(f->name, f->name))
         break;
      remove_earlier_runs(f);
   }
   /* A file system without hard links: the same rule, though a
      relative finishing at the same moment could slip in between. */
   if (err != VKI_EEXIST
       && (!exists(f->name) || is_earlier_runs(f->name, f->name)))
      return rename_temp_to(f, f->name);
   return place_beside(f);
}

static void report_failed_write(const CgFile* f)
{
   if (f->temp != NULL)
      VG_(umsg)("error: writing '%s' failed (disk full?); "
                "no output file was left.\n", f->name);
   else
      VG_(umsg)("error: writing '%s' failed (disk full?); "
                "its contents are incomplete.\n", f->name);
}

/* The file is complete and closed: give it its name. */
static Bool place(CgFile* f)
{
   Bool placed;

   if (f->shared_link != NULL) {
      /* <name>.<pid>: no relative writes it */
      placed = f->temp == NULL || rename_temp_to(f, f->name);
      if (placed)
         VG_(umsg)("'%s' is a link that processes of this run share; this "
                   "process wrote '%s'.\n", f->shared_link, f->name);
      return placed;
   }
   if (f->temp == NULL)
      return True;
   if (file_run.forked && f->shared)
      return place_shared(f);
   return rename_temp_to(f, f->name);
}

Bool cg_file_commit(CgFile* f)
{
   Bool complete = False;

   if (f->lost && f->temp != NULL) {
      VG_(unlink)(f->temp);
   } else if (f->fd >= 0) {
      flush(f);
      VG_(close)(f->fd);
      if (!f->write_failed) {
         complete = place(f);
      } else {
         report_failed_write(f);
         if (f->temp != NULL)
            VG_(unlink)(f->temp);
      }
   }
   free_file(f);
   return complete;
}

void cg_file_put_command(CgFile* f)
{
   Word i, n = VG_(sizeXA)(VG_(args_for_client));

   cg_file_put_str(f, "cmd: ");
   cg_file_put_str(f, VG_(args_the_exename));
   for (i = 0; i < n; i++) {
      cg_file_put_str(f, " ");
      cg_file_put_str(f, *(HChar**)VG_(indexXA)(VG_(args_for_client), i));
   }
   cg_file_put_str(f, "\n");
}
