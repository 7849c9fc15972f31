#pragma once
// Tuning of the verbs transport, from TransportOptions (message size) and its extra knobs
// ("qps", "tx_depth", "signal_every", "post_list", "gid_index", "relaxed_ordering", "drain_ms",
// and the path knobs "sl", "tc", "pkey_index", "timeout", "retry_cnt").
// Defaults follow what reaches line rate at NDR (docs/verbs.md).
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "burn/transport.h"

namespace ibburn::burn::verbs {

// How a QP's packets travel (docs/verbs.md, "Path knobs"): the fabric's QoS class and
// partition, and how long the HCA waits for an ACK before it retransmits.
struct PathKnobs {
  int sl = 0;             // InfiniBand service level (adaptive routing runs on the AR-enabled SL)
  int traffic_class = 0;  // GRH traffic class: on RoCE v2 DSCP << 2 | ECN, the lossless class
  int pkey_index = 0;     // P_Key table index (checked against the port's table)
  // --pkey: the partition; each port uses the index of its entry for it (port_info.h), and a
  // port that lacks it is refused.
  std::optional<uint16_t> pkey;
  // ACK timeout 4.096 us * 2^18 = 1.07 s per try: a multi-switch fabric under congestion
  // must not read as a dead peer (NCCL uses 20; perftest's 14 suits back-to-back links).
  int timeout = 18;
  int retry_cnt = 7;
  static constexpr int kHopLimit = 255;  // GRH hop limit: never the reason a packet dies
};

struct VerbsSettings {
  int qps = 4;  // RC QPs per flow
  size_t message_size = 1 << 20;
  int tx_depth = 64;      // send-queue depth per QP: default_tx_depth(message_size)
  int signal_every = 32;  // one signalled (write-with-immediate) WR per this many
  int post_list = 8;      // WRs chained into one ibv_post_send
  // Which GID to source from; unset: chosen per host from its GID table (port_info.h).
  std::optional<int> gid_index;
  bool relaxed_ordering = true;
  PathKnobs path;
  // After stop: how long the sender's last writes may take to retire and the receiver may
  // wait for every QP's end marker.
  std::chrono::milliseconds drain_limit{2000};

  // Receives each QP keeps posted: one per signalled WR that can be in flight, plus slack.
  int rx_depth() const { return tx_depth / signal_every + 4; }
};

// Bytes in flight are bounded by size, not WR count: ceil(64 MiB / message) WRs per QP, at
// least 8 (so small messages keep the pipe full) and at most 128. 64 MiB is far above the
// bandwidth-delay product (400 Gb/s x 10 us = 0.5 MB) and keeps the stage-end drain short.
int default_tx_depth(size_t message_size);

// Throws InputError (source "--opt") for a malformed or out-of-range value.
// `streams` (the flow's, from --qps/--streams or the plan) sets the QP count unless the
// "qps" knob is given; 0 means "not set" and keeps the default of 4.
VerbsSettings parse_verbs_settings(const TransportOptions& options, int streams);

// The path a run's QPs take, for the results' run header: gid_index ("auto" when chosen per
// host), sl, tc, pkey_index, timeout, retry_cnt, hop_limit. A bad knob gives {"error": why}.
nlohmann::json path_settings_json(const std::map<std::string, std::string>& knobs);

}  // namespace ibburn::burn::verbs
