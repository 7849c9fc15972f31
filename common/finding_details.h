#pragma once
// Typed details for the finding kinds whose evidence another module reads, so producer and
// consumers agree on one struct instead of string keys into Finding::details. A kind with
// typed details has a FindingDetails specialisation (here, or beside its struct in the module
// that owns it: burn/summary.h for the burn's endpoints and flows); details_of<K> reads it
// strictly.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/finding.h"
#include "common/json_fields.h"
#include "common/systemic_causes.h"

namespace ibburn {

// errors_under_load: error counters that rose on a cable during one burn stage, or on a host's
// own port (the kernel's counters, read by its rank) during the burn.
struct ErrorsUnderLoadDetails {
  int stage = 0;                           // 0: the whole burn
  std::map<std::string, uint64_t> rise{};  // counter name -> how much it rose in the window
  double bits_received = 0;                // 0 when the data counters did not count
  double bits_sent = 0;
  double seconds = 0;                             // the window
  std::optional<double> symbol_errors_per_bit{};  // only when data was counted
  bool operator==(const ErrorsUnderLoadDetails&) const = default;
};

void to_json(nlohmann::json& j, const ErrorsUnderLoadDetails& d);

// degraded: a link trained below its plan, or below what both its ends support (topo_check/).
struct DegradedDetails {
  std::string active;                    // the rate it trained at ("4xHDR")
  std::optional<std::string> planned;    // the wiring list's rate, when it has one
  std::optional<std::string> supported;  // else the best rate both ends support
  bool operator==(const DegradedDetails&) const = default;
};

void to_json(nlohmann::json& j, const DegradedDetails& d);

// untested: what a job that held only part of the fabric left unloaded (run/job_scope).
struct UntestedDetails {
  std::vector<std::string> cables{};    // as report::cable_name writes them
  std::vector<std::string> switches{};  // that no stage loaded
  size_t hosts_in_job = 0;
  size_t hosts_outside = 0;
  std::string allocation;  // where the job's hosts came from ("slurm", a file)
  bool operator==(const UntestedDetails&) const = default;
};

void to_json(nlohmann::json& j, const UntestedDetails& d);

// systemic: one cause behind many cables' findings (common/systemic_causes.h).
struct SystemicDetails {
  FindingKind of_kind{};  // the grouped findings' kind
  CauseScope scope;
  size_t count = 0;                                    // the grouped cables
  nlohmann::json evidence = nlohmann::json::object();  // what they share (a degraded rate, the counters that rose)
  std::vector<Finding> cables{};                       // the grouped findings, whole, worst first
};

void to_json(nlohmann::json& j, const SystemicDetails& d);

// route_unbalanced: a switch's equal ports and the HCA LIDs its table sends out of each
// (route_check/); priced as the ports past the group's mean running at mean over theirs.
struct RouteUnbalancedDetails {
  struct Port {
    int port = 0;
    std::string peer;  // "name[port]" at the far end
    uint32_t destinations = 0;
    bool operator==(const Port&) const = default;
  };
  std::string sw;
  std::vector<Port> ports{};
  std::optional<double> max_over_min{};  // absent when a port carries none
  double mean_over_max = 0;
  bool operator==(const RouteUnbalancedDetails&) const = default;
};

void to_json(nlohmann::json& j, const RouteUnbalancedDetails& d);

// plane_asymmetric and plane_missing: a plane of a design with several (topo_check/check_planes.h);
// priced as every job striped over the rails waiting for this one (price/).
struct PlaneDetails {
  int plane = 0;
  std::vector<std::string> differences{};  // what sets it apart: "spines: 15 of 16", "cables up: 510 of 512"
  // Its bandwidth over the other planes' (the cross-section its spine-facing cables carry);
  // 0 for a plane missing, 1 for one as fast as its peers.
  double bandwidth_fraction = 1;
  bool operator==(const PlaneDetails&) const = default;
};

void to_json(nlohmann::json& j, const PlaneDetails& d);

// A kind's details: `Details`, and `read`, which takes them from details_reader's reader.
template <FindingKind K>
struct FindingDetails;  // undefined: a kind without typed details does not compile
template <>
struct FindingDetails<FindingKind::ErrorsUnderLoad> {
  using Details = ErrorsUnderLoadDetails;
  static Details read(const JsonFields& r);
};
template <>
struct FindingDetails<FindingKind::Degraded> {
  using Details = DegradedDetails;
  static Details read(const JsonFields& r);
};
template <>
struct FindingDetails<FindingKind::Untested> {
  using Details = UntestedDetails;
  static Details read(const JsonFields& r);
};
template <>
struct FindingDetails<FindingKind::RouteUnbalanced> {
  using Details = RouteUnbalancedDetails;
  static Details read(const JsonFields& r);
};
template <>
struct FindingDetails<FindingKind::PlaneAsymmetric> {
  using Details = PlaneDetails;
  static Details read(const JsonFields& r);
};
template <>
struct FindingDetails<FindingKind::PlaneMissing> {
  using Details = PlaneDetails;
  static Details read(const JsonFields& r);
};
template <>
struct FindingDetails<FindingKind::Systemic> {
  using Details = SystemicDetails;
  static Details read(const JsonFields& r);
};

// A strict reader of a finding's details: a missing or mistyped field throws
// std::invalid_argument naming the kind and the field's place ("rise.PortRcvErrors").
JsonFields details_reader(const nlohmann::json& details, FindingKind kind);

// The typed details of a finding of kind K (or of one of Ks, kinds that share K's struct);
// throws std::invalid_argument when the finding is of another kind or its details do not hold
// the struct's fields.
template <FindingKind K, FindingKind... Ks>
typename FindingDetails<K>::Details details_of(const Finding& f) {
  static_assert((std::is_same_v<typename FindingDetails<K>::Details, typename FindingDetails<Ks>::Details> && ...),
                "kinds read together share one struct");
  if (f.kind != K && ((f.kind != Ks) && ...)) {
    std::string asked = to_string(K);
    ((asked += std::string(" or ") + to_string(Ks)), ...);
    throw std::invalid_argument("details of " + asked + " asked of a " + to_string(f.kind) + " finding");
  }
  return FindingDetails<K>::read(details_reader(f.details, f.kind));
}

}  // namespace ibburn
