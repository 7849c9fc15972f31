#pragma once
// The payload pattern every transport writes and verifies, so that verification means the same
// over TCP, host memory and GPU memory.
#include <cstdint>

namespace ibburn {

// Payload pattern shared by every transport so verification means the same everywhere:
// 64-bit word i of message `seq` of flow `flow_id` is pattern_word(flow_id, seq, i).
// constexpr so CUDA kernels (cuda/, --expt-relaxed-constexpr) compute the very same words.
constexpr std::uint64_t pattern_word(std::uint32_t flow_id, std::uint64_t seq, std::uint64_t i) {
  std::uint64_t x = (std::uint64_t(flow_id) << 40) ^ (seq * 0x9E3779B97F4A7C15ull) ^ i;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}

}  // namespace ibburn
