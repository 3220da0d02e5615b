#!/bin/sh
# Builds ncclcheck every way CI checks it and runs the whole suite. README's test command and
# .ci/run both call exactly this; its last lines are ctest's summary.
set -eu
cd "$(dirname "$0")/.."
./scripts/deps.sh --test

quiet() { # runs "$@" with its output in a log that is shown only on failure
	log=$(mktemp)
	if ! "$@" >"$log" 2>&1; then
		cat "$log"; rm -f "$log"; echo "FAILED: $*" >&2; exit 1
	fi
	rm -f "$log"
}
jobs=$(nproc 2>/dev/null || echo 2)

echo "== whitespace (scripts/style.sh)"
./scripts/style.sh

# clang with -Werror (gcc is checked by the asan build below) and the libFuzzer harnesses.
echo "== clang build (warnings are errors)"
quiet cmake --preset clang
quiet cmake --build --preset clang -j "$jobs"
echo "== gcc release build (warnings are errors; -O2 finds what -O0 does not)"
quiet cmake --preset release
quiet cmake --build --preset release -j "$jobs"
echo "== libFuzzer harnesses"
quiet cmake --preset fuzz
quiet cmake --build --preset fuzz -j "$jobs"

# The suite itself, under ASan + UBSan with gcc.
echo "== gcc + ASan + UBSan: configure, build, test"
quiet cmake --preset asan
quiet cmake --build --preset asan -j "$jobs"
exec ctest --preset asan -j "$jobs"
