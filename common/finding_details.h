#pragma once
// Typed details for the finding kinds whose evidence another module reads, so producer and
// consumers agree on one struct instead of string keys into Finding::details. A kind listed
// here has a FindingDetails specialisation; details_of<K> reads it strictly.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/finding.h"
#include "common/systemic_causes.h"

namespace ibburn {

// errors_under_load: error counters that rose on a cable during one burn stage.
struct ErrorsUnderLoadDetails {
  int stage = 0;
  std::map<std::string, uint64_t> rise{};  // counter name -> how much it rose in the window
  double bits_received = 0;                // 0 when the data counters did not count
  double bits_sent = 0;
  double seconds = 0;                             // the window
  std::optional<double> symbol_errors_per_bit{};  // only when data was counted
  bool operator==(const ErrorsUnderLoadDetails&) const = default;
};

void to_json(nlohmann::json& j, const ErrorsUnderLoadDetails& d);
// Strict: throws std::invalid_argument naming the kind and the missing or mistyped field.
void from_json(const nlohmann::json& j, ErrorsUnderLoadDetails& d);

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
void from_json(const nlohmann::json& j, UntestedDetails& d);

// systemic: one cause behind many cables' findings (common/systemic_causes.h).
struct SystemicDetails {
  FindingKind of_kind{};  // the grouped findings' kind
  CauseScope scope;
  size_t count = 0;                                    // the grouped cables
  nlohmann::json evidence = nlohmann::json::object();  // what they share (a degraded rate, the counters that rose)
  std::vector<Finding> cables{};                       // the grouped findings, whole, worst first
};

void to_json(nlohmann::json& j, const SystemicDetails& d);
void from_json(const nlohmann::json& j, SystemicDetails& d);

template <FindingKind K>
struct FindingDetails;  // undefined: a kind without typed details does not compile
template <>
struct FindingDetails<FindingKind::ErrorsUnderLoad> {
  using Details = ErrorsUnderLoadDetails;
};
template <>
struct FindingDetails<FindingKind::Untested> {
  using Details = UntestedDetails;
};
template <>
struct FindingDetails<FindingKind::Systemic> {
  using Details = SystemicDetails;
};

// The typed details of a finding of kind K; throws std::invalid_argument when the finding is
// of another kind or its details do not hold K's fields.
template <FindingKind K>
typename FindingDetails<K>::Details details_of(const Finding& f) {
  if (f.kind != K)
    throw std::invalid_argument(std::string("details of ") + to_string(K) + " asked of a " + to_string(f.kind) +
                                " finding");
  return f.details.get<typename FindingDetails<K>::Details>();
}

}  // namespace ibburn
