// Host payload memory: NUMA-local to the HCA so DMA does not cross the socket link, and
// backed by huge pages when the system has them (fewer IOMMU/MTT entries per MR).
#include <numa.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/payload_pattern.h"
#include "burn/transport.h"
#include "burn/verbs/host_memory.h"
#include "burn/verbs/payload_memory.h"
#include "common/error.h"
#include "host/sysfs_reader.h"

namespace ibburn::burn::verbs {
namespace {

constexpr size_t kHugePage = 2u << 20;

std::string node_name(int numa_node) {
  return numa_node >= 0 ? "NUMA node " + std::to_string(numa_node) : std::string("the system");
}

class HostMemory final : public PayloadMemory {
 public:
  HostMemory(const rdma::ProtectionDomain& pd, size_t bytes, int numa_node, int access, const std::string& sysfs_root)
      : size_(bytes), mapped_((bytes + kHugePage - 1) / kHugePage * kHugePage) {
    const HugePagePlan plan = plan_huge_pages(host::read_sysfs_number(free_huge_pages_path(sysfs_root, numa_node)),
                                              mapped_ / kHugePage, numa_node);
    void* p = MAP_FAILED;
    if (plan.hugetlb) {
      p = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
      if (p == MAP_FAILED) note_ = std::string("MAP_HUGETLB failed: ") + std::strerror(errno);
    }
    if (p != MAP_FAILED) {
      pages_ = "2 MiB huge pages";
    } else {
      if (note_.empty()) note_ = plan.note;
      p = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) {
        throw EnvironmentError("cannot map " + std::to_string(mapped_) +
                               " bytes of host memory: " + std::strerror(errno));
      }
      // No reserved huge pages: transparent ones, when the kernel's mode allows them.
      const std::string thp =
          thp_mode(host::read_sysfs_text(sysfs_root + "/kernel/mm/transparent_hugepage/enabled").value_or(""));
      if (thp == "never" || ::madvise(p, mapped_, MADV_HUGEPAGE) != 0) {
        pages_ = "4 KiB pages";
      } else {
        pages_ = "transparent huge pages" + (thp.empty() ? std::string() : " (THP " + thp + ")");
      }
    }
    data_ = p;
    if (numa_node >= 0 && numa_available() >= 0) {
      numa_tonode_memory(data_, mapped_, numa_node);
      node_ = numa_node;
    }
    std::memset(data_, 0, mapped_);  // place the pages now, not during the first transfer
    // The whole mapping: a hugetlb length that is not a multiple of 2 MiB fails registration
    // where fork-safe mode madvises the range (RDMAV_FORK_SAFE on kernels before 5.13).
    mr_ = rdma::reg_mr(pd, data_, mapped_, access);
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
           ", " + pages_ + (note_.empty() ? "" : " (" + note_ + ")");
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
  std::string note_;  // why not huge pages, when that was a surprise
  rdma::MemoryRegion mr_;
};

}  // namespace

HugePagePlan plan_huge_pages(std::optional<uint64_t> free_pages, size_t pages, int numa_node) {
  if (!free_pages || *free_pages == 0) return {};  // none reserved: the common case, no note
  if (*free_pages >= pages) return {true, ""};
  return {false, node_name(numa_node) + " has " + std::to_string(*free_pages) + " free 2 MiB huge pages, " +
                     std::to_string(pages) + " needed"};
}

std::string thp_mode(const std::string& enabled) {
  const auto open = enabled.find('[');
  const auto close = enabled.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return "";
  return enabled.substr(open + 1, close - open - 1);
}

std::string free_huge_pages_path(const std::string& sysfs_root, int numa_node) {
  const std::string dir = numa_node >= 0 ? "/devices/system/node/node" + std::to_string(numa_node) : "/kernel/mm";
  return sysfs_root + dir + "/hugepages/hugepages-2048kB/free_hugepages";
}

int rdma_device_numa_node(const std::string& device, const std::string& sysfs_root) {
  const auto text = host::read_sysfs_text(sysfs_root + "/class/infiniband/" + device + "/device/numa_node");
  if (!text || text->empty()) return -1;
  char* end = nullptr;
  const long node = std::strtol(text->c_str(), &end, 10);
  return *end == '\0' && node >= 0 ? static_cast<int>(node) : -1;
}

std::unique_ptr<PayloadMemory> make_host_memory(const rdma::ProtectionDomain& pd, size_t bytes, int numa_node,
                                                int access, const std::string& sysfs_root) {
  return std::make_unique<HostMemory>(pd, bytes, numa_node, access, sysfs_root);
}

}  // namespace ibburn::burn::verbs
