#include "common/finding_details.h"

#include <stdexcept>

namespace ibburn {

namespace {

// Reads j[field] as T, or throws naming the kind and the field.
template <typename T>
T field(const nlohmann::json& j, FindingKind kind, const char* name) {
  auto fail = [&](const char* what) {
    return std::invalid_argument(std::string(to_string(kind)) + " details: " + what + " field '" + name + "'");
  };
  if (!j.is_object() || !j.contains(name)) throw fail("missing");
  const nlohmann::json& v = j.at(name);
  if constexpr (std::is_same_v<T, int>) {
    if (!v.is_number_integer()) throw fail("mistyped");
  } else if constexpr (std::is_same_v<T, double>) {
    if (!v.is_number()) throw fail("mistyped");
  } else {
    if (!v.is_object()) throw fail("mistyped");
  }
  return v.get<T>();
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
  constexpr FindingKind k = FindingKind::ErrorsUnderLoad;
  d.stage = field<int>(j, k, "stage");
  d.rise.clear();
  const nlohmann::json rise = field<nlohmann::json>(j, k, "rise");
  for (const auto& [counter, value] : rise.items()) {
    // A count built in memory from a non-negative int is signed until it is written and read.
    if (!value.is_number_integer() || (!value.is_number_unsigned() && value.get<int64_t>() < 0))
      throw std::invalid_argument(std::string(to_string(k)) + " details: mistyped field 'rise." + counter + "'");
    d.rise[counter] = value.get<uint64_t>();
  }
  d.bits_received = field<double>(j, k, "bits_received");
  d.bits_sent = field<double>(j, k, "bits_sent");
  d.seconds = field<double>(j, k, "seconds");
  d.symbol_errors_per_bit.reset();
  if (j.contains("symbol_errors_per_bit")) d.symbol_errors_per_bit = field<double>(j, k, "symbol_errors_per_bit");
}

}  // namespace ibburn
