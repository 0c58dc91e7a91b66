#!/usr/bin/env bash
# `bash packaging/setup.sh check` (CI runs it after the test command): the test
# suites under sanitizers and a short fuzzing run. Each part runs even when an
# earlier one failed; the exit status is 1 when any failed.
#   format      every source as .clang-format says (clang-format 14)
#   build-asan  every suite, gcc -O1 -fsanitize=address,undefined, -Werror
#               (the window's code and the suites' own: address alone)
#   build-tsan  the core suites that start threads (CTest label "threads"),
#               gcc -O1 -fsanitize=thread, -Werror
#   build-fuzz  each libFuzzer target (clang) for IRSCOPE_FUZZ_SECONDS (20) of
#               one core, side by side
#               over a scratch copy of fuzz/corpus/<name>
# Suppressions, each naming the library frame it silences and why, are in
# packaging/sanitizers/. Only irscope's own code is instrumented: libtorch and
# Qt are Debian's uninstrumented builds.
set -uo pipefail
cd "$(dirname "$0")/.."
source packaging/stages.sh
root=$PWD
supp=$root/packaging/sanitizers
jobs=$(nproc)
fuzz_seconds=${IRSCOPE_FUZZ_SECONDS:-20}

failed=()
timings=()
part_start() { part=$1; t0=$SECONDS; stage_begin "$part"; }
part_end() {  # $1: the part's exit status
  local s=$((SECONDS - t0))
  stage_end "$1"
  timings+=("$(printf '%-22s %3dm%02ds %s' "$part" $((s / 60)) $((s % 60)) "$([[ $1 == 0 ]] && echo ok || echo FAILED)")")
  [[ $1 == 0 ]] || failed+=("$part")
}

# Reports name function, file and line (gcc's and clang's runtimes both use it).
symbolizer=/usr/lib/llvm-14/bin/llvm-symbolizer
[[ -x $symbolizer ]] && export ASAN_SYMBOLIZER_PATH=$symbolizer TSAN_SYMBOLIZER_PATH=$symbolizer \
  UBSAN_SYMBOLIZER_PATH=$symbolizer LLVM_SYMBOLIZER_PATH=$symbolizer

# A sanitizer finding stops the process with SIGABRT (abort_on_error), not a
# plain exit status: the CLI suites run build-asan/bin/irscope as a child and
# check its exit status, and 1 is a legitimate answer there ("errors found").
# intercept_tls_get_addr=0: gcc 12's runtime guesses a glibc 2.19 header in
# front of each dynamic TLS block (the `tls_beg % 4096` test that
# google/sanitizers#1322 describes); glibc 2.36 has none, and when a block
# lands on that offset by chance, LeakSanitizer reads a bogus range at exit
# ("Tracer caught signal 11", the process dies with no report). Seen here in
# `irscope run` after libtorch's threads ran. The cost: pointers held only in
# the dynamic TLS of a dlopen()ed library are not scanned, so such a block
# would show up as a leak, never hide one.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:intercept_tls_get_addr=0:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
# TSan instead exits with status 66: a SIGABRT from it would run Qt Test's
# crash handler, which forks while TSan holds its thread registry lock (a hang).
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp"
# Qt Test's crash handler otherwise attaches gdb to print a second stack of a
# crash the sanitizer has already reported.
export QTEST_DISABLE_STACK_DUMP=1

# CXX picks the compiler when a build directory is first configured (changing
# it later would make CMake throw the directory's cache away).
common=(-G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O1
        -DIRSCOPE_WERROR=ON -DIRSCOPE_BUILD_BENCH=OFF -DIRSCOPE_FUZZ=OFF)

# ---- The house format (.clang-format): the code as clang-format 14 writes it.
part_start "clang-format"
git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run --Werror
part_end $?

# ---- AddressSanitizer + UndefinedBehaviorSanitizer: every suite.
# Debug keeps assert() and Q_ASSERT on; -O1 keeps the suites fast under ASan;
# the sanitizer flags add -g1 (file:line in reports).
part_start "asan build"
CXX=g++ cmake -S . -B build-asan "${common[@]}" -DIRSCOPE_SANITIZE=address,undefined &&
  cmake --build build-asan -j"$jobs"
built=$?
part_end $built
if (( built == 0 )); then
  part_start "asan ctest"
  ctest --test-dir build-asan --output-on-failure -j"$jobs"
  part_end $?
fi

# ---- ThreadSanitizer: only the core suites that start threads; GUI suites
# stay on ASan (Qt 6's QMutex and QWaitCondition sit on futexes TSan cannot see).
part_start "tsan build+run"
(
  CXX=g++ cmake -S . -B build-tsan "${common[@]}" -DIRSCOPE_SANITIZE=thread || exit 1
  cmake --build build-tsan -j"$jobs" --target irscope_threaded_suites || exit 1
  # libtorch runs at::parallel_for on libgomp's OpenMP threads and OpenBLAS
  # (libopenblas0-pthread) has its own thread pool; neither is instrumented, and
  # TSan cannot see their futex barriers, so it would report the pool threads'
  # writes to a result tensor as races with the caller's reads. Today's suites
  # use tensors below the size where either splits work, but bigger ones would.
  # With one thread each, the loops run on the calling thread, and what is
  # checked is irscope's own threads (a run, a query thread, cancel).
  # gcc 12's TSan runtime cannot map its shadow memory under the 32 bits of
  # mmap randomness newer kernels default to; without address randomization it can.
  norandom=()
  if (( $(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28) > 28 )); then norandom=(setarch "$(uname -m)" -R); fi
  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "${norandom[@]}" ctest --test-dir build-tsan --output-on-failure -L threads -j"$jobs" --no-tests=error
)
part_end $?

# ---- libFuzzer: a short run of each target (Debug: assert() stays on; the
# targets build with -O1). New inputs go to a scratch corpus
# in build-fuzz; fuzz/corpus/<name> is read, never written.
part_start "fuzz build"
targets=()
for dir in fuzz/corpus/*/; do targets+=("fuzz_$(basename "$dir")"); done
CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DIRSCOPE_FUZZ=ON -DIRSCOPE_BUILD_TESTS=OFF -DIRSCOPE_BUILD_BENCH=OFF &&
  cmake --build build-fuzz -j"$jobs" --target "${targets[@]}"
built=$?
part_end $built
if (( built == 0 )); then
  # The targets run side by side, each for long enough to get the CPU time it
  # would have had alone (IRSCOPE_FUZZ_SECONDS of one core): with more targets
  # than cores, the wall time is stretched to seconds * targets / cores. Eight
  # targets on two cores then take 80 s instead of 160 s one after another.
  # CI's run is a short one over a corpus that keeps every input found
  # before (fuzz/corpus/); a longer search: IRSCOPE_FUZZ_SECONDS.
  n=${#targets[@]}
  seconds=$fuzz_seconds
  (( n > jobs )) && seconds=$(((fuzz_seconds * n + jobs - 1) / jobs))
  part_start "fuzz ($n side by side, ${seconds}s)"
  pids=()
  for target in "${targets[@]}"; do
    name=${target#fuzz_}
    mkdir -p "build-fuzz/corpus/$name" "build-fuzz/artifacts/$name"
    # -timeout: an input that takes 20 s is a hang; crashes and hangs are kept
    # in build-fuzz/artifacts/<name>/ (add them to fuzz/corpus/<name>/ and
    # tests/io/test_malformed_files.cpp).
    "build-fuzz/bin/$target" "build-fuzz/corpus/$name" "fuzz/corpus/$name" \
      -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="build-fuzz/artifacts/$name/" >"build-fuzz/$target.log" 2>&1 &
    pids+=($!)
  done
  fuzz_status=0
  for i in "${!targets[@]}"; do
    target=${targets[$i]}
    wait "${pids[$i]}"
    status=$?
    log=build-fuzz/$target.log
    echo "--- $target"
    # The whole report on a finding; the last status line and the stats otherwise.
    if (( status )); then
      cat "$log"
      failed+=("$target")
      fuzz_status=1
    else
      grep -E '^#[0-9]+.*(DONE|pulse)|^stat::' "$log" | tail -n 8
    fi
  done
  part_end $fuzz_status
fi

echo "=== check: wall time per part ($jobs cores)"
printf '  %s\n' "${timings[@]}"
if (( ${#failed[@]} )); then
  echo "check: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "check: all parts passed"
