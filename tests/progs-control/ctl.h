/* Shared by the instrumentation-control fixtures (tests/control.t).
 *
 * The tests select functions by name (--toggle-collect=hot), so the
 * functions must survive optimisation under their own names: noinline
 * keeps the calls, noipa keeps GCC from cloning a function into
 * "hot.constprop.0" or "work.isra.0", whose names the patterns would
 * not match. */
#ifndef CTL_FIXTURE_H
#define CTL_FIXTURE_H

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define NOINLINE __attribute__((noinline, noipa))
#else
#define NOINLINE __attribute__((noinline, used))
#endif

#endif
