/* Replaces itself with another program:
 *   exec       work, then execv() of argv[0] with "child" (the same pid)
 *   fork-exec  work, fork; the child execs argv[0] "child", the parent
 *              waits for it and exits with its status
 *   fail       execv() of a path that does not exist; goes on, exits 0
 *   child      the image started by the others: work, exit(6) */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "faults.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "exec";
    if (strcmp(mode, "child") == 0) {
        printf("exec_self: child %llu\n", (unsigned long long)faults_work(5));
        return 6;
    }
    printf("exec_self: %s, before %llu\n", mode, (unsigned long long)faults_work(3));
    fflush(stdout);
    char *child_argv[] = { argv[0], (char *)"child", NULL };
    if (strcmp(mode, "fail") == 0) {
        char *none[] = { (char *)"/nonexistent/exec_self-target", NULL };
        execv(none[0], none);
        printf("exec_self: exec failed as expected, %llu\n",
               (unsigned long long)faults_work(1));
        return 0;
    }
    if (strcmp(mode, "fork-exec") == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            execv(argv[0], child_argv);
            _exit(127);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        printf("exec_self: child status %d, after %llu\n",
               WIFEXITED(status) ? WEXITSTATUS(status) : -1,
               (unsigned long long)faults_work(1));
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    execv(argv[0], child_argv);
    puts("exec_self: execv failed");
    return 1;
}
