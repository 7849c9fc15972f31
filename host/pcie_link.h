#pragma once
// PCIe link speed and width as sysfs spells them ("32.0 GT/s PCIe", "16"). Pure, no I/O.
#include <optional>
#include <string>

namespace ibburn::host {

// "32.0 GT/s PCIe", "8 GT/s", "2.5 GT/s PCIe" -> GT/s; nullopt for "Unknown" or garbage.
std::optional<double> parse_pcie_speed(const std::string& text);
// "16" -> 16; nullopt for 0 (link down), empty or garbage.
std::optional<int> parse_pcie_width(const std::string& text);
// 32.0 -> "Gen5"; "" when the rate is no PCIe generation.
std::string pcie_generation(double gts);
// 32.0, 16 -> "32.0 GT/s x16 (Gen5)"; parts that are unknown print as "?".
std::string describe_link(std::optional<double> gts, std::optional<int> width);

}  // namespace ibburn::host
