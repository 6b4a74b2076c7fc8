/* Every header of csrc/, each function of hd_atomic.h called: tests/test_c_portability.py
 * compiles this, and each C file of csrc/, as MSVC would see them. */
#include "hd_agents.h"
#include "hd_atomic.h"
#include "hd_common.h"
#include "hd_deck.h"
#include "hd_eval.h"
#include "hd_hand.h"
#include "hd_pots.h"
#include "hd_rng.h"
#include "hd_tables.h"

int64_t hd_test_atomics(int64_t *p);
int64_t hd_test_atomics(int64_t *p) {
    int64_t seen = 0;
    hd_atomic_store(p, 3);
    (void)hd_atomic_cas(p, &seen, 4);
    hd_cpu_relax();
    hd_thread_yield();
    hd_prefetch(p);
    return hd_atomic_add(p, 5) + hd_atomic_load(p) + hd_now_ns()
        + hd_popcount64((uint64_t)*p) + hd_ctz64((uint64_t)*p | 1u);
}
