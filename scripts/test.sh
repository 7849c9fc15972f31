#!/usr/bin/env bash
# CI, in order: set-up, the layering check, the format check, then three builds, each in its
# own dir and each timed:
#   build       warnings are errors (IBBURN_WERROR); every header on its own; every test;
#               then the rxe tests alone (the verbs burn on soft-RoCE in QEMU guests)
#   build-asan  ASan+UBSan; the unit tests (everything not labelled sim, mpi, fuzz or gpu)
#   build-tsan  TSan; the threaded transports and the burn engine (tests labelled tsan)
# right after build/, the Debian package made from it: lintian, then installed, checked and
# removed (scripts/package.sh --install-check: CI runs as root on a throwaway machine);
# and last clang-tidy over build/'s compile_commands.json at zero warnings (scripts/tidy.py:
# it skips a unit whose preprocessed text passed before, so a warm run takes ~2 minutes).
# `.ci/run` calls exactly this. ccache keys on paths relative to the repo root, so a fresh
# clone in another folder reuses the cache.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
# MPI tests run as root in CI; Open MPI refuses that unless told it is intended.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# A sanitizer report fails its test (UB is not recoverable: cmake/Sanitize.cmake).
export UBSAN_OPTIONS=print_stacktrace=1
export TSAN_OPTIONS="second_deadlock_stack=1"

timed() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "ci: $name took $((SECONDS - start)) s"
}
configure() {
  cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER_LAUNCHER=ccache \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache "${@:2}"
}
main_job() {
  configure build -DIBBURN_WERROR=ON
  cmake --build build -j"$jobs"
  ctest --test-dir build -j"$jobs" --output-on-failure --timeout 600 -LE rxe
}
# The verbs burn on soft-RoCE in QEMU guests (tests/rxe): alone, as the guests want the cores.
rxe_job() {
  ctest --test-dir build --output-on-failure -L rxe
}
asan_job() {
  configure build-asan -DIBBURN_SANITIZE=address,undefined
  cmake --build build-asan -j"$jobs" --target unit_tests
  # Tests of targets this job does not build show up as <target>_NOT_BUILT.
  ctest --test-dir build-asan -j"$jobs" --output-on-failure --timeout 600 -LE 'sim|mpi|fuzz|gpu|rxe' -E '_NOT_BUILT$'
}
tsan_job() {
  configure build-tsan -DIBBURN_SANITIZE=thread
  cmake --build build-tsan -j"$jobs" --target tsan_tests
  ctest --test-dir build-tsan -j"$jobs" --output-on-failure --timeout 600 -L tsan
}

timed setup bash scripts/setup.sh
timed layering bash scripts/check-layering
timed format bash scripts/format.sh --check
timed build main_job
timed rxe rxe_job
timed package bash scripts/package.sh build --install-check
timed asan asan_job
timed tsan tsan_job
timed tidy python3 scripts/tidy.py build
