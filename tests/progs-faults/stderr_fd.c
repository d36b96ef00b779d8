/* The client takes fd 2 away from Valgrind's start-up stderr, then
 * exits normally:
 *   close     close(2)
 *   closeall  close every descriptor below the soft limit, 0 to 2 included
 *   devnull   dup2() of /dev/null onto 2
 *   file      dup2() of the file named by argv[2] onto 2
 * Valgrind moved its own log descriptor out of the client's range at
 * start-up, so the summary must still reach the original stderr. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "faults.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "close";
    uint64_t acc = faults_work(4);
    printf("stderr_fd: %s, before %llu\n", mode, (unsigned long long)acc);
    fflush(stdout);

    if (strcmp(mode, "close") == 0) {
        close(2);
    } else if (strcmp(mode, "closeall") == 0) {
        struct rlimit rl;
        int top = 1024;
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 1024)
            top = (int)rl.rlim_cur;
        for (int fd = 0; fd < top; fd++)
            close(fd);
    } else {
        const char *path = strcmp(mode, "devnull") == 0 ? "/dev/null"
                         : argc > 2 ? argv[2] : "client-stderr.txt";
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 2) != 2) {
            puts("stderr_fd: cannot redirect fd 2");
            return 1;
        }
        close(fd);
    }
    fprintf(stderr, "stderr_fd: this line goes to the client's fd 2\n");
    acc += faults_work(4);
    /* After closeall stdout is gone too: nothing more can be printed. */
    printf("stderr_fd: after %llu\n", (unsigned long long)acc);
    return 0;
}
