#pragma once
// Typed details of suspect_cable, the finding localisation names a cable with. Its evidence is
// one of two: the burn's slow flows that the cable explains (burn_localize.h), or, under
// adaptive routing, its switch port's counters against the ports the routing treats as its
// equals (run/counter_localization.h). `ibburn run` adds the error counters that rose on it
// when those corroborate a tie.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "burn/summary.h"
#include "common/finding_details.h"

namespace ibburn::localization {

// The port-counter evidence: the cable's switch port sent far less data (and waited longer
// to send) than the median of its equals in the stage that showed it best.
struct CounterEvidence {
  std::string cable, from, to;     // "node[port]" at both ends
  int stage = 0;                   // the stage of the figures below
  std::vector<int> stages;         // every stage that showed it
  std::vector<std::string> group;  // the equals' switch ports, this one's included
  double data_octets = 0;
  double group_median_data_octets = 0;
  double z_data = 0;
  double confidence = 0;
  std::optional<double> xmit_wait, group_median_xmit_wait, z_wait;  // when the ports count waits
  bool operator==(const CounterEvidence&) const = default;
};

struct SuspectCableDetails {
  // Exactly one of the two is set.
  std::optional<burn::SuspectRecord> flows{};
  std::optional<CounterEvidence> counters{};
  // A tied cable's own error counters that rose under load: it is the one named.
  std::optional<ErrorsUnderLoadDetails> errors_under_load{};
  // The cables the same flows fit as well (none for counter evidence).
  std::vector<std::string> tied_with() const { return flows ? flows->tied_with : std::vector<std::string>{}; }
  bool operator==(const SuspectCableDetails&) const = default;
};

// The record's own fields at the top (as summary.json's `suspects` hold them); counter evidence
// says `"source": "port counters"`.
void to_json(nlohmann::json& j, const SuspectCableDetails& d);

}  // namespace ibburn::localization

namespace ibburn {

template <>
struct FindingDetails<FindingKind::SuspectCable> {
  using Details = localization::SuspectCableDetails;
  static Details read(const JsonFields& r);
};

}  // namespace ibburn
