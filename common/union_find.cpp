#include "common/union_find.h"

#include <numeric>

namespace ibburn {

UnionFind::UnionFind(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }

uint32_t UnionFind::find(uint32_t x) {
  while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
  return x;
}

bool UnionFind::join(uint32_t a, uint32_t b) {
  a = find(a);
  b = find(b);
  if (a == b) return false;
  parent_[a] = b;
  return true;
}

}  // namespace ibburn
