/* cg_launcher.c -- a launcher that runs our cachegrind, and every
   other tool exactly as the system's Valgrind would.

   Why not just VALGRIND_LIB=<our dir> valgrind ...?  The core hands
   the client an environment that depends on VALGRIND_LIB: the variable
   itself and the LD_PRELOAD path of the core's preload library.  A
   different environment moves the client's stack and changes what
   start-up code executes, so counts would differ from the system
   Cachegrind's for reasons that have nothing to do with the tool.

   So for --tool=cachegrind this program does what the system launcher
   does (pick the tool binary for the client's platform, set
   VALGRIND_LAUNCHER, exec) but with our tool binary, and leaves
   VALGRIND_LIB alone: the core then finds its preload libraries in
   the system directory, and the client sees the environment it sees
   under the system Cachegrind.  Any other tool is handed to the
   system launcher untouched.

   Build-time settings: CG_TOOL_DIR_FROM_BIN (where cachegrind-<platform>
   lives, relative to this program's directory, tried first so that an
   installed tree can be moved or staged with DESTDIR), CG_TOOL_DIR (the
   same as an absolute path), CG_SYSTEM_LAUNCHER (the system's launcher
   binary), CG_DEFAULT_PLATFORM. */

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CG_TOOL_DIR
#error "CG_TOOL_DIR must be defined"
#endif
#ifndef CG_TOOL_DIR_FROM_BIN
#error "CG_TOOL_DIR_FROM_BIN must be defined"
#endif
#ifndef CG_SYSTEM_LAUNCHER
#error "CG_SYSTEM_LAUNCHER must be defined"
#endif
#ifndef CG_DEFAULT_PLATFORM
#define CG_DEFAULT_PLATFORM "amd64-linux"
#endif

#define OUR_TOOL "cachegrind"

/* The tool named by --tool= before the client program, and the index
   of the client program in argv (0 if there is none). */
static const char* requested_tool(int argc, char** argv, int* client_at)
{
   const char* tool = "memcheck";
   int i;

   *client_at = 0;
   for (i = 1; i < argc; i++) {
      if (argv[i][0] != '-') {
         *client_at = i;
         break;
      }
      if (strncmp(argv[i], "--tool=", 7) == 0)
         tool = argv[i] + 7;
   }
   return tool;
}

/* A command name without a slash is looked up in PATH, as the shell
   (and the system launcher) would. */
static int find_in_path(const char* name, char* out, size_t out_size)
{
   const char* path = getenv("PATH");
   const char* dir;

   if (strchr(name, '/') != NULL || path == NULL) {
      snprintf(out, out_size, "%s", name);
      return 1;
   }
   for (dir = path; *dir != '\0';) {
      const char* end = strchr(dir, ':');
      size_t len = end ? (size_t)(end - dir) : strlen(dir);
      snprintf(out, out_size, "%.*s/%s", (int)len, len ? dir : ".", name);
      if (access(out, X_OK) == 0)
         return 1;
      if (end == NULL)
         break;
      dir = end + 1;
   }
   return 0;
}

/* ELF class and machine decide the platform; a #! script is judged by
   its interpreter.  Anything unreadable gets the default, and the core
   reports the real problem. */
static const char* platform_of(const char* program, int depth)
{
   char path[PATH_MAX];
   unsigned char head[256];
   ssize_t n;
   int fd;

   if (depth > 4 || !find_in_path(program, path, sizeof path))
      return CG_DEFAULT_PLATFORM;
   fd = open(path, O_RDONLY);
   if (fd < 0)
      return CG_DEFAULT_PLATFORM;
   n = read(fd, head, sizeof head - 1);
   close(fd);
   if (n < 4)
      return CG_DEFAULT_PLATFORM;
   head[n] = '\0';

   if (head[0] == '#' && head[1] == '!') {
      char interp[PATH_MAX];
      size_t i = 2, len = 0;
      while (head[i] == ' ' || head[i] == '\t')
         i++;
      while (head[i] != '\0' && head[i] != ' ' && head[i] != '\t'
             && head[i] != '\n' && len + 1 < sizeof interp)
         interp[len++] = (char)head[i++];
      interp[len] = '\0';
      return len ? platform_of(interp, depth + 1) : CG_DEFAULT_PLATFORM;
   }
   if (n >= (ssize_t)sizeof(Elf32_Ehdr) && memcmp(head, ELFMAG, SELFMAG) == 0) {
      const Elf32_Ehdr* e32 = (const Elf32_Ehdr*)head;
      if (head[EI_CLASS] == ELFCLASS32 && e32->e_machine == EM_386)
         return "x86-linux";
      if (head[EI_CLASS] == ELFCLASS64 && e32->e_machine == EM_X86_64)
         return "amd64-linux";
   }
   return CG_DEFAULT_PLATFORM;
}

/* Our tool binary for the platform, beside this program first, then
   at its configured place.  False if neither exists. */
static int find_tool(const char* self, const char* platform, char* out,
                     size_t out_size)
{
   const char* slash = strrchr(self, '/');
   int self_dir_len = slash ? (int)(slash - self) : 0;

   snprintf(out, out_size, "%.*s/%s/%s-%s", self_dir_len, self,
            CG_TOOL_DIR_FROM_BIN, OUR_TOOL, platform);
   if (access(out, X_OK) == 0)
      return 1;
   snprintf(out, out_size, "%s/%s-%s", CG_TOOL_DIR, OUR_TOOL, platform);
   return access(out, X_OK) == 0;
}

int main(int argc, char** argv)
{
   char tool_path[PATH_MAX];
   char self[PATH_MAX];
   ssize_t self_len;
   int client_at;
   const char* tool = requested_tool(argc, argv, &client_at);
   const char* platform;

   if (strcmp(tool, OUR_TOOL) != 0) {
      execv(CG_SYSTEM_LAUNCHER, argv);
      fprintf(stderr, "valgrind: cannot run the system launcher %s: %s\n",
              CG_SYSTEM_LAUNCHER, strerror(errno));
      return 1;
   }

   /* Also what the core re-executes for --trace-children=yes. */
   self_len = readlink("/proc/self/exe", self, sizeof self - 1);
   if (self_len <= 0) {
      fprintf(stderr, "valgrind: cannot read /proc/self/exe: %s\n",
              strerror(errno));
      return 1;
   }
   self[self_len] = '\0';

   platform = client_at ? platform_of(argv[client_at], 0)
                        : CG_DEFAULT_PLATFORM;
   if (!find_tool(self, platform, tool_path, sizeof tool_path)) {
      fprintf(stderr, "valgrind: this cachegrind was not built for %s "
              "(no %s-%s beside %s or in %s; see ./configure's summary)\n",
              platform, OUR_TOOL, platform, self, CG_TOOL_DIR);
      return 1;
   }
   if (setenv("VALGRIND_LAUNCHER", self, 1) != 0) {
      fprintf(stderr, "valgrind: setenv failed: %s\n", strerror(errno));
      return 1;
   }
   execv(tool_path, argv);
   fprintf(stderr, "valgrind: cannot run %s: %s\n", tool_path,
           strerror(errno));
   return 1;
}
