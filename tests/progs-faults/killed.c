/* Started, then killed from outside.
 *   argv[1]  what the program does with SIGTERM and SIGINT:
 *            default  sets them to SIG_DFL (a shell may have started it
 *                     with SIGINT ignored): the signal kills the process
 *            handler  a handler calls exit(9)
 *            ignore   SIG_IGN: the signal is discarded
 *            block    blocked with sigprocmask: it stays pending
 *   argv[2]  a file the program creates, holding its pid (4 bytes, host
 *            order), once the disposition is in place: the test waits
 *            for it, then sends the signal to that pid
 *   argv[3]  what it does meanwhile:
 *            wait     pause() forever: the counts do not depend on when
 *                     the signal comes
 *            busy     a busy loop (the counts depend on it)
 *            threads  two more threads run busy loops too */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "faults.h"

static void on_term(int sig)
{
    (void)sig;
    exit(9);
}

static void *spin(void *arg)
{
    volatile uint64_t *count = arg;
    for (;;)
        (*count)++;
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "default";
    const char *marker = argc > 2 ? argv[2] : "started";
    const char *activity = argc > 3 ? argv[3] : "busy";
    if (strcmp(mode, "handler") == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_term;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGINT, &sa, NULL);
    } else if (strcmp(mode, "ignore") == 0) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
    } else if (strcmp(mode, "block") == 0) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGTERM);
        sigaddset(&set, SIGINT);
        sigprocmask(SIG_BLOCK, &set, NULL);
    } else {
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
    }
    uint64_t acc = faults_work(2);
    printf("killed: %s %s, %llu\n", mode, activity, (unsigned long long)acc);
    fflush(stdout);

    static volatile uint64_t counts[2];
    if (strcmp(activity, "threads") == 0) {
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            if (pthread_create(&t[i], NULL, spin, (void *)&counts[i]) != 0)
                return 2;
    }

    /* The marker appears whole: written under another name, renamed.
     * The pid goes in binary (a 32-bit int in host order): formatting
     * it would take more instructions for a pid of more digits, and the
     * counts of the two tools' runs would differ. */
    char tmp[4096];
    size_t mlen = strlen(marker);
    if (mlen + 5 > sizeof tmp)
        return 2;
    memcpy(tmp, marker, mlen);
    memcpy(tmp + mlen, ".tmp", 5);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return 2;
    int32_t pid = (int32_t)getpid();
    if (write(fd, &pid, sizeof pid) != (ssize_t)sizeof pid || close(fd) != 0
        || rename(tmp, marker) != 0)
        return 2;

    if (strcmp(activity, "wait") == 0)
        for (;;)
            pause();
    for (;;)
        acc += faults_work(1);
    return (int)(acc & 1);
}
