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

// The error when ibv_poll_cq itself fails: a malformed completion or a dead device (a CQ
// overrun is not reported here but as the async event IBV_EVENT_CQ_ERR).
CompletionError describe_poll_failure(int rc);

// Whether a failure of this kind is what a lost path looks like (retries or responses that
// never came back), so the local port must be ruled out before the peer is blamed.
bool path_loss(const std::string& kind);

// `error` blamed on the local port: kind "local_link", the local fault first, then the
// verbs reason it explains.
CompletionError blame_local_port(const CompletionError& error, const std::string& local_fault);

}  // namespace ibburn::burn::verbs
