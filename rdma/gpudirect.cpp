#include "rdma/gpudirect.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "rdma/verbs_objects.h"

namespace ibburn::rdma {

const char* to_string(DmaBuf d) {
  switch (d) {
    case DmaBuf::Supported: return "supported";
    case DmaBuf::Unsupported: return "unsupported";
    case DmaBuf::Unknown: return "unknown";
  }
  return "unknown";
}

DmaBufResult probe_dmabuf(const VerbsApi& api, ibv_pd* pd, const std::string& device) {
  errno = 0;
  ibv_mr* mr = api.reg_dmabuf_mr(pd, 0, 0, 0, -1, 0);
  const int err = errno;
  if (mr != nullptr) {  // no stack accepts fd -1; do not leak it if one does
    api.dereg_mr(mr);
    return {DmaBuf::Unknown, "ibv_reg_dmabuf_mr accepted fd -1 on " + device};
  }
  if (err == EBADF) return {DmaBuf::Supported, "ibv_reg_dmabuf_mr on " + device + " reached the dma-buf fd"};
  const std::string why = "ibv_reg_dmabuf_mr on " + device + ": " + std::strerror(err);
  if (err == EOPNOTSUPP || err == EPROTONOSUPPORT) return {DmaBuf::Unsupported, why};
  return {DmaBuf::Unknown, why};
}

DmaBufResult probe_dmabuf(const VerbsApi& api, const std::string& device) {
  try {
    DeviceList list(api);
    Context ctx = open_context(api, list.find(device));
    ProtectionDomain pd = alloc_pd(ctx);
    return probe_dmabuf(api, pd.get(), device);
  } catch (const Error& e) {
    return {DmaBuf::Unknown, e.what()};
  }
}

std::vector<PeerMemoryModule> peer_memory_modules(const std::string& sysfs_root) {
  namespace fs = std::filesystem;
  std::vector<PeerMemoryModule> found;
  for (const auto& [name, rel] : {std::pair{"nv_mem", "/kernel/mm/memory_peers/nv_mem"},
                                  std::pair{"nv_mem_nc", "/kernel/mm/memory_peers/nv_mem_nc"},
                                  std::pair{"nvidia_peermem", "/module/nvidia_peermem"}}) {
    const std::string dir = sysfs_root + rel;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::string version;
    std::ifstream in(dir + "/version");
    if (!std::getline(in, version) || version.empty()) version = "loaded";
    found.push_back({name, dir, version});
  }
  return found;
}

}  // namespace ibburn::rdma
