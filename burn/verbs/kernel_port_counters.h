#pragma once
// The thin sysfs adapter behind a verbs rank's port counters (burn/port_counters.h).
#include <string>

#include "burn/port_counters.h"

namespace ibburn::burn::verbs {

// Every counter of <sysfs_root>/class/infiniband/<device>/ports/<port>/counters and
// hw_counters, by file name; a file that is not a number (or unreadable, as some need root)
// is left out, and a device without either directory gives none.
PortCounterValues read_kernel_port_counters(const std::string& device, int port,
                                            const std::string& sysfs_root = "/sys");

}  // namespace ibburn::burn::verbs
