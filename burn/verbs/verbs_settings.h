#pragma once
// Tuning of the verbs transport, from TransportOptions (message size) and its extra knobs
// ("qps", "tx_depth", "signal_every", "post_list", "gid_index", "relaxed_ordering", "drain_ms").
// Defaults follow what reaches line rate at NDR (docs/verbs.md).
#include <chrono>
#include <cstddef>

#include "burn/transport.h"

namespace ibburn::burn::verbs {

struct VerbsSettings {
  int qps = 4;  // RC QPs per flow
  size_t message_size = 1 << 20;
  int tx_depth = 64;      // send-queue depth per QP: default_tx_depth(message_size)
  int signal_every = 32;  // one signalled (write-with-immediate) WR per this many
  int post_list = 8;      // WRs chained into one ibv_post_send
  int gid_index = 0;      // RoCE: which GID to source from
  bool relaxed_ordering = true;
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

// Throws InputError (source "--transport-opt") for a malformed or out-of-range value.
// `streams` (the flow's, from --qps/--streams or the plan) sets the QP count unless the
// "qps" knob is given; 0 means "not set" and keeps the default of 4.
VerbsSettings parse_verbs_settings(const TransportOptions& options, int streams);

}  // namespace ibburn::burn::verbs
