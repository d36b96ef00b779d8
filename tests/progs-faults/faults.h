/* Shared by the fault fixtures: a fixed amount of work whose counts do
 * not depend on timing, so that a run under the system Cachegrind and
 * one under ours can be compared line for line. */
#ifndef FAULTS_H
#define FAULTS_H

#include <stdint.h>

static uint32_t faults_table[8192];

/* Touches the table 'passes' times; returns a checksum so that the
 * compiler keeps the loop at -O2. */
static uint64_t faults_work(int passes)
{
    uint64_t acc = 0;
    for (int p = 0; p < passes; p++)
        for (int i = 0; i < 8192; i++) {
            faults_table[i] = faults_table[i] * 33u + (uint32_t)(i ^ p);
            acc += faults_table[(i * 7) & 8191];
        }
    return acc;
}

#endif
