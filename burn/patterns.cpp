// Built-in traffic patterns (declared in burn/stage_plan.h).
#include <string>

#include "burn/stage_plan.h"
#include "common/error.h"

namespace ibburn::burn {
namespace {

[[noreturn]] void bad(const std::string& reason) { throw InputError("--pattern", 0, reason); }

Plan pairs(int n, int streams) {
  if (n < 2 || n % 2) bad("pairs needs an even number of ranks, got " + std::to_string(n));
  Stage s{"pairs", {}};
  for (int r = 0; r < n / 2; ++r) s.flows.push_back({r, r + n / 2, true, streams});
  return {"pairs", {s}};
}

Plan shift(int n, int k, int streams) {
  if (n < 2) bad("shift needs at least 2 ranks");
  if (k < 1 || k >= n) bad("shift:K needs 1 <= K < ranks (" + std::to_string(n) + ")");
  Plan p{"shift:" + std::to_string(k), {}};
  for (int step = 1; step <= k; ++step) {
    Stage s{"shift " + std::to_string(step), {}};
    for (int r = 0; r < n; ++r) s.flows.push_back({r, (r + step) % n, false, streams});
    p.stages.push_back(std::move(s));
  }
  return p;
}

// Circle method: fix slot 0, rotate the others; slot i meets slot m-1-i. An odd n adds a
// phantom rank m-1 = n whose partner sits out the round.
Plan one_to_one(int n, int streams) {
  if (n < 2) bad("one-to-one needs at least 2 ranks");
  const int m = n % 2 ? n + 1 : n;
  Plan p{"one-to-one", {}};
  for (int round = 0; round < m - 1; ++round) {
    auto slot = [&](int i) { return i == 0 ? 0 : 1 + (i - 1 + round) % (m - 1); };
    Stage s{"round " + std::to_string(round + 1), {}};
    for (int i = 0; i < m / 2; ++i) {
      int a = slot(i), b = slot(m - 1 - i);
      if (a >= n || b >= n) continue;
      s.flows.push_back({std::min(a, b), std::max(a, b), true, streams});
    }
    p.stages.push_back(std::move(s));
  }
  return p;
}

}  // namespace

Plan make_pattern(const std::string& pattern, int ranks, int streams) {
  if (pattern == "pairs") return pairs(ranks, streams);
  if (pattern == "one-to-one") return one_to_one(ranks, streams);
  if (pattern.rfind("shift:", 0) == 0) {
    std::size_t used = 0;
    int k = 0;
    try {
      k = std::stoi(pattern.substr(6), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != pattern.size() - 6) bad("shift:K needs an integer K, got \"" + pattern + "\"");
    return shift(ranks, k, streams);
  }
  if (pattern == "ring")
    bad("ring is planned from the ranks' hosts and rails once they are known (burn/ring_pattern.h)");
  bad("unknown pattern \"" + pattern + "\" (pairs, shift:K, one-to-one, ring)");
}

}  // namespace ibburn::burn
