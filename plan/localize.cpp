#include "plan/localize.h"

#include <algorithm>

namespace ibburn::plan {

std::vector<Suspect> localize(const std::vector<ObservedFlow>& flows, size_t edge_count,
                              double min_share) {
  std::vector<double> healthy(edge_count, 0.0);
  std::vector<size_t> healthy_n(edge_count, 0);
  for (const auto& f : flows)
    if (!f.slow)
      for (auto [e, share] : f.path)
        if (share >= min_share) healthy[e] += share, ++healthy_n[e];

  std::vector<const ObservedFlow*> unexplained;
  for (const auto& f : flows)
    if (f.slow) unexplained.push_back(&f);
  const size_t total_slow = unexplained.size();

  std::vector<Suspect> out;
  std::vector<double> slow(edge_count);
  std::vector<size_t> slow_n(edge_count);
  while (!unexplained.empty()) {
    std::fill(slow.begin(), slow.end(), 0.0);
    std::fill(slow_n.begin(), slow_n.end(), 0);
    for (const auto* f : unexplained)
      for (auto [e, share] : f->path)
        if (share >= min_share) slow[e] += share, ++slow_n[e];
    // A cable that healthy flows crossed at full rate is unlikely to be the culprit:
    // score = slow evidence minus healthy evidence.
    EdgeId best = 0;
    double best_score = 0;
    for (EdgeId e = 0; e < edge_count; ++e) {
      double score = slow[e] - healthy[e];
      if (slow_n[e] && (score > best_score + 1e-12 ||
                        (std::abs(score - best_score) <= 1e-12 && slow_n[e] > slow_n[best])))
        best = e, best_score = score;
    }
    if (best_score <= 0) break;
    Suspect s;
    s.edge = best;
    s.slow_explained = slow_n[best];
    s.healthy_through = healthy_n[best];
    double purity = slow[best] / (slow[best] + healthy[best]);
    // Share of all slow flows this cable explains, discounted by healthy traffic through it
    // and by how many other cables carried exactly the same slow flows (ambiguity).
    size_t ties = 0;
    for (EdgeId e = 0; e < edge_count; ++e)
      if (slow_n[e] == slow_n[best] && std::abs((slow[e] - healthy[e]) - best_score) <= 1e-12) ++ties;
    s.confidence = purity * static_cast<double>(s.slow_explained) / total_slow / static_cast<double>(ties);
    out.push_back(s);
    std::erase_if(unexplained, [&](const ObservedFlow* f) {
      return std::any_of(f->path.begin(), f->path.end(),
                         [&](auto es) { return es.first == best && es.second >= min_share; });
    });
  }
  return out;
}

}  // namespace ibburn::plan
