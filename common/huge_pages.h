#pragma once
// Asking the kernel for transparent huge pages on a large buffer before it is first written.
// On the VMs ibburn is measured on a first-touch page fault costs ~10-15 us, so a 49 MB
// document read into 4 KiB pages spends more time faulting than parsing (docs/benchmarks.md).
#include <cstddef>

namespace ibburn {

// Buffers smaller than this are left alone: a huge page would cost more than it saves.
inline constexpr std::size_t kHugePageWorthy = std::size_t{4} << 20;

// Advises MADV_HUGEPAGE on the whole pages inside [data, data + size) when size is at least
// kHugePageWorthy. Only advice: where the kernel has THP off, or the advice fails, the buffer
// simply keeps its small pages.
void advise_huge_pages(void* data, std::size_t size);

}  // namespace ibburn
