#pragma once
// Every kind of finding ibburn reports, declared once (docs/formats.md, "Finding kinds"): its
// name on disk, its severity, what it means for drain.txt and cables.csv, how the report's
// fabric map shows it. Producers and consumers name kinds by `FindingKind`, so a kind the
// catalogue does not declare cannot be written, and one read from a file is refused.
#include <iosfwd>
#include <optional>
#include <span>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace ibburn {

enum class Severity { Info = 0, Warning = 1, Error = 2, Critical = 3 };

// In the order of the catalogue's table (finding_catalogue.cpp), grouped by the module that finds them.
enum class FindingKind {
  // topo check (topo_check/)
  DuplicateName,
  DuplicateGuid,
  Missing,
  MissingNode,
  Miswired,
  Swapped,
  Extra,
  UnknownNode,
  PortDown,
  PortNotActive,
  Degraded,
  NoSm,
  Unreached,
  Split,
  // planes: several subnets, one per rail (topo_check/check_planes.h)
  PlaneMissing,
  PlanePrefix,
  PlaneAsymmetric,
  CrossPlane,
  // fabric audit (audit/)
  PkeyForeign,
  PkeyMissing,
  PkeyFullNotLimited,
  PkeyEnforcementOff,
  MkeyUnprotected,
  SmMasters,
  SmOutsidePolicy,
  SmEqualPriority,
  SmDefaultKey,
  SmList,
  MtuLow,
  VlsMixed,
  // routing validation (route_check/)
  CreditLoop,
  RouteUnreachable,
  RouteUnbalanced,
  RouteDownUp,
  RouteNotShortest,
  // counters (counters/)
  Errors,
  Saturated,
  Unreachable,
  Flapping,
  // switch and cable health (health/)
  FirmwareMixed,
  FirmwareUnpinned,
  SwitchHot,
  SwitchesHot,
  ModuleHot,
  ModulesHot,
  RackHot,
  RowHot,
  BerHigh,
  PortsBerHigh,
  SwitchFan,
  SwitchPsu,
  // host preflight (host/)
  NothingToCheck,
  KmsgUnreadable,
  PcieDegraded,
  PcieCapped,
  PcieLimitedAtBoot,
  AcsP2pRedirect,
  AcsUnreadable,
  NoPeerMemory,
  NoHca,
  GpuHcaDistance,
  GpuUnpaired,
  HcaUnpaired,
  HcaFirmware,
  HcaPortDown,
  HcaRate,
  HcaLinkLayer,
  GpuCount,
  HcaCount,
  MemlockLow,
  // the burn's preflight: a host finding of error or worse, as the burn summary tells it
  HostNothingToCheck,
  HostKmsgUnreadable,
  HostPcieDegraded,
  HostPcieCapped,
  HostPcieLimitedAtBoot,
  HostAcsP2pRedirect,
  HostAcsUnreadable,
  HostNoPeerMemory,
  HostNoHca,
  HostGpuHcaDistance,
  HostGpuUnpaired,
  HostHcaUnpaired,
  HostHcaFirmware,
  HostHcaPortDown,
  HostHcaRate,
  HostHcaLinkLayer,
  HostGpuCount,
  HostHcaCount,
  HostMemlockLow,
  HostCheckFailed,
  // the burn (burn/) and its localisation (plan/)
  SlowFlow,
  FailedFlow,
  SlowEndpoint,
  FailedEndpoint,
  SuspectEndpoint,
  LostRank,
  SuspectCable,
  // the job (run/)
  ErrorsUnderLoad,
  NotExercised,
  UnusedByRoutes,
  Untested,
  LinkDown,
  SwitchDropped,
  SwitchBounced,
  SmLost,
  DrainLimit,
  // the pricing (price/)
  SlowdownOverLimit,
  Systemic,
};

// What a finding asks of the cable between its two ports in cables.csv.
enum class CableService {
  None,     // not a cable's fault, or not one cable
  Reseat,   // reseat; replace when it failed in the previous run or its link went down under load
  Replace,  // its link went down: replace
  Recable,  // wired to the wrong port: recable
};

// How the report's fabric map colours the ports a finding names (report/fabric_map).
enum class MapMark { Errors, Unloaded, Slow, Degraded, Flapping, Miswired, Missing };

struct FindingKindInfo {
  FindingKind kind;
  const char* name;   // on disk: summary.json, --json findings, Prometheus's `kind` label, history
  Severity severity;  // the worst its producers give it (some grade it lower: `meaning` says when)
  // At `acts_from` or worse: drains the host of an HCA it names (drain.txt), and services the
  // cable between its two ports as `cable` says (cables.csv). Below it, it is told only.
  bool drains;
  CableService cable;
  Severity acts_from;
  bool stops_job;  // `ibburn run` stops before any traffic (--burn-anyway burns anyway)
  MapMark map;
  const char* meaning;
};

// The whole catalogue, in FindingKind order.
std::span<const FindingKindInfo> finding_catalogue();
const FindingKindInfo& info(FindingKind kind);
const char* to_string(FindingKind kind);
std::optional<FindingKind> finding_kind_from_string(std::string_view name);
// The burn summary's name for a host finding (pcie_degraded -> host_pcie_degraded); the kind
// itself when it is not a host check's.
FindingKind preflight_kind(FindingKind host_kind);

std::ostream& operator<<(std::ostream& os, FindingKind kind);
// JSON holds the name; reading an undeclared name throws std::invalid_argument naming it.
void to_json(nlohmann::json& j, FindingKind kind);
void from_json(const nlohmann::json& j, FindingKind& kind);

}  // namespace ibburn
