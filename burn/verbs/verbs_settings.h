#pragma once
// Tuning of the verbs transport, from TransportOptions (message size) and its extra knobs
// ("qps", "tx_depth", "signal_every", "post_list", "gid_index", "relaxed_ordering").
// Defaults follow what reaches line rate at NDR (docs/verbs.md).
#include <cstddef>

#include "burn/transport.h"

namespace ibburn::burn::verbs {

struct VerbsSettings {
  int qps = 4;  // RC QPs per flow
  size_t message_size = 1 << 20;
  int tx_depth = 128;     // send-queue depth per QP
  int signal_every = 32;  // one signalled (write-with-immediate) WR per this many
  int post_list = 8;      // WRs chained into one ibv_post_send
  int gid_index = 0;      // RoCE: which GID to source from
  bool relaxed_ordering = true;

  // Receives each QP keeps posted: one per signalled WR that can be in flight, plus slack.
  int rx_depth() const { return tx_depth / signal_every + 4; }
};

// Throws InputError (source "--transport-opt") for a malformed or out-of-range value.
// `streams` (the flow's, from --qps/--streams or the plan) sets the QP count unless the
// "qps" knob is given; 0 means "not set" and keeps the default of 4.
VerbsSettings parse_verbs_settings(const TransportOptions& options, int streams);

}  // namespace ibburn::burn::verbs
