#include "topo_check/check_planes.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>

#include "common/finding_details.h"
#include "common/guid.h"
#include "topo/fabric_summary.h"
#include "wiring/wiring_index.h"

namespace ibburn::topo_check {
namespace {

using topo::Fabric;
using topo::Node;
using topo::NodeId;
using topo::Port;
using wiring::kNoWiringNode;
using wiring::WiringIndex;
using wiring::WiringNode;

std::string percent(double share) { return fmt::format("{:.1f}%", share * 100); }

// What one plane has of its design: switches found per tier, and per tier of cables the
// ones up as planned and the bandwidth they carry.
struct PlaneTally {
  std::map<int, size_t> switches_planned, switches_found;  // by tier
  struct Tier {
    size_t planned = 0, up = 0;
    double gbps = 0;
    std::map<std::string, size_t> rates;  // active rate -> cables up at it
  };
  std::map<std::string, Tier> cables;  // by tier pair, "leaf-spine"
  bool discovered = false;
};

std::string common_rate(const PlaneTally::Tier& t) {
  std::string best;
  size_t most = 0;
  for (const auto& [rate, n] : t.rates)
    if (n > most) best = rate, most = n;
  return best;
}

class PlaneChecker {
 public:
  PlaneChecker(const Fabric& f, const wiring::Wiring& w)
      : f_(f), plan_(w), plane_of_(plan_.node_planes()), planes_(w.planes()) {}

  std::vector<Finding> run() {
    if (planes_ == 0) return {};
    subnet_managers();
    prefixes();
    symmetry();
    return std::move(out_);
  }

 private:
  const Fabric& f_;
  WiringIndex plan_;
  std::vector<int> plane_of_;
  int planes_;
  wiring::WiringLayout layout_;
  std::vector<Finding> out_;

  // The sources each plane was discovered through, for messages.
  std::string sources_of(int plane) const {
    std::string s;
    for (const topo::Subnet& sub : f_.subnets())
      if (sub.plane == plane) s += (s.empty() ? "" : ", ") + sub.source;
    return s;
  }

  void subnet_managers() {
    for (int k = 1; k <= planes_; ++k) {
      std::set<uint64_t> masters;
      bool probed = false;
      std::string why;
      for (const topo::Subnet& sub : f_.subnets()) {
        if (sub.plane != k || !sub.sm_probed) continue;
        probed = true;
        if (sub.sm_master) {
          masters.insert(sub.sm_guid);
        } else {
          why += (why.empty() ? "" : "; ") + sub.source +
                 (sub.sm_lid == 0 ? ": the port names no subnet manager (MasterSMLID 0)"
                                  : fmt::format(": the SM at LID {} does not answer as master", sub.sm_lid));
        }
      }
      if (!probed) continue;  // files: the SM is judged from the ports' states (no_sm per island)
      if (masters.empty()) {
        out_.push_back(
            {FindingKind::NoSm,
             Severity::Error,
             fmt::format("plane {}: no master subnet manager ({}); nothing programs or reroutes this rail", k, why),
             {},
             {{"plane", k}, {"sources", sources_of(k)}}});
      } else if (masters.size() > 1) {
        nlohmann::json guids = nlohmann::json::array();
        std::string list;
        for (uint64_t g : masters) {
          guids.push_back(Guid{g}.text());
          list += (list.empty() ? "" : ", ") + Guid{g}.text();
        }
        out_.push_back({FindingKind::SmMasters,
                        Severity::Error,
                        fmt::format("plane {}: {} master subnet managers answer in its parts ({}): one plane, one "
                                    "master",
                                    k, masters.size(), list),
                        {},
                        {{"plane", k}, {"masters", guids}}});
      }
    }
  }

  void prefixes() {
    std::map<uint64_t, std::set<int>> planes_of;
    for (const topo::Subnet& sub : f_.subnets())
      if (sub.plane > 0 && sub.prefix != 0) planes_of[sub.prefix].insert(sub.plane);
    for (const auto& [prefix, planes] : planes_of) {
      if (planes.size() < 2) continue;
      std::string list;
      nlohmann::json numbers = nlohmann::json::array();
      for (int k : planes) {
        list += (list.empty() ? "" : ", ") + std::to_string(k);
        numbers.push_back(k);
      }
      out_.push_back({FindingKind::PlanePrefix,
                      Severity::Error,
                      fmt::format("planes {} share the subnet prefix {}: their port GIDs collide (routers, "
                                  "multi-plane jobs and UFM tell planes apart by it); give each plane's SM its own "
                                  "subnet_prefix",
                                  list, Guid{prefix}.text()),
                      {},
                      {{"prefix", Guid{prefix}.text()}, {"planes", numbers}}});
    }
  }

  std::vector<PlaneTally> tally() {
    std::vector<int8_t> hint(plan_.size(), 0);
    std::vector<NodeId> node_of(plan_.size(), topo::kNoNode);
    for (NodeId n = 0; n < f_.size(); ++n) {
      const WiringNode p = plan_.find(f_.node(n).name, f_.node(n).description);
      if (p == kNoWiringNode || node_of[p] != topo::kNoNode) continue;
      node_of[p] = n;
      hint[p] = f_.node(n).is_ca() ? 1 : 2;
    }
    layout_ = wiring::layout_plan(plan_, hint);
    const wiring::WiringLayout& layout = layout_;
    std::vector<PlaneTally> t(planes_ + 1);
    for (WiringNode p = 0; p < plan_.size(); ++p) {
      PlaneTally& pt = t[plane_of_[p]];
      if (node_of[p] != topo::kNoNode) pt.discovered = true;
      if (layout.is_hca[p]) continue;
      ++pt.switches_planned[layout.tier[p]];
      if (node_of[p] != topo::kNoNode) ++pt.switches_found[layout.tier[p]];
    }
    for (size_t c = 0; c < plan_.cable_count(); ++c) {
      wiring::WiringEnd a = plan_.end_a(c), b = plan_.end_b(c);
      if (layout.tier[b.node] < layout.tier[a.node]) std::swap(a, b);
      // A plane's own bandwidth is between its switches: an HCA's cable is its host's rail,
      // told (and priced) by that cable's finding.
      if (layout.is_hca[a.node]) continue;
      PlaneTally::Tier& tier =
          t[plan_.cable(c).plane]
              .cables[layout.tier_word(layout.tier[a.node]) + "-" + layout.tier_word(layout.tier[b.node])];
      ++tier.planned;
      const NodeId na = node_of[a.node], nb = node_of[b.node];
      if (na == topo::kNoNode || nb == topo::kNoNode) continue;
      const Port* pa = f_.node(na).port(a.port);
      const Port* pb = f_.node(nb).port(b.port);
      if (!pa || !pb || pa->remote != topo::PortEnd{nb, b.port} || !topo::port_up(*pa) || !topo::port_up(*pb)) continue;
      ++tier.up;
      topo::LinkRate r = pa->active.known() ? pa->active : plan_.cable(c).rate.value_or(topo::LinkRate{});
      tier.gbps += r.data_gbps();
      ++tier.rates[topo::to_string(r)];
    }
    return t;
  }

  // Each plane against the best of the others: the most switches of a tier, the most bandwidth
  // up a tier of cables. A plane not discovered at all is check_wiring's plane_missing.
  void symmetry() {
    const std::vector<PlaneTally> t = tally();
    std::vector<int> present;
    for (int k = 1; k <= planes_; ++k)
      if (t[k].discovered) present.push_back(k);
    if (present.size() < 2) return;
    for (int k : present) {
      PlaneDetails d;
      d.plane = k;
      double fraction = 1;
      for (const auto& [tier, planned] : t[k].switches_planned) {
        size_t best = 0;
        for (int o : present) best = std::max(best, t[o].switches_found.count(tier) ? t[o].switches_found.at(tier) : 0);
        const size_t found = t[k].switches_found.count(tier) ? t[k].switches_found.at(tier) : 0;
        if (found < best)
          d.differences.push_back(fmt::format("{} switches: {} of {} found (another plane has {})",
                                              layout_.tier_word(tier), found, planned, best));
      }
      for (const auto& [tier, mine] : t[k].cables) {
        int best_plane = k;
        for (int o : present)
          if (t[o].cables.count(tier) && t[o].cables.at(tier).gbps > t[best_plane].cables.at(tier).gbps) best_plane = o;
        const PlaneTally::Tier& best = t[best_plane].cables.at(tier);
        if (best.gbps <= 0) continue;
        const double share = mine.gbps / best.gbps;
        fraction = std::min(fraction, share);
        if (share >= kPlaneBandwidthTolerance) continue;
        std::string what = fmt::format("{} cables: {} of {} up", tier, mine.up, mine.planned);
        const std::string rate = common_rate(mine), best_rate = common_rate(best);
        if (!rate.empty() && rate != best_rate)
          what += fmt::format(", most at {} (plane {}: {})", rate, best_plane, best_rate);
        what += fmt::format(", {} of plane {}'s bandwidth", percent(share), best_plane);
        d.differences.push_back(std::move(what));
      }
      if (d.differences.empty()) continue;
      d.bandwidth_fraction = fraction;
      std::string list;
      for (const std::string& s : d.differences) list += (list.empty() ? "" : "; ") + s;
      out_.push_back({FindingKind::PlaneAsymmetric,
                      Severity::Error,
                      fmt::format("plane {} ({}) falls short of the other planes: {}; a job striped over all rails "
                                  "waits for this one",
                                  k, sources_of(k).empty() ? "no source named" : sources_of(k), list),
                      {},
                      d});
    }
  }
};

}  // namespace

void assign_planes(Fabric& fabric, const wiring::Wiring& plan) {
  if (fabric.subnets().empty()) {
    const auto islands = fabric.islands();
    for (size_t i = 0; i < islands.size(); ++i) {
      fabric.subnets().emplace_back().source = "island " + std::to_string(i + 1);
      for (NodeId n : islands[i]) fabric.node(n).subnet = static_cast<int>(i);
    }
  }
  if (plan.planes() == 0) return;
  const WiringIndex index(plan);
  const std::vector<int> plane_of = index.node_planes();
  std::vector<std::map<int, size_t>> votes(fabric.subnets().size());
  for (NodeId n = 0; n < fabric.size(); ++n) {
    const Node& node = fabric.node(n);
    const WiringNode p = index.find(node.name, node.description);
    if (node.subnet >= 0 && p != kNoWiringNode) ++votes[node.subnet][plane_of[p]];
  }
  for (size_t s = 0; s < votes.size(); ++s) {
    int best = 0;
    size_t most = 0;
    for (const auto& [k, n] : votes[s])
      if (n > most) best = k, most = n;
    fabric.subnets()[s].plane = best;
  }
}

std::vector<Finding> check_planes(const Fabric& fabric, const wiring::Wiring& plan) {
  return PlaneChecker(fabric, plan).run();
}

}  // namespace ibburn::topo_check
