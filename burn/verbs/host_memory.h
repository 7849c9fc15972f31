#pragma once
// How host payload memory is paged, decided from sysfs before anything is mapped: 2 MiB
// hugetlb pages only when the HCA's NUMA node has enough of them free (a short node makes
// the first touch SIGBUS, because the reservation at mmap is checked against the task's
// policy, not the later mbind), and the THP label from the kernel's mode, not from madvise
// (which succeeds even when THP is off).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace ibburn::burn::verbs {

struct HugePagePlan {
  bool hugetlb = false;
  std::string note;  // why not, when the node has some huge pages but too few; else empty
};

// Pure: `pages` 2 MiB pages wanted, `free_pages` free on the node (nullopt: unreadable).
HugePagePlan plan_huge_pages(std::optional<uint64_t> free_pages, size_t pages, int numa_node);

// Pure: the selected mode of /sys/kernel/mm/transparent_hugepage/enabled ("always [madvise]
// never" -> "madvise"); empty when there is none.
std::string thp_mode(const std::string& enabled);

// <root>/devices/system/node/node<N>/hugepages/hugepages-2048kB/free_hugepages, or the
// system-wide count under <root>/kernel/mm/hugepages when the node is unknown (-1).
std::string free_huge_pages_path(const std::string& sysfs_root, int numa_node);

}  // namespace ibburn::burn::verbs
