#pragma once
// The two lists a site engineer acts on after a run (pure): hosts to take out of service
// (drain.txt) and cables to reseat, replace or recable (cables.csv), each with the evidence.
// Built from the job's findings in the common shape, whatever module found them.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "burn/summary.h"
#include "common/finding.h"
#include "wiring/wiring.h"

namespace ibburn::run {

struct DrainEntry {
  std::string host;
  std::string reason;  // the worst finding about the host, one line
  // What leaving it in service costs (price/pricing.h): "ring all-reduce, 512 hosts: 1.33x in
  // 12% of placements"; empty when nothing about it was priced.
  std::string cost{};
  double slowdown = 0;
};

struct CableAction {
  PortRef a, b;
  std::string label;     // the wiring list's cable label, when it has one
  std::string action;    // "recable", "replace" or "reseat"
  std::string evidence;  // the findings' kinds and messages, "; "-joined
  // Each end's module ("FS OSFP-SR8-800G SN G2430283435") when an ibdiagnet capture named it.
  std::string a_part, b_part;
  std::string cost{};  // as DrainEntry's
  double slowdown = 0;
};

// The priced findings' costs by cable (report::cable_name) and by host: the largest of each.
struct ServiceCosts {
  struct Cost {
    double slowdown = 0;
    std::string text;
  };
  std::map<std::string, Cost> by_cable, by_host;
  void add(std::map<std::string, Cost>& to, const std::string& key, double slowdown, const std::string& text);
};

// Costs onto a list, then the list costliest first (the rest keep their order).
void order_by_cost(std::vector<DrainEntry>& hosts, const ServiceCosts& costs);
void order_by_cost(std::vector<CableAction>& cables, const ServiceCosts& costs);

// The hosts the burn names by itself (refused by the preflight, lost ranks, endpoints slow or
// failed on their own, which no cable explains), and hosts of HCAs (node name -> host in
// `host_of_hca`) that a finding is about: a finding about an HCA port (its cable's errors, its link down,
// degraded or missing, a confident suspect cable at the HCA) drains the HCA's host.
std::vector<DrainEntry> hosts_to_drain(const std::vector<Finding>& findings,
                                       const std::map<std::string, std::string>& host_of_hca,
                                       const burn::BurnSummary& burn);

// One line per cable with physical evidence: topo (missing, miswired, swapped, port_down,
// degraded), errors under load, confident suspect cables; a finding about one port (a host
// port on a fabric with no subnet to discover: RoCE) is its line with the far end empty. Action: recable for wrong
// wiring, replace for a cable that already failed in the previous run (`failed_before`,
// named as history names cables: report::cable_name) or whose link went down under load, reseat otherwise.
std::vector<CableAction> cables_to_service(const std::vector<Finding>& findings, const wiring::Wiring* wiring,
                                           const std::set<std::string>& failed_before);

// drain.txt: "HOST<TAB>REASON" per line, "<TAB>cost: COST" after it when priced. cables.csv: a
// header, then one quoted CSV row per cable.
std::string drain_text(const std::vector<DrainEntry>& hosts);
std::string cables_csv(const std::vector<CableAction>& cables);

}  // namespace ibburn::run
