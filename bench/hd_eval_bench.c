#define _POSIX_C_SOURCE 199309L
/* Standalone timing of hd_eval_batch_u8 (csrc/) on 1M random distinct 7-card rows, no Python:
 * median and min over repeats of the thread CPU time.  From the repository root:
 *   cc -std=c99 -O3 -fPIC -Icsrc bench/hd_eval_bench.c csrc/hd_eval.c csrc/hd_tables.c -o /tmp/hd_eval_bench
 *   /tmp/hd_eval_bench [repeats=31] [rows=1000000]
 * The checksum line lets two builds be compared for identical output. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "hd_eval.h"
static uint64_t s = 0x12345678ABCDEFULL;
static unsigned rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (unsigned)(s % 52u); }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv) {
    size_t n = argc > 2 ? (size_t)atol(argv[2]) : 1000000, i; int j, r, reps = argc > 1 ? atoi(argv[1]) : 31;
    uint8_t *rows = malloc(n * 7); hd_rank_t *out = malloc(n * 2); double t[1001];
    uint64_t chk = 0;
    if (reps < 1) reps = 1;
    if (reps > 1001) reps = 1001;
    if (!rows || !out) return 1;
    for (i = 0; i < n; ++i) { uint64_t u = 0; for (j = 0; j < 7; ++j) { unsigned c; do c = rnd(); while (u >> c & 1); u |= 1ull << c; rows[i*7+j] = (uint8_t)c; } }
    for (r = 0; r < reps; ++r) {
        struct timespec a, b; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
        ptrdiff_t bad = hd_eval_batch_u8(rows, n, 7, out);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        if (bad != -1) { printf("bad %td\n", bad); return 1; }
        t[r] = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
    }
    for (i = 0; i < n; ++i) chk = chk * 31 + out[i];
    qsort(t, reps, sizeof t[0], cmp);
    printf("median %.3f ms  %.1f M hands/s  (min %.3f ms, %.1f M/s)  chk %llx\n", t[reps/2]*1e3, n / t[reps/2] / 1e6, t[0]*1e3, n/t[0]/1e6, (unsigned long long)chk);
    return 0;
}
