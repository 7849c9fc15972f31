#include "burn/verbs/completion_errors.h"

namespace ibburn::burn::verbs {
namespace {

struct Entry {
  ibv_wc_status status;
  const char* name;
  const char* kind;
  const char* reason;
};

constexpr Entry kEntries[] = {
    {IBV_WC_RETRY_EXC_ERR, "IBV_WC_RETRY_EXC_ERR", "peer_unreachable",
     "transport retries exhausted: the peer or the path to it is unreachable (dead host, "
     "down or flapping link, wrong LID/GID)"},
    {IBV_WC_RNR_RETRY_EXC_ERR, "IBV_WC_RNR_RETRY_EXC_ERR", "peer_not_ready",
     "receiver-not-ready retries exhausted: the peer stopped posting receives (hung process)"},
    {IBV_WC_REM_ACCESS_ERR, "IBV_WC_REM_ACCESS_ERR", "remote_access",
     "remote access error: the peer rejected the write (unknown rkey, out of bounds or no "
     "remote-write permission: peer freed or re-registered its buffer)"},
    {IBV_WC_REM_INV_REQ_ERR, "IBV_WC_REM_INV_REQ_ERR", "remote_invalid_request",
     "remote invalid request: the peer QP does not accept this operation (QP setup mismatch)"},
    {IBV_WC_REM_OP_ERR, "IBV_WC_REM_OP_ERR", "remote_operation",
     "remote operation error: the peer could not complete the request (peer QP in error)"},
    {IBV_WC_LOC_PROT_ERR, "IBV_WC_LOC_PROT_ERR", "local_protection",
     "local protection error: the local buffer is not registered for this access"},
    {IBV_WC_LOC_LEN_ERR, "IBV_WC_LOC_LEN_ERR", "local_length",
     "local length error: message larger than the receive buffer or the port allows"},
    {IBV_WC_LOC_QP_OP_ERR, "IBV_WC_LOC_QP_OP_ERR", "local_qp",
     "local QP operation error: malformed work request or QP limits exceeded"},
    {IBV_WC_LOC_ACCESS_ERR, "IBV_WC_LOC_ACCESS_ERR", "local_access", "local access error on an incoming write"},
    {IBV_WC_REM_ABORT_ERR, "IBV_WC_REM_ABORT_ERR", "remote_abort", "remote abort: the peer aborted the operation"},
    {IBV_WC_BAD_RESP_ERR, "IBV_WC_BAD_RESP_ERR", "bad_response",
     "bad response from the peer: corrupted or unexpected transport response"},
    {IBV_WC_RESP_TIMEOUT_ERR, "IBV_WC_RESP_TIMEOUT_ERR", "response_timeout",
     "response timeout: the peer did not answer in time"},
    {IBV_WC_FATAL_ERR, "IBV_WC_FATAL_ERR", "fatal",
     "fatal HCA error: the local adapter failed (check dmesg and firmware)"},
    {IBV_WC_GENERAL_ERR, "IBV_WC_GENERAL_ERR", "general", "general transport error"},
    {IBV_WC_WR_FLUSH_ERR, "IBV_WC_WR_FLUSH_ERR", "flushed",
     "work request flushed because the QP is in error after an earlier failure"},
};

}  // namespace

CompletionError describe_completion_error(ibv_wc_status status) {
  for (const Entry& e : kEntries) {
    if (e.status == status) return {e.kind, std::string(e.reason) + " (" + e.name + ")"};
  }
  return {"completion_error", "work completion failed with verbs status " + std::to_string(static_cast<int>(status))};
}

CompletionError describe_poll_failure(int rc) {
  return {"cq_overrun", "ibv_poll_cq failed (" + std::to_string(rc) +
                            "): completion queue overrun or device failure; the CQ is unusable"};
}

bool path_loss(const std::string& kind) { return kind == "peer_unreachable" || kind == "response_timeout"; }

CompletionError blame_local_port(const CompletionError& error, const std::string& local_fault) {
  return {"local_link", local_fault + ", which explains: " + error.reason};
}

}  // namespace ibburn::burn::verbs
