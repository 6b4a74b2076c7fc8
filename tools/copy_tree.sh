#!/usr/bin/env bash
# Copy a source tree to DEST without its build products, for a scratch build of it:
#
#   tools/copy_tree.sh SRC DEST
#
# In a git checkout: the tracked files and the new ones git does not ignore (uncommitted work
# included). Elsewhere (an unpacked sdist): everything but build/, virtual environments,
# generated C, compiled modules and benchmark results. bench/gate.sh and tools/tsan.sh use it.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: tools/copy_tree.sh SRC DEST" >&2; exit 2; }
src="$1"
dest="$2"
mkdir -p "$dest"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard \
        | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$dest"
else
    (cd "$src" && tar --exclude=./build --exclude='./.*venv*' --exclude='./holdem/*.c' \
        --exclude='./holdem/*.so' --exclude='./bench/results' -cf - .) | tar -xf - -C "$dest"
fi
