#!/usr/bin/env bash
# The instruction-count gate, from a clean build with the pinned build toolchain.
#
#   bench/gate.sh check [icount options]    measure, compare with bench/baseline.json
#   bench/gate.sh update "reason" [--workloads a,b]
#                                           measure, rewrite the baseline (reason kept in it;
#                                           with --workloads only those, same toolchain)
#   bench/gate.sh run [icount options]      measure only (bench/results/icount.json)
#
# It copies the source tree (tracked and new files, not build products) to a fixed scratch
# directory (HOLDEM_GATE_DIR, default /tmp/holdem-gate; removed afterwards), builds it there
# into a fresh virtual environment with bench/gate-requirements.txt (no build isolation, so the
# pinned Cython is the one used), then runs bench/icount.py with that environment's
# interpreter. HOLDEM_GATE_SRC=DIR builds another tree (a base commit) with this tree's
# workloads. valgrind is installed with apt-get when it is missing and
# that is possible; otherwise the gate says why it was skipped (exit 0, or 4 with
# HOLDEM_GATE_REQUIRED=1). Exit codes: those of bench/icount.py (0 ok, 1 regression,
# 2 error, 3 toolchain not comparable with --strict).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cmd="${1:-check}"
shift || true
python="${PYTHON:-python3}"
usage='usage: bench/gate.sh check|run [icount options] | update "reason" [icount options]'
case "$cmd" in
    check|run) set -- "$cmd" --baseline "$root/bench/baseline.json" --results "$root/bench/results" "$@" ;;
    update)
        [ $# -ge 1 ] && [ -n "$1" ] || { echo "$usage" >&2; exit 2; }
        reason="$1"; shift
        set -- update --reason "$reason" --baseline "$root/bench/baseline.json" "$@" ;;
    *) echo "$usage" >&2; exit 2 ;;
esac

if ! command -v valgrind >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; }; then
        echo "icount gate: valgrind is missing; installing Debian's package"
        sudo_="" ; [ "$(id -u)" = 0 ] || sudo_="sudo -n"
        $sudo_ apt-get update -qq && $sudo_ apt-get install -y -qq valgrind >/dev/null
    fi
fi
if ! command -v valgrind >/dev/null 2>&1; then
    why="valgrind is not installed and cannot be installed here (no apt-get, or not root and no sudo)"
    echo "icount gate: SKIPPED: $why. Install valgrind to run the instruction-count gate."
    [ "${HOLDEM_GATE_REQUIRED:-0}" = 1 ] && exit 4
    exit 0
fi

# One fixed build directory: the interpreter's paths (and so the hashes of the path strings the
# interpreter keeps) are then the same in every run and every checkout; instruction counts of
# the Python-level workloads move by a few tenths of a percent with them otherwise. A lock
# makes concurrent gates take turns.
work="${HOLDEM_GATE_DIR:-/tmp/holdem-gate}"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$work.lock"
    flock 9 || true
fi
rm -rf "$work"
mkdir -p "$work/src"
trap 'rm -rf "$work"' EXIT
src="${HOLDEM_GATE_SRC:-$root}"   # the tree to build (default: this one)
bash "$root/tools/copy_tree.sh" "$src" "$work/src"
# The workloads and the gate are always this tree's (so a base commit is measured by the head's
# workloads), run from the copy (the fixed paths). Without the last run's results and bytecode
# caches: bench/ is the first directory on the measured interpreter's sys.path, and what it
# lists moves the heap (a fresh checkout and a tree the gate has run in measured differently).
rm -rf "$work/src/bench"
(cd "$root" && tar --exclude=bench/results --exclude=__pycache__ -cf - bench) | tar -xf - -C "$work/src"

echo "icount gate: building holdem with the pinned toolchain ($(grep -v '^#' "$root/bench/gate-requirements.txt" | xargs))"
build_start=$SECONDS
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --upgrade pip
"$work/venv/bin/python" -m pip install -q -r "$root/bench/gate-requirements.txt"
"$work/venv/bin/python" -m pip install -q --no-build-isolation --no-deps "$work/src"
echo "icount gate: built in $((SECONDS - build_start)) s"

status=0
"$work/venv/bin/python" "$work/src/bench/icount.py" "$@" || status=$?
exit $status   # (not exec: the trap removes the scratch build afterwards)
