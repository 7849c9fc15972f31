#pragma once
// The thin sysfs adapter: reads GPUs, HCAs, the PCIe bridges above them and the peer-memory
// modules from a sysfs tree (the live /sys, or a fixture laid out the same way).
#include <cstdint>
#include <optional>
#include <string>

#include "host/inventory.h"

namespace ibburn::host {

// Reads <root>/bus/pci/devices (symlinks into <root>/devices/pci*/...), <root>/class/infiniband
// (each <dev>/device links to its PCI function), <root>/kernel/mm/memory_peers and
// <root>/module. Missing files leave fields unknown; nothing here throws for a missing GPU or
// HCA. Throws InputError when <root> itself does not exist. Leaves dmabuf and kmsg alone.
HostInventory read_inventory(const std::string& root);

// One sysfs attribute (the live /sys or a fixture tree, by full path) without its trailing
// newline; nullopt when it cannot be read. Every module reads sysfs through these two.
std::optional<std::string> read_sysfs_text(const std::string& path);
// A decimal attribute (a port counter, free_hugepages); nullopt when absent or not a number.
std::optional<uint64_t> read_sysfs_number(const std::string& path);

}  // namespace ibburn::host
