#pragma once
// The optional expectations file of `host check`: one `key=value` per line, `#` comments,
// blank lines ignored. Keys (all optional):
//   gpus=8  hcas=8  rate=400  fw=28.39.1002  link_layer=InfiniBand  max_distance=PXB
// rate is in Gb/s as sysfs prints it ("400 Gb/sec (4X NDR)" is accepted too).
#include <cstdint>
#include <optional>
#include <string>

#include "host/distance.h"

namespace ibburn::host {

struct Expectations {
  std::optional<int> gpus, hcas;
  std::optional<double> rate_gbps;
  std::optional<std::string> fw;
  std::optional<std::string> link_layer;
  Distance max_distance = Distance::PXB;  // farthest GPU-HCA pair that is still fine
  std::optional<uint64_t> pinned_bytes;   // host memory one burn rank pins; set by the burn, not the file
};

// Throws InputError(file, line, reason) for unknown keys and bad values.
Expectations parse_expectations(const std::string& text, const std::string& file);

// "400 Gb/sec (4X NDR)" -> 400; nullopt when it does not start with a number.
std::optional<double> parse_rate_gbps(const std::string& text);

}  // namespace ibburn::host
