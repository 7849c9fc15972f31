#include "common/finding_details.h"

#include <stdexcept>

#include "common/json_fields.h"

namespace ibburn {

namespace {

// The reader of one kind's details: a missing or mistyped field is refused naming the kind and
// the field's place ("rise.PortRcvErrors").
JsonFields details_reader(const nlohmann::json& j, FindingKind kind) {
  return JsonFields(j, [kind](const std::string& place, const std::string& what) {
    throw std::invalid_argument(std::string(to_string(kind)) + " details: " +
                                (place.empty() ? what : "field '" + place + "' " + what));
  });
}

}  // namespace

void to_json(nlohmann::json& j, const ErrorsUnderLoadDetails& d) {
  j = {{"stage", d.stage},
       {"rise", d.rise},
       {"bits_received", d.bits_received},
       {"bits_sent", d.bits_sent},
       {"seconds", d.seconds}};
  if (d.symbol_errors_per_bit) j["symbol_errors_per_bit"] = *d.symbol_errors_per_bit;
}

void from_json(const nlohmann::json& j, ErrorsUnderLoadDetails& d) {
  const JsonFields r = details_reader(j, FindingKind::ErrorsUnderLoad);
  d.stage = r.get<int>("stage");
  d.rise.clear();
  const JsonFields rise = r.object("rise");
  for (const auto& [counter, value] : rise.json()->items()) d.rise[counter] = rise.get<uint64_t>(counter);
  d.bits_received = r.get<double>("bits_received");
  d.bits_sent = r.get<double>("bits_sent");
  d.seconds = r.get<double>("seconds");
  d.symbol_errors_per_bit = r.optional<double>("symbol_errors_per_bit");
}

}  // namespace ibburn
