#include "localization/localize.h"

#include <algorithm>

namespace ibburn::localization {

void HealthyEvidence::add(const routing::PathShares& path, size_t times) {
  for (auto [e, s] : path)
    if (s >= min_share) share[e] += s * static_cast<double>(times), flows[e] += times;
}

std::vector<Suspect> localize(const std::vector<ObservedFlow>& flows, size_t edge_count, double min_share) {
  HealthyEvidence healthy(edge_count, min_share);
  std::vector<const ObservedFlow*> slow;
  for (const auto& f : flows)
    if (f.slow)
      slow.push_back(&f);
    else
      healthy.add(f.path);
  return localize(slow, healthy);
}

std::vector<Suspect> localize(const std::vector<const ObservedFlow*>& slow_flows, const HealthyEvidence& evidence) {
  const double min_share = evidence.min_share;
  const size_t edge_count = evidence.share.size();
  const std::vector<double>& healthy = evidence.share;
  const std::vector<size_t>& healthy_n = evidence.flows;
  auto through = [min_share](const ObservedFlow& f, routing::EdgeId e) {
    return std::any_of(f.path.begin(), f.path.end(), [&](auto es) { return es.first == e && es.second >= min_share; });
  };
  std::vector<const ObservedFlow*> unexplained = slow_flows;

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
    routing::EdgeId best = 0;
    double best_score = 0;
    for (routing::EdgeId e = 0; e < edge_count; ++e) {
      double score = slow[e] - healthy[e];
      if (slow_n[e] &&
          (score > best_score + 1e-12 || (std::abs(score - best_score) <= 1e-12 && slow_n[e] > slow_n[best])))
        best = e, best_score = score;
    }
    if (best_score <= 0) break;
    Suspect s;
    s.edge = best;
    s.slow_explained = slow_n[best];
    s.healthy_through = healthy_n[best];
    // Discounted by healthy traffic through it and by how many other cables carried
    // exactly the same slow flows (ambiguity). Several culprits (both directions of one bad
    // cable) each keep their own confidence.
    const double purity = slow[best] / (slow[best] + healthy[best]);
    // Ties: cables on exactly the same slow flows (every one through `best` crosses them
    // too) with the same healthy evidence; nothing in the results tells them apart.
    std::vector<size_t> together(edge_count, 0);
    for (const auto* f : unexplained)
      if (through(*f, best))
        for (auto [e, share] : f->path)
          if (share >= min_share) ++together[e];
    for (routing::EdgeId e = 0; e < edge_count; ++e)
      if (e != best && together[e] == slow_n[best] && slow_n[e] == slow_n[best] &&
          std::abs((slow[e] - healthy[e]) - best_score) <= 1e-12)
        s.tied.push_back(e);
    s.confidence = purity / static_cast<double>(1 + s.tied.size());
    out.push_back(s);
    std::erase_if(unexplained, [&](const ObservedFlow* f) { return through(*f, best); });
  }
  return out;
}

bool ambiguous(const std::vector<Suspect>& s) {
  return std::any_of(s.begin(), s.end(), [](const Suspect& x) { return x.confidence < kConfident; });
}

}  // namespace ibburn::localization
