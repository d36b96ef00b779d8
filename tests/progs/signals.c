/* Signal delivery: a SIGUSR1 handler (installed with sigaction) that does
 * some memory work, raised synchronously with raise() and kill(getpid()). */
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <stdint.h>

static volatile sig_atomic_t deliveries;
static uint32_t scratch[4096];
static volatile uint64_t handler_sum;

static void on_usr1(int sig)
{
    (void)sig;
    uint64_t s = 0;
    for (int i = 0; i < 4096; i++) {
        scratch[i] += (uint32_t)(i ^ deliveries);
        s += scratch[i];
    }
    handler_sum += s;
    deliveries++;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    if (sigaction(SIGUSR1, &sa, NULL) != 0) {
        puts("signals: sigaction failed");
        return 1;
    }
    for (int i = 0; i < 5; i++)
        raise(SIGUSR1);
    for (int i = 0; i < 5; i++)
        kill(getpid(), SIGUSR1);
    /* Work in between, with the signal blocked and then released. */
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigprocmask(SIG_BLOCK, &set, &old);
    raise(SIGUSR1);
    int before = deliveries;
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("signals: deliveries=%d before_unblock=%d sum=%llu\n",
           (int)deliveries, before, (unsigned long long)handler_sum);
    return 0;
}
