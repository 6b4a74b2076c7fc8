#!/usr/bin/env bash
# Coverage-guided fuzzing of the C core with clang's libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer.
#
#   tools/fuzz.sh TARGET [SECONDS] [libFuzzer options]     TARGET: eval, pots or hand
#   tools/fuzz.sh all [SECONDS]                            each target in turn
#
# TARGET is tests/fuzz/fuzz_TARGET.c, linked with the csrc/ files tests/fuzz/targets.txt lists.
# It starts from the corpus tests/fuzz/corpus/TARGET (committed: tests/test_fuzz_corpus.py
# replays it under gcc's sanitizers in every test run) and adds the new inputs it finds to a
# scratch corpus, $FUZZ_WORK/corpus/TARGET ($FUZZ_WORK: default /tmp/holdem-fuzz), for
# SECONDS seconds (default 60). A crash, a sanitizer report or a failed check (abort) stops it and leaves the
# input as $FUZZ_WORK/crash-*: replay it with the built binary, fix the code, and add it to the
# committed corpus. To fold what a run found into the committed corpus, minimized:
#   tools/fuzz.sh TARGET SECONDS && tools/fuzz.sh merge TARGET
# Needs clang with libFuzzer (Debian: apt-get install clang libclang-rt-14-dev); CC names
# another clang. Exit codes: libFuzzer's (0: nothing found), 2 for a usage error, 4 when
# libFuzzer is not available here (said, never silent).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cc="${CC:-$(command -v clang || command -v clang-14 || command -v clang-15 || command -v clang-16 || true)}"
work="${FUZZ_WORK:-/tmp/holdem-fuzz}"

targets_file="$root/tests/fuzz/targets.txt"  # also read by tests/test_fuzz_corpus.py

targets() {  # every target's name
    awk '!/^#/ && NF { print $1 }' "$targets_file"
}

sources() {  # the csrc/ files a target links
    awk -v t="$1" '!/^#/ && $1 == t { $1 = ""; print }' "$targets_file"
}

known() {
    if [ -z "$1" ] || ! targets | grep -qx -- "$1"; then
        echo "fuzz.sh: unknown target '$1' ($(targets | paste -sd, - | sed 's/,/, /g'))" >&2
        exit 2
    fi
}

build() {  # build TARGET -> path of the binary
    local target="$1" files=() f
    for f in $(sources "$target"); do files+=("$root/csrc/$f"); done
    mkdir -p "$work/bin"
    "$cc" -std=c99 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -I "$root/csrc" "$root/tests/fuzz/fuzz_$target.c" "${files[@]}" \
        -o "$work/bin/fuzz_$target"
    echo "$work/bin/fuzz_$target"
}

if [ -z "$cc" ]; then
    echo "fuzz.sh: no clang found (set CC): libFuzzer cannot run here" >&2
    exit 4
fi
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; return (int)n * 0; }' \
    > "$probe/p.c"
if ! "$cc" -fsanitize=fuzzer,address "$probe/p.c" -o "$probe/p" 2>"$probe/err"; then
    echo "fuzz.sh: $cc cannot build with -fsanitize=fuzzer (libFuzzer's runtime missing?):" >&2
    cat "$probe/err" >&2
    exit 4
fi

case "${1:-}" in
    all)
        for t in $(targets); do "$0" "$t" "${2:-60}"; done
        exit 0 ;;
    merge)
        target="${2:-}"
        if [ -z "$target" ]; then echo "usage: fuzz.sh merge TARGET" >&2; exit 2; fi
        known "$target"
        bin="$(build "$target")"
        mkdir -p "$root/tests/fuzz/corpus/$target"
        keep="$(mktemp -d)"
        # -merge=1 keeps the inputs that add coverage, from the committed corpus first
        mkdir -p "$work/corpus/$target"
        "$bin" -merge=1 "$keep" "$root/tests/fuzz/corpus/$target" "$work/corpus/$target"
        if [ -z "$(ls -A "$keep")" ]; then
            echo "fuzz.sh: the merge kept no input; tests/fuzz/corpus/$target is unchanged" >&2
            rm -rf "$keep"
            exit 1
        fi
        rm -f "$root/tests/fuzz/corpus/$target"/*
        cp "$keep"/* "$root/tests/fuzz/corpus/$target"/
        rm -rf "$keep"
        echo "fuzz.sh: tests/fuzz/corpus/$target has $(ls "$root/tests/fuzz/corpus/$target" | wc -l) inputs"
        exit 0 ;;
    ""|-h|--help)  # this header, without the comment marks
        awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
        exit 2 ;;
esac
target="$1"
known "$target"
seconds="${2:-60}"
shift; [ $# -gt 0 ] && shift
bin="$(build "$target")"
mkdir -p "$work/corpus/$target" "$root/tests/fuzz/corpus/$target"
cd "$work"
exec "$bin" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 "$@" \
    "$work/corpus/$target" "$root/tests/fuzz/corpus/$target"
