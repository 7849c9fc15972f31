// The pin that keeps the MAD window's loop on one CPU: one CPU of the thread's own while it
// lives, and the thread's CPUs exactly as they were afterwards.
#include "common/cpu_pin.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>

namespace ibburn {
namespace {

cpu_set_t affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(pthread_getaffinity_np(pthread_self(), sizeof set, &set), 0);
  return set;
}

int first_cpu(const cpu_set_t& set) {
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) return cpu;
  return -1;
}

TEST(ScopedCpuPin, PinsToOneOfTheThreadsCpusAndRestoresThemAll) {
  const cpu_set_t before = affinity();
  if (CPU_COUNT(&before) < 2) GTEST_SKIP() << "this thread may run on one CPU only";
  {
    const ScopedCpuPin pin;
    const cpu_set_t during = affinity();
    EXPECT_EQ(CPU_COUNT(&during), 1);
    EXPECT_TRUE(CPU_ISSET(first_cpu(during), &before));
  }
  const cpu_set_t after = affinity();
  EXPECT_TRUE(CPU_EQUAL(&after, &before));
}

TEST(ScopedCpuPin, RestoresTheThreadItPinnedWhenDestroyedOnAnother) {
  const cpu_set_t before = affinity();
  if (CPU_COUNT(&before) < 2) GTEST_SKIP() << "this thread may run on one CPU only";
  auto pin = std::make_unique<ScopedCpuPin>();
  const cpu_set_t during = affinity();
  EXPECT_EQ(CPU_COUNT(&during), 1);
  std::thread([&pin] { pin.reset(); }).join();
  const cpu_set_t after = affinity();
  EXPECT_TRUE(CPU_EQUAL(&after, &before));
}

TEST(ScopedCpuPin, LeavesAThreadOnOneCpuAsItIs) {
  const cpu_set_t before = affinity();
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first_cpu(before), &one);
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof one, &one), 0);
  {
    const ScopedCpuPin pin;
    const cpu_set_t during = affinity();
    EXPECT_TRUE(CPU_EQUAL(&during, &one));
  }
  const cpu_set_t after = affinity();
  EXPECT_TRUE(CPU_EQUAL(&after, &one));
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof before, &before), 0);
}

}  // namespace
}  // namespace ibburn
