#include "common/finding_catalogue.h"

#include <ostream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace ibburn {
namespace {

using K = FindingKind;
using S = Severity;
using C = CableService;
using M = MapMark;

// name, severity, drains, cables.csv, acts from, stops the job, fabric map, meaning.
// Most kinds drain the host of an HCA they name at warning or worse: those that do not are a
// fabric's cause (routes, one cause of many cables) or not certain enough to act on.
constexpr FindingKindInfo kCatalogue[] = {
    {K::DuplicateName, "duplicate_name", S::Error, true, C::None, S::Warning, false, M::Errors,
     "several discovered nodes carry one planned name; only the first is checked against the plan"},
    {K::DuplicateGuid, "duplicate_guid", S::Critical, true, C::None, S::Warning, false, M::Errors,
     "several discovered nodes share one node GUID"},
    {K::Missing, "missing", S::Error, true, C::Reseat, S::Warning, false, M::Missing,
     "a planned cable is absent: both of its planned ports are present and unconnected"},
    {K::MissingNode, "missing_node", S::Critical, true, C::None, S::Warning, false, M::Missing,
     "a planned node is not in the fabric although every planned neighbour was followed (error for a CA)"},
    {K::Miswired, "miswired", S::Error, true, C::Recable, S::Warning, false, M::Miswired,
     "planned A[p] - B[q], found A[p] - C[r]"},
    {K::Swapped, "swapped", S::Error, true, C::Recable, S::Warning, false, M::Miswired,
     "two planned cables found with their ends exchanged: the two plugs to swap"},
    {K::Extra, "extra", S::Warning, true, C::None, S::Warning, false, M::Errors,
     "a cable between two planned nodes on ports the plan leaves free"},
    {K::UnknownNode, "unknown_node", S::Error, true, C::None, S::Warning, false, M::Errors,
     "a discovered node that is not in the plan (warning for a CA)"},
    {K::PortDown, "port_down", S::Error, true, C::Reseat, S::Warning, false, M::Flapping,
     "a planned cable is connected but a port is physically down"},
    {K::PortNotActive, "port_not_active", S::Warning, true, C::None, S::Warning, false, M::Errors,
     "a planned cable is physically up but a port is not Active while the rest of its island is"},
    {K::Degraded, "degraded", S::Error, true, C::Reseat, S::Warning, false, M::Degraded,
     "the link runs below the plan's rate (warning: below what both ends support, the plan giving none)"},
    {K::NoSm, "no_sm", S::Error, true, C::None, S::Warning, true, M::Errors,
     "an island most of whose ports are up but not Active: no subnet manager serves it"},
    {K::Unreached, "unreached", S::Error, true, C::None, S::Warning, true, M::Errors,
     "planned nodes no snapshot reached, with no sign that they are absent"},
    {K::Split, "split", S::Critical, true, C::None, S::Warning, true, M::Errors,
     "the planned fabric came out as several disjoint islands"},
    {K::PlaneMissing, "plane_missing", S::Critical, false, C::None, S::Warning, false, M::Missing,
     "a plane of the design was not discovered, or lost its subnet manager: its rail is unchecked or unserved"},
    {K::PlanePrefix, "plane_prefix", S::Error, false, C::None, S::Warning, false, M::Errors,
     "two planes carry one subnet prefix: their port GIDs are not unique across the cluster"},
    {K::PlaneAsymmetric, "plane_asymmetric", S::Error, false, C::None, S::Warning, false, M::Errors,
     "a plane differs from the others of its design (switches, cables up, link rates): its rail is the slowest"},
    {K::CrossPlane, "cross_plane", S::Error, true, C::Recable, S::Warning, false, M::Miswired,
     "a cable landed in another plane than the design puts it in: the host port, the switch port it reached, both "
     "planes"},
    {K::PkeyForeign, "pkey_foreign", S::Error, false, C::None, S::Warning, false, M::Errors,
     "HCA ports holding the P_Key of a partition partitions.conf does not make them members of, or of none it declares "
     "(one finding per P_Key entry)"},
    {K::PkeyMissing, "pkey_missing", S::Error, false, C::None, S::Warning, false, M::Errors,
     "HCA ports lacking a P_Key entry partitions.conf gives them: not in the partition, or limited where they should "
     "be full (one finding per entry)"},
    {K::PkeyFullNotLimited, "pkey_full_not_limited", S::Error, false, C::None, S::Warning, false, M::Errors,
     "HCA ports that are full members of a partition partitions.conf makes them limited members of: a limited member "
     "can be reached by full members only (one finding per partition)"},
    {K::PkeyEnforcementOff, "pkey_enforcement_off", S::Warning, false, C::None, S::Warning, false, M::Errors,
     "switch ports facing hosts that leave partition enforcement off (inbound, outbound or both) while partitions are "
     "in use: one finding for each"},
    {K::MkeyUnprotected, "mkey_unprotected", S::Error, false, C::None, S::Warning, false, M::Errors,
     "the site requires M_Keys: ports whose M_Key is 0 or unprotected, one finding per switch kind and one for the "
     "HCAs"},
    {K::SmMasters, "sm_masters", S::Error, false, C::None, S::Warning, false, M::Errors,
     "more than one master subnet manager answers"},
    {K::SmOutsidePolicy, "sm_outside_policy", S::Error, false, C::None, S::Warning, false, M::Errors,
     "a subnet manager answers on a host that is not one of the site's SM hosts"},
    {K::SmEqualPriority, "sm_equal_priority", S::Warning, false, C::None, S::Warning, false, M::Errors,
     "a standby subnet manager has its master's priority: they fight over mastership when the master restarts"},
    {K::SmDefaultKey, "sm_default_key", S::Warning, false, C::None, S::Warning, false, M::Errors,
     "subnet managers whose SM_Key is left at 0 (one finding)"},
    {K::SmList, "sm_list", S::Info, false, C::None, S::Warning, false, M::Errors,
     "every subnet manager that answered, with its GUID, host, priority and state"},
    {K::MtuLow, "mtu_low", S::Error, false, C::None, S::Warning, false, M::Errors,
     "links whose active MTU is below the site's (warning: below what both ends support), one finding per tier pair "
     "and MTU"},
    {K::VlsMixed, "vls_mixed", S::Warning, false, C::None, S::Warning, false, M::Errors,
     "ports of one tier run different numbers of operational VLs (one finding per tier)"},
    {K::CreditLoop, "credit_loop", S::Critical, false, C::None, S::Warning, true, M::Errors,
     "the programmed routes close a cycle in the channel dependency graph of one VL: the fabric can deadlock under "
     "load (one finding per cycle, its cables in order and a route that closes it)"},
    {K::RouteUnreachable, "route_unreachable", S::Error, false, C::None, S::Warning, false, M::Errors,
     "a switch's forwarding table has no entry for an HCA's LID, or its route loops or ends at another port (one "
     "finding per switch)"},
    {K::RouteUnbalanced, "route_unbalanced", S::Warning, false, C::None, S::Warning, false, M::Slow,
     "ports a switch should load alike carry destinations past --balance-ratio (max over min): all-to-all runs at "
     "the group's mean over its max"},
    {K::RouteDownUp, "route_down_up", S::Warning, false, C::None, S::Warning, false, M::Miswired,
     "on a tree, routes that come down into a switch and go up again: a detour that opens credit loops (one finding "
     "per turning switch)"},
    {K::RouteNotShortest, "route_not_shortest", S::Warning, false, C::None, S::Warning, false, M::Errors,
     "on a tree, a switch that routes destinations over a next hop no closer to them than itself (one finding per "
     "switch)"},
    {K::Errors, "errors", S::Error, true, C::None, S::Warning, false, M::Errors,
     "an error counter above its threshold (with a baseline: its rise since)"},
    {K::Saturated, "saturated", S::Warning, true, C::None, S::Warning, false, M::Errors,
     "a counter pinned at the maximum of its width: it stopped counting"},
    {K::Unreachable, "unreachable", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the port's PMA did not answer after the retries (or no LID is known)"},
    {K::Flapping, "flapping", S::Error, true, C::None, S::Warning, false, M::Flapping,
     "counters watch: the link went down and came back"},
    {K::FirmwareMixed, "firmware_mixed", S::Error, true, C::None, S::Warning, false, M::Errors,
     "switches or HCAs of one model run different firmware (an update that reached only part)"},
    {K::FirmwareUnpinned, "firmware_unpinned", S::Warning, true, C::None, S::Warning, false, M::Errors,
     "a model runs firmware other than the version pinned for it"},
    {K::SwitchHot, "switch_hot", S::Critical, true, C::None, S::Warning, false, M::Errors,
     "a switch ASIC above its hot (warning) or alarm (critical) temperature"},
    {K::SwitchesHot, "switches_hot", S::Critical, true, C::None, S::Warning, false, M::Errors,
     "most switches hot at once: the room, told once, with every switch in its details"},
    {K::ModuleHot, "module_hot", S::Critical, true, C::None, S::Warning, false, M::Errors,
     "a cable module above its warning or alarm temperature"},
    {K::ModulesHot, "modules_hot", S::Critical, true, C::None, S::Warning, false, M::Errors,
     "most cable modules hot at once: the room, told once"},
    {K::RackHot, "rack_hot", S::Error, true, C::None, S::Warning, false, M::Errors,
     "every switch of one rack hot (its place from the switches' names): that rack's cooling, told once"},
    {K::RowHot, "row_hot", S::Error, true, C::None, S::Warning, false, M::Errors,
     "every switch of one row hot: that row's cooling, told once, before its racks"},
    {K::BerHigh, "ber_high", S::Error, true, C::Reseat, S::Warning, false, M::Errors,
     "a cable's effective or symbol BER above 1e-12 (error), or its raw BER above 2.4e-4 (warning)"},
    {K::PortsBerHigh, "ports_ber_high", S::Error, true, C::None, S::Warning, false, M::Errors,
     "most ports' BER high at once: one cause, told once, with every port in its details"},
    {K::SwitchFan, "switch_fan", S::Error, true, C::None, S::Warning, false, M::Errors,
     "a switch fan failed or reports no speed"},
    {K::SwitchPsu, "switch_psu", S::Error, true, C::None, S::Warning, false, M::Errors,
     "a switch power supply failed (or its fan did)"},
    {K::NothingToCheck, "nothing_to_check", S::Info, true, C::None, S::Warning, false, M::Errors,
     "host check: neither GPU nor HCA"},
    {K::KmsgUnreadable, "kmsg_unreadable", S::Info, true, C::None, S::Warning, false, M::Errors,
     "host check: /dev/kmsg could not be read; sysfs is still checked"},
    {K::PcieDegraded, "pcie_degraded", S::Error, true, C::None, S::Warning, false, M::Errors,
     "a PCIe link on a GPU/HCA path runs below what both ends support (warning: an idle GPU's speed)"},
    {K::PcieCapped, "pcie_capped", S::Warning, true, C::None, S::Warning, false, M::Errors,
     "a PCIe link runs at what its upstream port allows, below the device's own maximum"},
    {K::PcieLimitedAtBoot, "pcie_limited_at_boot", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the kernel logged a device's PCIe bandwidth limited by a link (info: not a GPU or HCA path)"},
    {K::AcsP2pRedirect, "acs_p2p_redirect", S::Error, true, C::None, S::Warning, false, M::Errors,
     "a bridge between a GPU and its HCA redirects peer-to-peer traffic (ACS)"},
    {K::AcsUnreadable, "acs_unreadable", S::Warning, true, C::None, S::Warning, false, M::Errors,
     "bridges whose config space was too short to tell ACS (run as root)"},
    {K::NoPeerMemory, "no_peer_memory", S::Error, true, C::None, S::Warning, false, M::Errors,
     "GPUs and HCAs but no peer-memory module and no dma-buf support"},
    {K::NoHca, "no_hca", S::Error, true, C::None, S::Warning, false, M::Errors, "GPUs but no HCA"},
    {K::GpuHcaDistance, "gpu_hca_distance", S::Error, true, C::None, S::Warning, false, M::Errors,
     "a GPU-HCA pair farther apart than the allowed PCIe distance"},
    {K::GpuUnpaired, "gpu_unpaired", S::Warning, true, C::None, S::Warning, false, M::Errors,
     "a GPU with no HCA left to pair with"},
    {K::HcaUnpaired, "hca_unpaired", S::Warning, true, C::None, S::Warning, false, M::Errors,
     "an HCA with no GPU left to pair with"},
    {K::HcaFirmware, "hca_firmware", S::Error, true, C::None, S::Warning, false, M::Errors,
     "an HCA's firmware differs from the expected one, or from the one most HCAs run"},
    {K::HcaPortDown, "hca_port_down", S::Error, true, C::None, S::Warning, false, M::Errors,
     "an HCA port not ACTIVE or not LinkUp"},
    {K::HcaRate, "hca_rate", S::Error, true, C::None, S::Warning, false, M::Errors,
     "an HCA port's rate differs from the expected one (warning: from the most common one)"},
    {K::HcaLinkLayer, "hca_link_layer", S::Error, true, C::None, S::Warning, false, M::Errors,
     "an HCA port's link layer differs from the expected one"},
    {K::GpuCount, "gpu_count", S::Error, true, C::None, S::Warning, false, M::Errors,
     "fewer or more GPUs than expected"},
    {K::HcaCount, "hca_count", S::Error, true, C::None, S::Warning, false, M::Errors,
     "fewer or more HCAs than expected"},
    {K::MemlockLow, "memlock_low", S::Error, true, C::None, S::Warning, false, M::Errors,
     "RLIMIT_MEMLOCK below what a verbs burn rank pins (warning: below a default, that being unknown)"},
    {K::HostNothingToCheck, "host_nothing_to_check", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: nothing_to_check"},
    {K::HostKmsgUnreadable, "host_kmsg_unreadable", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: kmsg_unreadable"},
    {K::HostPcieDegraded, "host_pcie_degraded", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: pcie_degraded"},
    {K::HostPcieCapped, "host_pcie_capped", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: pcie_capped"},
    {K::HostPcieLimitedAtBoot, "host_pcie_limited_at_boot", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: pcie_limited_at_boot"},
    {K::HostAcsP2pRedirect, "host_acs_p2p_redirect", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: acs_p2p_redirect"},
    {K::HostAcsUnreadable, "host_acs_unreadable", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: acs_unreadable"},
    {K::HostNoPeerMemory, "host_no_peer_memory", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: no_peer_memory"},
    {K::HostNoHca, "host_no_hca", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: no_hca"},
    {K::HostGpuHcaDistance, "host_gpu_hca_distance", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: gpu_hca_distance"},
    {K::HostGpuUnpaired, "host_gpu_unpaired", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: gpu_unpaired"},
    {K::HostHcaUnpaired, "host_hca_unpaired", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: hca_unpaired"},
    {K::HostHcaFirmware, "host_hca_firmware", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: hca_firmware"},
    {K::HostHcaPortDown, "host_hca_port_down", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: hca_port_down"},
    {K::HostHcaRate, "host_hca_rate", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: hca_rate"},
    {K::HostHcaLinkLayer, "host_hca_link_layer", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: hca_link_layer"},
    {K::HostGpuCount, "host_gpu_count", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: gpu_count"},
    {K::HostHcaCount, "host_hca_count", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: hca_count"},
    {K::HostMemlockLow, "host_memlock_low", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight on a host: memlock_low"},
    {K::HostCheckFailed, "host_check_failed", S::Error, true, C::None, S::Warning, false, M::Errors,
     "the burn's preflight could not check a host (warning with --force)"},
    {K::SlowFlow, "slow_flow", S::Error, true, C::None, S::Warning, false, M::Slow,
     "a burn flow below its share of line rate"},
    {K::FailedFlow, "failed_flow", S::Error, true, C::None, S::Warning, false, M::Errors,
     "a burn flow that failed (a transport error, data that did not verify)"},
    {K::SlowEndpoint, "slow_endpoint", S::Error, true, C::Reseat, S::Warning, false, M::Slow,
     "an endpoint slow in every direction, which no fabric cable explains: its host cable (reseat, then replace) or "
     "the HCA and host behind it (drained)"},
    {K::FailedEndpoint, "failed_endpoint", S::Error, true, C::Reseat, S::Warning, false, M::Errors,
     "an endpoint whose flows failed: its host cable (reseat, then replace) or the HCA and host behind it (drained)"},
    {K::SuspectEndpoint, "suspect_endpoint", S::Warning, false, C::None, S::Warning, false, M::Slow,
     "an endpoint in some slow flows: it or a cable on their paths"},
    {K::LostRank, "lost_rank", S::Error, true, C::None, S::Warning, false, M::Errors,
     "a burn rank that died or stopped answering"},
    {K::SuspectCable, "suspect_cable", S::Error, true, C::Reseat, S::Error, false, M::Slow,
     "the cable that explains the slow flows (error when confident; a warning while ambiguous acts on nothing)"},
    {K::ErrorsUnderLoad, "errors_under_load", S::Error, true, C::Reseat, S::Warning, false, M::Errors,
     "a port's error counters rose during a burn stage"},
    {K::NotExercised, "not_exercised", S::Error, false, C::None, S::Warning, false, M::Unloaded,
     "a cable the plan loads that the switches' data counters say carried too little"},
    {K::UnusedByRoutes, "unused_by_routes", S::Info, false, C::None, S::Warning, false, M::Unloaded,
     "cables no route of the plan crosses"},
    {K::Untested, "untested", S::Info, false, C::None, S::Warning, false, M::Unloaded,
     "cables and switches a partial allocation left unloaded: their hosts were not in the job (one finding)"},
    {K::LinkDown, "link_down", S::Error, true, C::Replace, S::Warning, false, M::Flapping,
     "a link that was up before stage 1 went down during the burn"},
    {K::SwitchDropped, "switch_dropped", S::Error, true, C::None, S::Warning, false, M::Flapping,
     "a switch none of whose ports answer any more"},
    {K::SwitchBounced, "switch_bounced", S::Error, false, C::None, S::Warning, false, M::Flapping,
     "many links of one switch went down (and came back) at once during a stage: the switch (reboot, power, "
     "firmware), not its cables (one finding with the count)"},
    {K::SmLost, "sm_lost", S::Warning, true, C::None, S::Warning, false, M::Errors,
     "the master subnet manager that answered before stage 1 no longer does"},
    {K::DrainLimit, "drain_limit", S::Error, true, C::None, S::Warning, false, M::Errors,
     "more hosts would drain than --max-drain allows: none are drained"},
    {K::SlowdownOverLimit, "slowdown_over_limit", S::Error, false, C::None, S::Warning, false, M::Errors,
     "the fabric as measured slows a collective at a job size past --max-slowdown: the no-go, with the costliest "
     "repairs (docs/price.md)"},
    {K::Systemic, "systemic", S::Critical, false, C::None, S::Warning, false, M::Errors,
     "most cables of one scope differ the same way: one finding, at its cables' severity"},
};

constexpr bool in_enum_order() {
  for (size_t i = 0; i < std::size(kCatalogue); ++i)
    if (static_cast<size_t>(kCatalogue[i].kind) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kCatalogue lists every FindingKind once, in enum order");
static_assert(std::size(kCatalogue) == static_cast<size_t>(FindingKind::Systemic) + 1, "a FindingKind has no row");

}  // namespace

std::span<const FindingKindInfo> finding_catalogue() { return kCatalogue; }

const FindingKindInfo& info(FindingKind kind) { return kCatalogue[static_cast<size_t>(kind)]; }

const char* to_string(FindingKind kind) { return info(kind).name; }

std::optional<FindingKind> finding_kind_from_string(std::string_view name) {
  for (const auto& row : kCatalogue)
    if (name == row.name) return row.kind;
  return std::nullopt;
}

FindingKind preflight_kind(FindingKind host_kind) {
  const auto& row = info(host_kind);
  if (row.kind < K::NothingToCheck || row.kind > K::MemlockLow) return host_kind;
  return *finding_kind_from_string(std::string("host_") + row.name);  // a test proves every one exists
}

std::ostream& operator<<(std::ostream& os, FindingKind kind) { return os << to_string(kind); }

void to_json(nlohmann::json& j, FindingKind kind) { j = to_string(kind); }

void from_json(const nlohmann::json& j, FindingKind& kind) {
  const auto& name = j.get_ref<const std::string&>();
  auto k = finding_kind_from_string(name);
  if (!k) throw std::invalid_argument("unknown finding kind '" + name + "'");
  kind = *k;
}

}  // namespace ibburn
