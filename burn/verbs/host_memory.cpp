// Host payload memory: NUMA-local to the HCA so DMA does not cross the socket link, and
// backed by huge pages when the system has them (fewer IOMMU/MTT entries per MR).
#include <numa.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/payload_pattern.h"
#include "burn/transport.h"
#include "burn/verbs/payload_memory.h"
#include "common/error.h"

namespace ibburn::burn::verbs {
namespace {

constexpr size_t kHugePage = 2u << 20;

class HostMemory final : public PayloadMemory {
 public:
  HostMemory(const rdma::ProtectionDomain& pd, size_t bytes, int numa_node, int access)
      : size_(bytes), mapped_((bytes + kHugePage - 1) / kHugePage * kHugePage) {
    void* p = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
    if (p != MAP_FAILED) {
      pages_ = "2 MiB huge pages";
    } else {
      p = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) {
        throw EnvironmentError("cannot map " + std::to_string(mapped_) +
                               " bytes of host memory: " + std::strerror(errno));
      }
      // No reserved huge pages: ask for transparent ones.
      pages_ = ::madvise(p, mapped_, MADV_HUGEPAGE) == 0 ? "transparent huge pages" : "4 KiB pages";
    }
    data_ = p;
    if (numa_node >= 0 && numa_available() >= 0) {
      numa_tonode_memory(data_, mapped_, numa_node);
      node_ = numa_node;
    }
    std::memset(data_, 0, mapped_);  // place the pages now, not during the first transfer
    mr_ = rdma::reg_mr(pd, data_, size_, access);
  }
  ~HostMemory() override {
    mr_.reset();
    ::munmap(data_, mapped_);
  }

  void* data() const override { return data_; }
  size_t size() const override { return size_; }
  const ibv_mr& mr() const override { return *mr_.get(); }
  std::string description() const override {
    return "host memory, " + (node_ >= 0 ? "NUMA node " + std::to_string(node_) : std::string("no NUMA binding")) +
           ", " + pages_;
  }
  void fill(size_t offset, size_t bytes, uint32_t flow, uint64_t seq) override {
    auto* w = static_cast<uint64_t*>(data_) + offset / 8;
    for (size_t i = 0; i < bytes / 8; ++i) w[i] = pattern_word(flow, seq, i);
  }
  uint64_t count_mismatches(size_t offset, size_t bytes, uint32_t flow, uint64_t seq) const override {
    const auto* w = static_cast<const volatile uint64_t*>(data_) + offset / 8;
    uint64_t bad = 0;
    for (size_t i = 0; i < bytes / 8; ++i) bad += w[i] != pattern_word(flow, seq, i) ? 1 : 0;
    return bad;
  }

 private:
  size_t size_;
  size_t mapped_;
  void* data_ = nullptr;
  int node_ = -1;
  std::string pages_;
  rdma::MemoryRegion mr_;
};

}  // namespace

int rdma_device_numa_node(const std::string& device, const std::string& sysfs_root) {
  std::ifstream in(sysfs_root + "/class/infiniband/" + device + "/device/numa_node");
  int node = -1;
  if (!(in >> node)) return -1;
  return node;
}

std::unique_ptr<PayloadMemory> make_host_memory(const rdma::ProtectionDomain& pd, size_t bytes, int numa_node,
                                                int access) {
  return std::make_unique<HostMemory>(pd, bytes, numa_node, access);
}

}  // namespace ibburn::burn::verbs
