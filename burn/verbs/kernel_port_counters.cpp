#include "burn/verbs/kernel_port_counters.h"

#include <filesystem>
#include <system_error>

#include "host/sysfs_reader.h"

namespace ibburn::burn::verbs {

PortCounterValues read_kernel_port_counters(const std::string& device, int port, const std::string& sysfs_root) {
  namespace fs = std::filesystem;
  PortCounterValues values;
  const fs::path dir = fs::path(sysfs_root) / "class/infiniband" / device / "ports" / std::to_string(port);
  for (const char* group : {"counters", "hw_counters"}) {
    std::error_code ec;
    for (const auto& file : fs::directory_iterator(dir / group, ec)) {
      // hw_counters/lifespan is the driver's refresh period, not a count
      if (file.path().filename() == "lifespan") continue;
      if (const auto v = host::read_sysfs_number(file.path().string())) values[file.path().filename().string()] = *v;
    }
  }
  return values;
}

}  // namespace ibburn::burn::verbs
