#pragma once
// One cause, one finding: when most cables of a scope (the whole fabric, a tier, a pod, a rail,
// a switch) have findings that differ from the plan the same way, those findings are one cause
// of that scope (a fabric-wide speed, a rail's HCA firmware, a switch's configuration), not
// thousands of cable faults. group_systemic_causes replaces them with one `systemic` finding
// that names the scope, the count and the difference, the cables' own findings in its details.
// Pure logic over findings in the common shape, whatever module made them; the scopes each
// cable lies in come from the caller (wiring/cable_scopes builds them from a plan or a fabric).
//
// The rule (docs/run.md, "One cause, one finding"): findings of one signature (same kind, same
// severity, same evidence: a degraded link's active and planned rate, the counters that rose)
// are systemic in a scope when they cover at least `share` of the scope's cables and at least
// `min_cables` cables. Of the scopes that qualify, the one that matches the findings best names
// the cause: the largest |F and S| / |F or S| (F: the findings' cables, S: the scope's), so one
// rail at 4xHDR is the rail, not half of the HCA-leaf tier, and the fabric at 4xHDR but for three
// cables is the fabric, not its tiers; equal matches go to the widest scope (the fabric, not
// each of its switches). Its findings are claimed, and the rest are tried again.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/finding.h"

namespace ibburn {

// Widest kind first: the order in which scopes of equal size are tried.
enum class ScopeType { Fabric = 0, Plane = 1, Tier = 2, Pod = 3, Rail = 4, Switch = 5 };
const char* to_string(ScopeType t);  // "fabric", "plane", "tier", "pod", "rail", "switch"
std::optional<ScopeType> scope_type_from_string(std::string_view name);

struct CauseScope {
  ScopeType type = ScopeType::Fabric;
  std::string name;   // "3" (a plane), "HCA-leaf", "pod3", "mlx5_3", "pod1-leaf01"; empty for the fabric
  size_t cables = 0;  // the cables the scope holds (planned, or discovered without a plan)
};

// Every cable with the scopes it lies in (the fabric is implied for all of them).
class CableScopes {
 public:
  CableScopes();
  // Adds a cable between `a` and `b`, in the fabric and in each of `scopes` (type, name).
  void add_cable(const PortRef& a, const PortRef& b, const std::vector<std::pair<ScopeType, std::string>>& scopes);

  size_t cable_count() const { return of_cable_.size(); }
  const std::vector<CauseScope>& scopes() const { return scopes_; }
  const std::vector<uint32_t>& scopes_of(uint32_t cable) const { return of_cable_[cable]; }
  // The cable at a port, or -1 when none was added there.
  int64_t cable_at(const PortRef& p) const;

 private:
  std::vector<CauseScope> scopes_;
  std::unordered_map<std::string, uint32_t> scope_index_;  // type + name -> scope
  std::vector<std::vector<uint32_t>> of_cable_;            // cable -> its scopes
  std::unordered_map<std::string, uint32_t> cable_at_;     // "node[port]" -> cable
};

struct SystemicRule {
  double share = 0.5;     // of the scope's cables
  size_t min_cables = 8;  // fewer cables than this are always told one by one
};

// The findings with every systemic group replaced by one `systemic` finding (its severity the
// group's, `ports` the switch for a switch's scope and none otherwise, details
// SystemicDetails: common/finding_details.h). Only findings about one cable (one or two ports, all on one cable
// of `scopes`) of warning or worse are grouped; every other finding is kept as it is.
std::vector<Finding> group_systemic_causes(std::vector<Finding> findings, const CableScopes& scopes,
                                           const SystemicRule& rule = {});

}  // namespace ibburn
