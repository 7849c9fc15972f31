#include "burn/verbs/verbs_settings.h"

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "common/error.h"

namespace ibburn::burn::verbs {
namespace {

long long knob(const TransportOptions& o, const std::string& key, long long fallback, long long lo, long long hi) {
  const auto it = o.extra.find(key);
  if (it == o.extra.end()) return fallback;
  long long v = 0;
  size_t used = 0;
  try {
    v = std::stoll(it->second, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != it->second.size() || v < lo || v > hi) {
    throw InputError(
        "--opt", 0,
        key + "=" + it->second + ": expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  }
  return v;
}

// "0x8001" or "32769": a partition's P_Key (its full-membership bit may be given).
uint16_t parse_pkey(const std::string& text) {
  unsigned long v = 0;
  size_t used = 0;
  try {
    v = std::stoul(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || v > 0xFFFF || (v & 0x7FFF) == 0 || (v & 0x7FFF) == 0x7FFF)
    throw InputError("--pkey", 0,
                     "'" + text + "' is not a partition's P_Key (0x0001 to 0x7ffe, full bit 0x8000 allowed)");
  return static_cast<uint16_t>(v);
}

}  // namespace

int default_tx_depth(size_t message_size) {
  constexpr size_t kInFlight = 64u << 20;
  const size_t depth = (kInFlight + message_size - 1) / std::max<size_t>(message_size, 1);
  return static_cast<int>(std::clamp<size_t>(depth, 8, 128));
}

VerbsSettings parse_verbs_settings(const TransportOptions& o, int streams) {
  VerbsSettings s;
  s.qps = static_cast<int>(knob(o, "qps", streams >= 1 ? streams : s.qps, 1, 256));
  if (o.message_size != 0) {
    // RDMA WRITE carries up to 2^31 bytes; below 64 bytes it measures the CPU, not the link.
    if (o.message_size < 64 || o.message_size > (1ull << 31)) {
      throw InputError("--msg-size", 0, std::to_string(o.message_size) + " bytes: expected 64 B to 2 GiB");
    }
    s.message_size = o.message_size;
  }
  s.tx_depth = static_cast<int>(knob(o, "tx_depth", default_tx_depth(s.message_size), 1, 8192));
  s.signal_every = static_cast<int>(knob(o, "signal_every", std::min(s.signal_every, s.tx_depth), 1, s.tx_depth));
  s.post_list = static_cast<int>(knob(o, "post_list", s.post_list, 1, s.tx_depth));
  if (o.extra.count("gid_index") != 0) s.gid_index = static_cast<int>(knob(o, "gid_index", 0, 0, 255));
  s.relaxed_ordering = knob(o, "relaxed_ordering", 1, 0, 1) == 1;
  PathKnobs& p = s.path;
  p.sl = static_cast<int>(knob(o, "sl", p.sl, 0, 15));
  p.traffic_class = static_cast<int>(knob(o, "tc", p.traffic_class, 0, 255));
  p.pkey_index = static_cast<int>(knob(o, "pkey_index", p.pkey_index, 0, 65535));
  if (const auto it = o.extra.find("pkey"); it != o.extra.end()) p.pkey = parse_pkey(it->second);
  // 0 would wait for an ACK forever: a dead peer would never show.
  p.timeout = static_cast<int>(knob(o, "timeout", p.timeout, 1, 31));
  p.retry_cnt = static_cast<int>(knob(o, "retry_cnt", p.retry_cnt, 0, 7));
  s.drain_limit = std::chrono::milliseconds(knob(o, "drain_ms", s.drain_limit.count(), 10, 600'000));
  return s;
}

nlohmann::json path_settings_json(const std::map<std::string, std::string>& knobs) {
  TransportOptions o;
  o.extra = knobs;
  try {
    const VerbsSettings s = parse_verbs_settings(o, 0);
    return {{"gid_index", s.gid_index ? nlohmann::json(*s.gid_index) : nlohmann::json("auto")},
            {"sl", s.path.sl},
            {"tc", s.path.traffic_class},
            {"pkey_index", s.path.pkey_index},
            {"timeout", s.path.timeout},
            {"retry_cnt", s.path.retry_cnt},
            {"hop_limit", PathKnobs::kHopLimit}};
  } catch (const Error& e) {
    return {{"error", e.what()}};
  }
}

}  // namespace ibburn::burn::verbs
