// RLIMIT_MEMLOCK in the host preflight: the capability parse and the memlock_low finding.
#include "host/process_limits.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>

#include "host/checks.h"
#include "host/host_check.h"
#include "rdma/verbs_objects.h"

namespace ibburn::host {
namespace {

TEST(ProcessLimits, CapIpcLockIsBit14OfCapEff) {
  EXPECT_TRUE(has_ipc_lock("Name:\tibburn\nCapInh:\t0000000000000000\nCapEff:\t000001ffffffffff\n"));
  EXPECT_TRUE(has_ipc_lock("CapEff:\t0000000000004000\n"));
  EXPECT_FALSE(has_ipc_lock("CapPrm:\t0000000000004000\nCapEff:\t0000000000000000\n"));
  EXPECT_FALSE(has_ipc_lock(""));
}

TEST(ProcessLimits, TheRunningProcessIsRead) {
  const MemlockLimit m = read_memlock_limit();
  EXPECT_TRUE(m.read);
  EXPECT_EQ(m.bytes, rdma::memlock_limit());
}

TEST(ProcessLimits, RegistrationErrorsNameTheLimitOnlyWhenItCanBeTheCause) {
  const std::string hint = rdma::memlock_hint(ENOMEM, 8ull << 20);
  EXPECT_NE(hint.find("RLIMIT_MEMLOCK is 8192 KiB (ulimit -l); set memlock unlimited"), std::string::npos) << hint;
  EXPECT_NE(rdma::memlock_hint(EPERM, 64 << 10).find("64 KiB"), std::string::npos);
  EXPECT_EQ(rdma::memlock_hint(EINVAL, 64 << 10), "");
  EXPECT_EQ(rdma::memlock_hint(ENOMEM, std::nullopt), "");  // unlimited: something else ran out
}

HostInventory with_memlock(std::optional<uint64_t> bytes, bool ipc_lock = false) {
  HostInventory inv;
  inv.memlock = MemlockLimit{true, bytes, ipc_lock};
  return inv;
}

TEST(ProcessLimits, BelowThePlannedPinningIsAnError) {
  Expectations e;
  e.pinned_bytes = 64ull << 20;
  const auto f = check_memlock(with_memlock(8ull << 20), e);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, FindingKind::MemlockLow);
  EXPECT_EQ(f[0].severity, Severity::Error);
  EXPECT_NE(f[0].message.find("RLIMIT_MEMLOCK is 8192 KiB (ulimit -l)"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("pins at least 64 MiB"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("unlimited"), std::string::npos);
  EXPECT_EQ(f[0].details.at("needed_bytes"), 64ull << 20);
  EXPECT_TRUE(check_memlock(with_memlock(64ull << 20), e).empty());  // exactly enough
}

TEST(ProcessLimits, UnknownPinningIsCheckedAgainstTheFloorAsAWarning) {
  const auto f = check_memlock(with_memlock(64 << 10), Expectations{});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::Warning);
  EXPECT_NE(f[0].message.find("RLIMIT_MEMLOCK is 64 KiB"), std::string::npos) << f[0].message;
  EXPECT_TRUE(check_memlock(with_memlock(kMemlockFloor), Expectations{}).empty());
}

TEST(ProcessLimits, UnlimitedCapableOrUnreadIsFine) {
  Expectations e;
  e.pinned_bytes = 1ull << 30;
  EXPECT_TRUE(check_memlock(with_memlock(std::nullopt), e).empty());
  EXPECT_TRUE(check_memlock(with_memlock(64 << 10, true), e).empty());
  EXPECT_TRUE(check_memlock(HostInventory{}, e).empty());  // a fixture tree: not this process
}

TEST(ProcessLimits, TheHostCheckReportsIt) {
  const HostReport r = evaluate(with_memlock(64 << 10), Expectations{});
  EXPECT_TRUE(std::any_of(r.findings.begin(), r.findings.end(),
                          [](const Finding& f) { return f.kind == FindingKind::MemlockLow; }));
}

}  // namespace
}  // namespace ibburn::host
