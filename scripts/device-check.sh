#!/usr/bin/env bash
# GPU check, for a machine with an NVIDIA GPU: builds ibburn with CUDA and runs the GPU
# tests (pattern fill/verify kernels against the host pattern, dma-buf export, and GPUDirect
# registration when an HCA is present too), plus the verbs suite. About 2-4 minutes; every
# step is bounded so the whole check stays under 5.
#
#   scripts/device-check.sh [BUILD_DIR]      (default build-device)
#
# Exit 0: all GPU tests ran and passed. 1: a test failed or a GPU test was skipped on a
# machine that has a GPU. 3: no GPU / no nvcc / no build tools (nothing was checked).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-device}
export PATH=/usr/local/cuda/bin:$PATH
start=$SECONDS

fail_env() { echo "device-check: $*" >&2; exit 3; }
command -v nvidia-smi > /dev/null || fail_env "nvidia-smi not found: not a GPU machine"
nvidia-smi -L || fail_env "nvidia-smi sees no GPU"
command -v nvcc > /dev/null || fail_env "nvcc not found (CUDA toolkit missing)"
command -v cmake > /dev/null || fail_env "cmake not found (run scripts/setup.sh first)"

jobs=$(nproc)
timeout 120 cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$build.configure.log" 2>&1 ||
  { tail -30 "$build.configure.log"; fail_env "configure failed (missing packages? scripts/setup.sh)"; }
grep -q "ibburn: CUDA support ON" "$build.configure.log" ||
  { grep "CUDA" "$build.configure.log"; echo "device-check: CMake did not enable CUDA" >&2; exit 1; }
timeout 200 cmake --build "$build" -j"$jobs" --target cuda_gpu_test verbs_soft_hca_test verbs_logic_test
echo "device-check: built in $((SECONDS - start)) s"

status=0
# The GPU tests must RUN here: a skip means the GPU was not usable, which is a failure.
out=$(timeout 60 "$build/tests/cuda/cuda_gpu_test" 2>&1) || status=1
echo "$out"
allowed_skips='WithoutCudaEveryGpuCallSaysSo|RegistersWithTheHcaWhenOneIsPresent'
# No `| grep -q` under pipefail: its early exit kills the writer with SIGPIPE and fails the pipe.
skipped=$(grep '^\[  SKIPPED \] GpuMemory\.' <<<"$out" | grep -vE "$allowed_skips" || true)
if [[ -n "$skipped" ]]; then
  echo "device-check: GPU tests were skipped on a GPU machine" >&2
  status=1
fi
timeout 120 "$build/tests/burn/verbs/verbs_soft_hca_test" --gtest_brief=1 || status=1
timeout 30 "$build/tests/burn/verbs/verbs_logic_test" --gtest_brief=1 || status=1
echo "device-check: done in $((SECONDS - start)) s, status $status"
exit $status
