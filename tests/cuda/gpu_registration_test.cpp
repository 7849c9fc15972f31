// GPU memory registration choices (dma-buf, then peer memory, else refuse) on the software
// HCA. Host memory stands in for the device pointer: the decision logic is what is tested.
#include "cuda/gpu_registration.h"
#include "rdma/gpudirect.h"

#include <gtest/gtest.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "rdma/verbs_objects.h"
#include "common/error.h"
#include "tests/burn/verbs/soft_hca.h"
#include "tests/support/temp_dir.h"

namespace ibburn::testing {
namespace {

namespace fs = std::filesystem;

class GpuRegistrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hca_.add_device("soft0", SoftPort{});
    rdma::DeviceList list(hca_.api());
    ctx_ = rdma::open_context(hca_.api(), list.find("soft0"));
    pd_ = rdma::alloc_pd(ctx_);
    request_.device_ptr = memory_.data();
    request_.length = memory_.size();
    request_.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    request_.sysfs_root = sysfs_.string();
    request_.export_dmabuf = [this](uint64_t base, size_t length) {
      exported_.push_back({base, length});
      return ::eventfd(0, EFD_CLOEXEC);  // any open fd will do
    };
  }
  void add_peer_memory(const std::string& rel) {
    fs::create_directories((sysfs_ / rel).parent_path());
    std::ofstream(sysfs_ / rel) << "1.0\n";
  }

  SoftHca hca_;
  rdma::Context ctx_;
  rdma::ProtectionDomain pd_;
  std::vector<char> memory_ = std::vector<char>(1 << 20);
  TempDir tmp_;
  const fs::path sysfs_ = tmp_.path();
  cuda::GpuRegistrationRequest request_;
  std::vector<std::pair<uint64_t, size_t>> exported_;
};

TEST_F(GpuRegistrationTest, ProbeReadsTheErrno) {
  EXPECT_EQ(rdma::probe_dmabuf(hca_.api(), pd_.get(), "soft0").state, rdma::DmaBuf::Supported);
  hca_.set_dmabuf_supported(false);
  EXPECT_EQ(rdma::probe_dmabuf(hca_.api(), pd_.get(), "soft0").state, rdma::DmaBuf::Unsupported);
}

TEST_F(GpuRegistrationTest, DmabufIsPreferred) {
  add_peer_memory("module/nvidia_peermem/version");
  const cuda::GpuRegistration r = cuda::register_gpu_memory(hca_.api(), pd_.get(), request_);
  rdma::MemoryRegion mr(&hca_.api(), r.mr);
  EXPECT_EQ(r.path, cuda::RegistrationPath::DmaBuf);
  EXPECT_EQ(r.how, "dma-buf");
  EXPECT_EQ(mr->addr, memory_.data());  // iova = the device pointer
  EXPECT_EQ(mr->length, memory_.size());
}

TEST_F(GpuRegistrationTest, PeerMemoryWhenTheStackHasNoDmabuf) {
  hca_.set_dmabuf_supported(false);
  add_peer_memory("kernel/mm/memory_peers/nv_mem/version");
  const cuda::GpuRegistration r = cuda::register_gpu_memory(hca_.api(), pd_.get(), request_);
  rdma::MemoryRegion mr(&hca_.api(), r.mr);
  EXPECT_EQ(r.path, cuda::RegistrationPath::PeerMemory);
  EXPECT_NE(r.how.find("nv_mem/version"), std::string::npos) << r.how;
  EXPECT_STREQ(cuda::to_string(r.path), "peer memory");
}

TEST_F(GpuRegistrationTest, PeerMemoryWhenTheDriverCannotExport) {
  add_peer_memory("kernel/mm/memory_peers/nv_mem_nc/version");
  request_.export_dmabuf = [](uint64_t, size_t) -> int { throw EnvironmentError("no cuMemGetHandleForAddressRange"); };
  const cuda::GpuRegistration r = cuda::register_gpu_memory(hca_.api(), pd_.get(), request_);
  rdma::MemoryRegion mr(&hca_.api(), r.mr);
  EXPECT_EQ(r.path, cuda::RegistrationPath::PeerMemory);
}

TEST_F(GpuRegistrationTest, RefusesWithBothReasonsWhenNeitherWorks) {
  hca_.set_dmabuf_supported(false);
  try {
    cuda::register_gpu_memory(hca_.api(), pd_.get(), request_);
    FAIL() << "registered without dma-buf or peer memory";
  } catch (const EnvironmentError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("dma-buf: the RDMA stack does not support"), std::string::npos) << what;
    EXPECT_NE(what.find("nvidia_peermem not loaded"), std::string::npos) << what;
    EXPECT_NE(what.find("no peer-memory API"), std::string::npos) << what;  // no memory_peers: dma-buf only
    EXPECT_EQ(e.code(), kExitEnvironment);
  }
  EXPECT_TRUE(rdma::peer_memory_modules(sysfs_.string()).empty());
}

TEST_F(GpuRegistrationTest, ExportsThePageAlignedRangeAndRegistersTheOffset) {
  request_.device_ptr = memory_.data() + 100;
  request_.length = 5000;
  const cuda::GpuRegistration r = cuda::register_gpu_memory(hca_.api(), pd_.get(), request_);
  rdma::MemoryRegion mr(&hca_.api(), r.mr);
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const auto ptr = reinterpret_cast<uint64_t>(request_.device_ptr);
  ASSERT_EQ(exported_.size(), 1u);
  EXPECT_EQ(exported_[0].first, ptr / page * page);
  EXPECT_EQ(exported_[0].first % page, 0u);
  EXPECT_GE(exported_[0].first + exported_[0].second, ptr + 5000);
  EXPECT_EQ(exported_[0].second % page, 0u);
  EXPECT_EQ(mr->addr, request_.device_ptr);  // iova: the pointer itself
}

TEST(GpuRegistration, DmabufRangeArithmetic) {
  const cuda::DmaBufRange aligned = cuda::dmabuf_range(0x200000, 0x400000, 4096);
  EXPECT_EQ(aligned.base, 0x200000u);
  EXPECT_EQ(aligned.offset, 0u);
  EXPECT_EQ(aligned.length, 0x400000u);
  const cuda::DmaBufRange r = cuda::dmabuf_range(0x201010, 0x1000, 4096);
  EXPECT_EQ(r.base, 0x201000u);
  EXPECT_EQ(r.offset, 0x10u);
  EXPECT_EQ(r.length, 0x2000u);  // the last byte 0x20200f lies in the second page
  const cuda::DmaBufRange big = cuda::dmabuf_range(0x7f0000010000, 1, 65536);
  EXPECT_EQ(big.offset, 0u);
  EXPECT_EQ(big.length, 65536u);
}

TEST(GpuRegistration, ChoiceIsValidated) {
  EXPECT_EQ(cuda::parse_registration_choice("auto"), cuda::RegistrationChoice::Auto);
  EXPECT_EQ(cuda::parse_registration_choice("dmabuf"), cuda::RegistrationChoice::DmaBuf);
  EXPECT_EQ(cuda::parse_registration_choice("peermem"), cuda::RegistrationChoice::PeerMemory);
  for (const char* bad : {"", "dma-buf", "PEERMEM", "both"}) {
    try {
      cuda::parse_registration_choice(bad);
      FAIL() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("expected auto, dmabuf or peermem"), std::string::npos) << e.what();
    }
  }
}

TEST_F(GpuRegistrationTest, ForcedPeerMemorySkipsDmabuf) {
  add_peer_memory("module/nvidia_peermem/version");
  request_.choice = cuda::RegistrationChoice::PeerMemory;
  const cuda::GpuRegistration r = cuda::register_gpu_memory(hca_.api(), pd_.get(), request_);
  rdma::MemoryRegion mr(&hca_.api(), r.mr);
  EXPECT_EQ(r.path, cuda::RegistrationPath::PeerMemory);
  EXPECT_TRUE(exported_.empty());
}

TEST_F(GpuRegistrationTest, ForcedDmabufDoesNotFallBack) {
  add_peer_memory("kernel/mm/memory_peers/nv_mem/version");
  hca_.set_dmabuf_supported(false);
  request_.choice = cuda::RegistrationChoice::DmaBuf;
  try {
    cuda::register_gpu_memory(hca_.api(), pd_.get(), request_);
    FAIL() << "fell back to peer memory";
  } catch (const EnvironmentError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("peer memory: not tried (gpu_reg=dmabuf)"), std::string::npos) << what;
    EXPECT_NE(what.find("Load nvidia_peermem"), std::string::npos) << what;  // memory_peers exists here
  }
}

}  // namespace
}  // namespace ibburn::testing
