#!/usr/bin/env bash
# ThreadSanitizer over the tests that run compiled code from several threads at once.
#
#   tools/tsan.sh [pytest arguments]     default: the threaded tests (THREADED below)
#
# The batched engine (holdem._vector) shares a step's tables between threads with atomics
# (csrc/hd_atomic.h) and no lock, and the equity, evaluation and dealing kernels release the
# GIL under thread pools. This builds the source tree (tracked and new files, not build
# products) in a scratch copy with HOLDEM_SANITIZE=thread (setup.py), then runs pytest there
# with the TSan runtime preloaded into the interpreter. The first data race TSan reports stops
# the run with exit code 66 (halt_on_error). Only the C and Cython code is instrumented, not
# CPython: a race inside the interpreter is not reported, one on the engine's memory is.
#
# PYTHON: the interpreter to use (default python3): its environment needs the test extra; the
# build requirements (setuptools, Cython) are installed into it when missing. Needs gcc (or
# clang) with its libtsan. Exit codes: pytest's, or 66 for a race, or 4 when TSan cannot run
# here (no runtime, or it fails on a two-thread C probe): that is said, never silent.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
cc="${CC:-gcc}"
THREADED=(tests/test_vector_threads.py tests/test_vector_lanes_random.py tests/test_vector.py
          tests/test_vector_clone.py
          tests/test_simulate_batched.py tests/test_agents_compiled.py tests/test_parallel.py
          tests/test_equity.py tests/test_simulate.py)

lib="$("$cc" -print-file-name=libtsan.so 2>/dev/null || true)"
if [ -z "$lib" ] || [ ! -e "$lib" ]; then
    echo "tsan: $cc has no libtsan.so: ThreadSanitizer cannot run here" >&2
    exit 4
fi
scratch="$(mktemp -d "${TMPDIR:-/tmp}/holdem-tsan.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

# The probe: TSan must start and see a race in a plain two-thread C program (some kernels'
# address-space layouts make the runtime refuse to start).
cat > "$scratch/probe.c" <<'EOF'
#include <pthread.h>
static int shared;
static void *bump(void *arg) { (void)arg; shared++; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, bump, 0); shared++; pthread_join(t, 0); return 0; }
EOF
if ! "$cc" -fsanitize=thread -g "$scratch/probe.c" -o "$scratch/probe" -lpthread 2>"$scratch/probe.err"; then
    echo "tsan: $cc cannot build with -fsanitize=thread: ThreadSanitizer cannot run here" >&2
    cat "$scratch/probe.err" >&2
    exit 4
fi
probe_status=0
TSAN_OPTIONS="exitcode=66" "$scratch/probe" >/dev/null 2>"$scratch/probe.err" || probe_status=$?
if [ "$probe_status" != 66 ]; then
    echo "tsan: the probe's race was not reported (exit $probe_status): ThreadSanitizer cannot run here" >&2
    head -5 "$scratch/probe.err" >&2
    exit 4
fi

# the interpreter itself (a launcher script, such as pyenv's shim, must not run under TSan)
python="$("$python" -c 'import sys; print(sys.executable)')"

echo "tsan: building a ThreadSanitizer copy in $scratch/src"
bash "$root/tools/copy_tree.sh" "$root" "$scratch/src"
"$python" -c "import Cython, setuptools" 2>/dev/null \
    || "$python" -m pip install -q "setuptools>=77" "Cython>=3.1,<4"
(cd "$scratch/src" && HOLDEM_SANITIZE=thread "$python" setup.py -q build_ext --inplace \
    >"$scratch/build.log" 2>&1) || { cat "$scratch/build.log" >&2; exit 2; }

[ $# -gt 0 ] || set -- "${THREADED[@]}"
# over every core when pytest-xdist is there (the test extra has it)
xdist=()
"$python" -c "import xdist" 2>/dev/null && xdist=(-n auto)
echo "tsan: pytest ${xdist[*]} $*"
cd "$scratch/src"
# die_after_fork=0: a test forks a child that starts its own workers (TSan's own caveat about
# threads after fork does not apply to what it checks); report_signal_unsafe=0: CPython's
# signal handlers are not the engine's. log_path: every process (pytest's workers and the
# children tests start included) writes its reports to a file of its own, read below, so a
# race is told apart from a failed test whichever process saw it.
status=0
PYTHONPATH="$scratch/src" LD_PRELOAD="$lib" \
    TSAN_OPTIONS="halt_on_error=1 exitcode=66 die_after_fork=0 report_signal_unsafe=0 log_path=$scratch/report ${TSAN_OPTIONS:-}" \
    "$python" -m pytest -q -p no:cacheprovider "${xdist[@]}" "$@" || status=$?
reports=("$scratch"/report.*)
if [ -e "${reports[0]}" ]; then
    cat "${reports[@]}" >&2
    if grep -q "WARNING: ThreadSanitizer" "${reports[@]}"; then
        echo "tsan: ThreadSanitizer reported the above" >&2
        exit 66
    fi
fi
exit "$status"
