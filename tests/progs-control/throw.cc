// --toggle-collect and C++ exceptions: thrower() throws, main() catches.
// The unwinding runs inside thrower()'s activation; the handler in main()
// and landed(), which it calls, are not counted.  A second call of
// thrower() returns normally.
#include <cstdio>
#include "ctl.h"

volatile long sink;

NOINLINE long thrower(int n)
{
    long s = 0;
    for (int i = 0; i < 200; i++)
        s += (i * 7) ^ n;
    sink = s;
    if (n > 0)
        throw n;
    return s;
}

NOINLINE long landed(int n)
{
    long s = 0;
    for (int i = 0; i < 500; i++)
        s += (i * 3) % (n + 2);
    return s;
}

int main()
{
    long t = 0;
    try {
        t = thrower(5);
        std::puts("throw: not reached");
    } catch (int e) {
        t = landed(e);
    }
    t += thrower(0);
    sink = t;
    std::printf("throw: %ld\n", t);
    return 0;
}
