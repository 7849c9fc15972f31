// GPU memory registration choices (dma-buf, then peer memory, else refuse) on the software
// HCA. Host memory stands in for the device pointer: the decision logic is what is tested.
#include "cuda/gpu_registration.h"
#include "rdma/gpudirect.h"

#include <gtest/gtest.h>
#include <sys/eventfd.h>

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
    hca.add_device("soft0", SoftPort{});
    rdma::DeviceList list(hca.api());
    ctx = rdma::open_context(hca.api(), list.find("soft0"));
    pd = rdma::alloc_pd(ctx);
    request.device_ptr = memory.data();
    request.length = memory.size();
    request.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    request.sysfs_root = sysfs.string();
    request.export_dmabuf = [] { return ::eventfd(0, EFD_CLOEXEC); };  // any open fd will do
  }
  void add_peer_memory(const std::string& rel) {
    fs::create_directories((sysfs / rel).parent_path());
    std::ofstream(sysfs / rel) << "1.0\n";
  }

  SoftHca hca;
  rdma::Context ctx;
  rdma::ProtectionDomain pd;
  std::vector<char> memory = std::vector<char>(1 << 20);
  TempDir tmp;
  const fs::path sysfs = tmp.path();
  cuda::GpuRegistrationRequest request;
};

TEST_F(GpuRegistrationTest, ProbeReadsTheErrno) {
  EXPECT_EQ(rdma::probe_dmabuf(hca.api(), pd.get(), "soft0").state, rdma::DmaBuf::Supported);
  hca.set_dmabuf_supported(false);
  EXPECT_EQ(rdma::probe_dmabuf(hca.api(), pd.get(), "soft0").state, rdma::DmaBuf::Unsupported);
}

TEST_F(GpuRegistrationTest, DmabufIsPreferred) {
  add_peer_memory("module/nvidia_peermem/version");
  const cuda::GpuRegistration r = cuda::register_gpu_memory(hca.api(), pd.get(), request);
  rdma::MemoryRegion mr(&hca.api(), r.mr);
  EXPECT_EQ(r.path, cuda::RegistrationPath::DmaBuf);
  EXPECT_EQ(r.how, "dma-buf");
  EXPECT_EQ(mr->addr, memory.data());  // iova = the device pointer
  EXPECT_EQ(mr->length, memory.size());
}

TEST_F(GpuRegistrationTest, PeerMemoryWhenTheStackHasNoDmabuf) {
  hca.set_dmabuf_supported(false);
  add_peer_memory("kernel/mm/memory_peers/nv_mem/version");
  const cuda::GpuRegistration r = cuda::register_gpu_memory(hca.api(), pd.get(), request);
  rdma::MemoryRegion mr(&hca.api(), r.mr);
  EXPECT_EQ(r.path, cuda::RegistrationPath::PeerMemory);
  EXPECT_NE(r.how.find("nv_mem/version"), std::string::npos) << r.how;
  EXPECT_STREQ(cuda::to_string(r.path), "peer memory");
}

TEST_F(GpuRegistrationTest, PeerMemoryWhenTheDriverCannotExport) {
  add_peer_memory("kernel/mm/memory_peers/nv_mem_nc/version");
  request.export_dmabuf = []() -> int { throw EnvironmentError("no cuMemGetHandleForAddressRange"); };
  const cuda::GpuRegistration r = cuda::register_gpu_memory(hca.api(), pd.get(), request);
  rdma::MemoryRegion mr(&hca.api(), r.mr);
  EXPECT_EQ(r.path, cuda::RegistrationPath::PeerMemory);
}

TEST_F(GpuRegistrationTest, RefusesWithBothReasonsWhenNeitherWorks) {
  hca.set_dmabuf_supported(false);
  try {
    cuda::register_gpu_memory(hca.api(), pd.get(), request);
    FAIL() << "registered without dma-buf or peer memory";
  } catch (const EnvironmentError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("dma-buf: the RDMA stack does not support"), std::string::npos) << what;
    EXPECT_NE(what.find("nvidia_peermem not loaded"), std::string::npos) << what;
    EXPECT_EQ(e.code(), kExitEnvironment);
  }
  EXPECT_TRUE(rdma::peer_memory_modules(sysfs.string()).empty());
}

}  // namespace
}  // namespace ibburn::testing
