#pragma once
// Union-find over dense ids 0..n-1 (connected parts of fabrics and wiring lists).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ibburn {

class UnionFind {
 public:
  explicit UnionFind(size_t n);
  // The representative of x's set (path halving).
  uint32_t find(uint32_t x);
  // Merges the sets of a and b; b's representative becomes the merged set's. False when
  // they were already one set.
  bool join(uint32_t a, uint32_t b);

 private:
  std::vector<uint32_t> parent_;
};

}  // namespace ibburn
