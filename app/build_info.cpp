#include "app/build_info.h"

namespace ibburn::app {

std::string version_text(const BuildInfo& info) {
  std::string cuda = *info.cuda ? std::string(info.cuda) + " (GPU buffers, GPUDirect RDMA by dma-buf or peer memory)"
                                : "no (built without it: the verbs transport sends from host memory)";
  return std::string("ibburn ") + info.version + "\ncommit: " + info.commit + "\nverbs: libibverbs " + info.verbs +
         "\nCUDA: " + cuda;
}

}  // namespace ibburn::app
