#include "price/defects.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/finding_details.h"
#include "localization/burn_localize.h"
#include "localization/suspect_cable_details.h"
#include "topo/link_rate.h"
#include "topo/fabric_summary.h"

namespace ibburn::price {

void merge_into(RateScale& into, const RateScale& from) {
  for (const auto& [e, s] : from) {
    auto [it, added] = into.emplace(e, s);
    if (!added) it->second = std::min(it->second, s);
  }
}

std::vector<std::optional<topo::PortEnd>> ports_of_ranks(const PriceFabric& fabric,
                                                         const std::vector<uint64_t>& port_guid_by_rank) {
  const auto by_guid = topo::hca_ports_by_guid(fabric.fabric());
  std::vector<std::optional<topo::PortEnd>> out;
  for (uint64_t guid : port_guid_by_rank) {
    const auto it = by_guid.find(guid);
    out.push_back(it == by_guid.end() ? std::nullopt : std::optional<topo::PortEnd>(it->second));
  }
  return out;
}

RateScale measured_rates(const PriceFabric& fabric, const burn::BurnSummary& burn,
                         const std::vector<std::optional<topo::PortEnd>>& port_of_rank) {
  RateScale out;
  auto port = [&](int rank) -> const topo::PortEnd* {
    if (rank < 0 || static_cast<size_t>(rank) >= port_of_rank.size() || !port_of_rank[rank]) return nullptr;
    return &*port_of_rank[rank];
  };
  routing::PathShares path;
  for (const auto& d : burn.flows) {
    if (d.verdict != burn::Verdict::Slow && d.verdict != burn::Verdict::Failed) continue;
    const topo::PortEnd* a = port(d.from);
    const topo::PortEnd* b = port(d.to);
    if (!a || !b || d.expected_gbps <= 0) continue;
    path.clear();
    try {
      fabric.router().route(*a, *b, path);
    } catch (const routing::RoutingError&) {
      continue;
    }
    // The fastest slow flow a cable carried whole bounds its rate from below: its slower ones
    // were held back elsewhere too (a peer's own slow cable), so the lowest would price one
    // defect by another's.
    const double ratio = std::clamp(d.gbps / d.expected_gbps, 0.0, 1.0);
    for (auto [e, share] : path)
      if (share > 0.999) {
        auto [it, added] = out.emplace(e, ratio);
        if (!added) it->second = std::max(it->second, ratio);
      }
  }
  return out;
}

namespace {

// The cable between a finding's first two ports (or the cable at its one port), both ways.
std::vector<routing::EdgeId> cable_of(const Finding& f, const PriceFabric& fabric) {
  std::vector<routing::EdgeId> out;
  for (size_t i = 0; i < f.ports.size() && i < 2 && out.empty(); ++i) {
    const auto node = fabric.fabric().find_name(f.ports[i].node);
    if (!node) continue;
    const topo::PortEnd p{*node, f.ports[i].port};
    if (!fabric.cables().has_out_edge(p)) continue;
    const routing::EdgeId e = fabric.cables().out_edge(p);
    out = {e, fabric.cables().reverse(e)};
  }
  return out;
}

std::string percent(double ratio) { return ratio <= 0 ? "down" : fmt::format("at {:.0f}%", ratio * 100); }

std::optional<Defect> at(const std::vector<routing::EdgeId>& edges, double ratio, std::string what) {
  Defect d;
  for (routing::EdgeId e : edges) d.scale[e] = std::clamp(ratio, 0.0, 1.0);
  d.what = std::move(what);
  return d;
}

// The ports of an unbalanced group past their mean, one way each, at the mean over what they
// carry: under all-to-all they take that much longer. Routed by the tables, the model already
// sends the extra destinations through them, so the design is the model with them that much
// faster; under adaptive routing the model spreads evenly, so they are slowed in it.
std::optional<Defect> unbalanced_ports(const Finding& f, const PriceFabric& fabric, std::string& why) {
  const auto d = details_of<FindingKind::RouteUnbalanced>(f);
  const auto node = fabric.fabric().find_name(d.sw);
  if (!node || d.ports.empty()) {
    why = "its switch is not in the fabric's model";
    return std::nullopt;
  }
  double mean = 0;
  for (const auto& p : d.ports) mean += p.destinations;
  mean /= static_cast<double>(d.ports.size());
  Defect out;
  out.in_model = !fabric.adaptive();
  for (const auto& p : d.ports)
    if (p.destinations > mean && fabric.cables().has_out_edge({*node, p.port}))
      out.scale[fabric.cables().out_edge({*node, p.port})] = mean / p.destinations;
  if (out.scale.empty()) {
    why = "none of its ports is cabled in the fabric's model";
    return std::nullopt;
  }
  out.what = fmt::format("{} of {} equal ports overloaded (the group at {:.0f}% under all-to-all)", out.scale.size(),
                         d.ports.size(), 100 * d.mean_over_max);
  return out;
}

// A plane behind the others: every cable of it at the plane's share of their bandwidth, since
// a collective striped over the rails waits for its slowest plane (each rail's ring and tree
// run through one plane). The model holds the plane as discovered (a spine short, links at a
// lower rate), so the design is the model with that plane that much faster.
std::optional<Defect> slow_plane(const Finding& f, const PriceFabric& fabric, std::string& why) {
  const auto d = details_of<FindingKind::PlaneAsymmetric>(f);
  if (d.bandwidth_fraction <= 0 || d.bandwidth_fraction >= 1) {
    why = "its plane's bandwidth share is not below its peers'";
    return std::nullopt;
  }
  Defect out;
  out.in_model = true;
  const topo::Fabric& model = fabric.fabric();
  for (routing::EdgeId e = 0; e < fabric.cables().size(); ++e) {
    const routing::Edge& edge = fabric.cables().edge(e);
    if (model.plane(edge.from.node) == d.plane || model.plane(edge.to.node) == d.plane)
      out.scale[e] = d.bandwidth_fraction;
  }
  if (out.scale.empty()) {
    why = "the fabric's model does not tell plane " + std::to_string(d.plane) + " apart";
    return std::nullopt;
  }
  out.what = fmt::format("plane {} at {:.0f}% of the others' bandwidth", d.plane, 100 * d.bandwidth_fraction);
  return out;
}

}  // namespace

std::optional<Defect> defect_of(const Finding& f, const PriceFabric& fabric, const RateScale& measured,
                                std::string& why) {
  if (f.kind == FindingKind::Systemic) {
    const auto details = details_of<FindingKind::Systemic>(f);
    Defect all;
    size_t priced = 0;
    for (const Finding& c : details.cables) {
      std::string ignored;
      if (auto d = defect_of(c, fabric, measured, ignored)) {
        merge_into(all.scale, d->scale), ++priced;
        all.in_model = all.in_model || d->in_model;
      }
    }
    if (priced == 0) {
      why = "none of its cables is priced";
      return std::nullopt;
    }
    all.what = fmt::format("{} cable(s) together", priced);
    return all;
  }
  if (f.kind == FindingKind::RouteUnbalanced) return unbalanced_ports(f, fabric, why);
  if (f.kind == FindingKind::PlaneAsymmetric) return slow_plane(f, fabric, why);
  const FindingKindInfo& kind = info(f.kind);
  const bool a_cable = f.kind == FindingKind::SlowEndpoint || f.kind == FindingKind::FailedEndpoint ||
                       f.kind == FindingKind::SuspectEndpoint || f.kind == FindingKind::SuspectCable ||
                       f.kind == FindingKind::Degraded || f.kind == FindingKind::LinkDown ||
                       f.kind == FindingKind::Flapping || f.kind == FindingKind::PortNotActive;
  if (!a_cable) {
    why = kind.cable == CableService::None ? "it names no cable's rate"
                                           : "its cable keeps its rate (errors cost retries, not priced)";
    return std::nullopt;
  }
  const auto edges = cable_of(f, fabric);
  if (edges.empty()) {
    why = "its cable is not in the fabric's model";
    return std::nullopt;
  }
  const double designed = fabric.cables().edge(edges[0]).capacity_gbps;
  switch (f.kind) {
    case FindingKind::SlowEndpoint:
    case FindingKind::FailedEndpoint:
    case FindingKind::SuspectEndpoint: {
      // Its cable at the rate its flows measured through it (measured_rates), else at the
      // endpoint's lowest.
      double from_flows = 1;
      for (routing::EdgeId e : edges)
        if (auto it = measured.find(e); it != measured.end()) from_flows = std::min(from_flows, it->second);
      if (from_flows < 1) return at(edges, from_flows, percent(from_flows));
      const auto r =
          details_of<FindingKind::SlowEndpoint, FindingKind::FailedEndpoint, FindingKind::SuspectEndpoint>(f);
      std::optional<double> gbps;
      for (const auto& v : {r.min_tx_gbps, r.min_rx_gbps})
        if (v) gbps = gbps ? std::min(*gbps, *v) : *v;
      if (!gbps) {
        if (f.kind != FindingKind::FailedEndpoint) {
          why = "no rate was measured";
          return std::nullopt;
        }
        gbps = 0;
      }
      const double ratio = designed > 0 ? *gbps / designed : 0;
      return at(edges, ratio, percent(ratio));
    }
    case FindingKind::SuspectCable: {
      const auto d = details_of<FindingKind::SuspectCable>(f);
      if (d.counters && d.counters->group_median_data_octets > 0) {
        const double ratio = std::min(1.0, d.counters->data_octets / d.counters->group_median_data_octets);
        return at(edges, ratio, percent(ratio) + " of its equals' data");
      }
      double ratio = 1;
      for (routing::EdgeId e : edges)
        if (auto it = measured.find(e); it != measured.end()) ratio = std::min(ratio, it->second);
      if (ratio >= 1) {
        why = "no slow flow crossed it whole";
        return std::nullopt;
      }
      return at(edges, ratio, percent(ratio));
    }
    case FindingKind::Degraded: {
      const auto d = details_of<FindingKind::Degraded>(f);
      const auto active = topo::parse_link_rate(d.active);
      const auto plan = topo::parse_link_rate(d.planned ? *d.planned : d.supported.value_or(""));
      if (!active || !plan || plan->data_gbps() <= 0) {
        why = "its rates are not known";
        return std::nullopt;
      }
      // The model's rate is the trained one: the designed rate is the plan's.
      Defect out;
      const double ratio = active->data_gbps() / plan->data_gbps();
      for (routing::EdgeId e : edges) out.scale[e] = ratio;
      out.in_model = true;
      out.what = fmt::format("{} of {}", d.active, topo::to_string(*plan));
      return out;
    }
    default: return at(edges, 0, "down");
  }
}

}  // namespace ibburn::price
