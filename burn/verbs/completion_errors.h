#pragma once
// What a failed work completion means for the operator. The reasons name the likely cause
// (a dead peer, a down link, a freed buffer) rather than the verbs status alone.
#include <string>

#include <infiniband/verbs.h>

namespace ibburn::burn::verbs {

struct CompletionError {
  std::string kind;    // stable key for results: "peer_unreachable", "remote_access", ...
  std::string reason;  // one sentence for humans, ending with the verbs status name
};

// The error for a completion whose status is not IBV_WC_SUCCESS.
CompletionError describe_completion_error(ibv_wc_status status);

// The error when ibv_poll_cq itself fails: the CQ overflowed (or the device died).
CompletionError describe_poll_failure(int rc);

}  // namespace ibburn::burn::verbs
