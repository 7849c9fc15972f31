#include "burn/verbs/completion_errors.h"

#include <gtest/gtest.h>

namespace ibburn::burn::verbs {
namespace {

TEST(CompletionErrors, RetryExceededMeansPeerOrPathUnreachable) {
  const CompletionError e = describe_completion_error(IBV_WC_RETRY_EXC_ERR);
  EXPECT_EQ(e.kind, "peer_unreachable");
  EXPECT_NE(e.reason.find("unreachable"), std::string::npos);
  EXPECT_NE(e.reason.find("IBV_WC_RETRY_EXC_ERR"), std::string::npos);
}

TEST(CompletionErrors, EachCommonStatusHasItsOwnKind) {
  EXPECT_EQ(describe_completion_error(IBV_WC_REM_ACCESS_ERR).kind, "remote_access");
  EXPECT_EQ(describe_completion_error(IBV_WC_RNR_RETRY_EXC_ERR).kind, "peer_not_ready");
  EXPECT_EQ(describe_completion_error(IBV_WC_LOC_PROT_ERR).kind, "local_protection");
  EXPECT_EQ(describe_completion_error(IBV_WC_WR_FLUSH_ERR).kind, "flushed");
  EXPECT_EQ(describe_completion_error(IBV_WC_FATAL_ERR).kind, "fatal");
}

TEST(CompletionErrors, UnknownStatusKeepsTheNumber) {
  const CompletionError e = describe_completion_error(static_cast<ibv_wc_status>(99));
  EXPECT_EQ(e.kind, "completion_error");
  EXPECT_NE(e.reason.find("99"), std::string::npos);
}

TEST(CompletionErrors, PollFailureIsCqOverrun) { EXPECT_EQ(describe_poll_failure(-1).kind, "cq_overrun"); }

}  // namespace
}  // namespace ibburn::burn::verbs
