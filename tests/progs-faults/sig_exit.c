/* The program ends inside a signal handler:
 *   alrm-exit / alrm-_exit   SIGALRM from alarm(1) while main waits in
 *                            pause(); the handler calls exit(3) / _exit(3)
 *   usr1-exit / usr1-_exit   SIGUSR1 sent with kill(getpid()) at a fixed
 *                            point; the handler calls exit(4) / _exit(4)
 * Both are deterministic: pause() executes the same instructions however
 * long it waits. An atexit handler shows whether exit's clean-up ran. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "faults.h"

static int use_exit;
static volatile uint64_t handler_acc;

static void at_exit_note(void)
{
    printf("sig_exit: atexit handler ran\n");
}

static void on_signal(int sig)
{
    handler_acc = faults_work(2);
    if (use_exit)
        exit(sig == SIGALRM ? 3 : 4);
    _exit(sig == SIGALRM ? 3 : 4);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "usr1-exit";
    int alrm = strncmp(mode, "alrm", 4) == 0;
    use_exit = strstr(mode, "-_exit") == NULL;
    atexit(at_exit_note);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(alrm ? SIGALRM : SIGUSR1, &sa, NULL);

    uint64_t acc = faults_work(3);
    printf("sig_exit: %s, work %llu\n", mode, (unsigned long long)acc);
    if (alrm) {
        alarm(1);
        for (;;)
            pause();
    }
    kill(getpid(), SIGUSR1);
    puts("sig_exit: the handler returned");
    return 1;
}
