#include "run/fabric_steps.h"

#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_io.h"
#include "counters/snapshot_json.h"
#include "host/sysfs_reader.h"
#include "price/price_command.h"
#include "run/job_allocation.h"
#include "slurm/scontrol.h"
#include "topo_check/topo_check.h"
#include "wiring/cable_scopes.h"

namespace ibburn::run {

std::optional<std::string> without_subnet(const topo::FabricSource& source, burn::TransportKind transport,
                                          const std::vector<host::Hca>& hcas) {
  if (source.is_none()) return "--fabric none";
  if (!source.is_live() || transport == burn::TransportKind::Sim) return std::nullopt;
  std::string ethernet;
  size_t ports = 0;
  for (const auto& h : hcas) {
    if (!source.live.mad.ca.empty() && h.name != source.live.mad.ca) continue;
    for (const auto& p : h.ports) {
      ++ports;
      if (p.link_layer != "Ethernet") return std::nullopt;  // InfiniBand (or unknown): discover
      if (ethernet.empty()) ethernet = fmt::format("{}:{}", h.name, p.number);
    }
  }
  // No device at all says nothing (a simulated fabric's hosts have none): discovery tells.
  if (ports == 0) return std::nullopt;
  return fmt::format(
      "a RoCE fabric has no subnet management packets ({} of this host's RDMA port(s) are Ethernet, "
      "{} the first)",
      ports == 1 ? std::string("the one") : "all " + std::to_string(ports), ethernet);
}

std::string TopoStep::run(JobState& job) {
  if (!job.source.is_live() && !job.source.is_none()) return load(job);
  std::vector<host::Hca> hcas;
  if (!job.source.is_none()) {
    host::HostInventory inv = host::read_inventory("/sys");
    hcas = inv.hcas;
    hcas.insert(hcas.end(), inv.soft_hcas.begin(), inv.soft_hcas.end());
  }
  job.no_subnet = without_subnet(job.source, job.o.burn.transport, hcas);
  if (!job.no_subnet) return load(job);
  if (job.wiring) job.scopes = wiring::cable_scopes(*job.wiring);
  return "skipped: " + *job.no_subnet + (job.wiring ? " (--wiring names the cables, unchecked)" : "");
}

std::string TopoStep::load(JobState& job) {
  job.say(std::string("topo: ") + (job.source.is_live() ? "discovering the fabric" : "loading the fabric"));
  job.fabric = job.source.load();
  if (job.wiring) {
    job.topo_findings = topo_check::check_topology(*job.fabric, *job.wiring, job.source.vantage_points()).findings;
    job.write_topo();
    print_summary(std::cerr, "run: topo check", job.topo_findings, 5);
  }
  job.scopes = job.wiring ? wiring::cable_scopes(*job.wiring) : wiring::cable_scopes(*job.fabric);
  if (!job.wiring) return "skipped: no --wiring";
  return job.topo_findings.empty() ? "ok" : "findings";
}

const Finding* stopping_cause(const JobState& job) {
  if (job.o.burn_anyway) return nullptr;
  for (const auto& f : job.topo_findings)
    if (info(f.kind).stops_job) return &f;
  return nullptr;
}

std::string AuditStep::run(JobState& job) {
  if (job.no_subnet) return "skipped: " + *job.no_subnet;
  if (!job.source.is_live()) return "skipped: the fabric came from files (the audit reads live SMPs)";
  std::vector<std::string> notes;
  auto found = audit::audit_fabric(*job.fabric, job.source.live.mad, job.policy, notes);
  for (const auto& n : notes) job.say("audit: not answered: " + n);
  print_summary(std::cerr, "run: topo audit", found, 5);
  job.topo_findings.insert(job.topo_findings.end(), found.begin(), found.end());
  job.write_topo();
  return found.empty() ? "ok" : fmt::format("{} finding(s)", found.size());
}

namespace {

// ibsim trains every link whose file gives no rate at 4X SDR: a simulated burn over such a
// file (ibsim's own net-examples) models the links the live simulator of it would have.
constexpr topo::LinkRate kIbsimRate{topo::Width::X4, topo::Speed::SDR};

size_t simulate_unknown_rates(topo::Fabric& fabric) {
  size_t filled = 0;
  for (topo::NodeId n = 0; n < fabric.size(); ++n)
    for (topo::Port& p : fabric.node(n).ports) {
      if (!p.linked() || p.active.known()) continue;
      if (p.active.width == topo::Width::Unknown) p.active.width = kIbsimRate.width;
      if (p.active.speed == topo::Speed::Unknown) p.active.speed = kIbsimRate.speed;
      ++filled;
    }
  return filled;
}

}  // namespace

std::string RoutesStep::run(JobState& job) {
  if (job.no_subnet) return "skipped: " + *job.no_subnet;
  if (job.o.burn.transport == burn::TransportKind::Sim && !job.source.is_live())
    if (const size_t filled = simulate_unknown_rates(*job.fabric))
      job.say(fmt::format("routes: {} port(s) of {} carry no rate: simulated at {}, as ibsim trains them", filled,
                          job.source.name(), topo::to_string(kIbsimRate)));
  job.model = routing::make_route_model(std::move(*job.fabric), job.o.routes.routes);
  job.fabric.reset();
  for (topo::NodeId n = 0; n < job.model->fabric.nodes().size(); ++n) {
    const topo::Node& node = job.model->fabric.node(n);
    if (node.is_ca()) job.host_of_hca[node.name] = node.description.substr(0, node.description.find(' '));
  }
  job.price_options.job_sizes = job.o.job_sizes;
  if (!job.o.max_slowdown.empty())
    job.price_options.max_slowdown = price::parse_slowdown_limit(job.o.max_slowdown, "--max-slowdown");
  job.price_fabric = std::make_unique<price::PriceFabric>(job.model->fabric, *job.model->cables, *job.model->router,
                                                          job.o.routes.routes.routing == "adaptive");
  price::parse_job_sizes(job.o.job_sizes, price::slurm_layout(*job.price_fabric), "--job-sizes");
  return job.o.routes.routes.routing;
}

std::string RouteCheckStep::run(JobState& job) {
  if (job.no_subnet) return "skipped: " + *job.no_subnet;
  if (!job.model->lfts) return "skipped: adaptive routing over files has no forwarding tables to judge";
  std::stringstream notes;
  const route_check::RouteCheck check = route_check::judge_routes(
      job.model->fabric, *job.model->cables, *job.model->lfts, job.source, job.o.route_vls, job.o.route_check, notes);
  for (std::string line; std::getline(notes, line);) job.say(line);
  job.say("route check: " + route_check::describe(check));
  print_summary(std::cerr, "run: route check", check.findings, 5);
  job.topo_findings.insert(job.topo_findings.end(), check.findings.begin(), check.findings.end());
  job.write_topo();
  return check.findings.empty() ? "ok" : fmt::format("{} finding(s)", check.findings.size());
}

namespace {

// --allocation (sim): only the HCA ports of the job's hosts stay endpoints.
void allocate(JobState& job) {
  const std::string& given = job.o.allocation;
  std::set<std::string> fabric_hosts;
  std::vector<std::string> host_list;
  for (const auto& [hca, host] : job.host_of_hca)
    if (fabric_hosts.insert(host).second) host_list.push_back(host);
  const AllocationRequest request =
      parse_allocation(given, given.starts_with("@") ? read_file(given.substr(1)) : std::string());
  Allocation a;
  if (request.from_slurm) {
    const slurm::SlurmJob slurm_job = slurm::read_slurm_job();
    const auto& map_file = job.o.slurm.node_map;
    const auto node_map = map_file.empty() ? std::map<std::string, std::string>{}
                                           : slurm::parse_slurm_node_map(read_file(map_file), map_file);
    a = allocation_from_slurm(slurm_job.allocated, host_list, slurm_job.nodes, node_map);
    for (const auto& n : a.nodes_without_host)
      job.say("allocation: Slurm node " + n + " has no host in the fabric (no HCA's node description names it)");
    job.allocation_source = "slurm";
  } else {
    a = allocation_from_list(request.hosts, fabric_hosts, given.starts_with("@") ? given.substr(1) : "--allocation");
    job.allocation_source = "list";
  }
  std::erase_if(job.endpoints.ports, [&](const topo::PortEnd& p) {
    const auto it = job.host_of_hca.find(job.model->fabric.node(p.node).name);
    return it == job.host_of_hca.end() || !a.hosts.contains(it->second);
  });
  if (job.endpoints.ports.empty())
    throw InputError(
        "--allocation", 0,
        fmt::format("none of the {} allocated host(s) has an HCA port among the endpoints", a.hosts.size()));
}

}  // namespace

std::string EndpointsStep::run(JobState& job) {
  if (job.no_subnet) return "skipped: the ranks' own ports are the endpoints";
  job.endpoints = plan::load_endpoints(job.o.routes.endpoints, job.model->fabric);
  if (!job.o.allocation.empty()) allocate(job);
  job.given_guids = plan::given_port_guids(job.endpoints, job.model->fabric);
  job.localizer = std::make_unique<localization::RouteExplainer>(job.model, job.o.routes.probes, job.given_guids);
  return fmt::format("{} HCA port(s){}", job.endpoints.ports.size(),
                     job.o.allocation.empty() ? "" : " of the allocation (" + job.allocation_source + ")");
}

std::string CountersStep::run(JobState& job) {
  if (job.no_subnet) return "skipped: no switch to sweep; the burn reads each host port's own counters";
  if (!job.source.is_live()) return "skipped: the fabric came from files (counters need --fabric live)";
  counters::SweepOptions so;
  so.extended = true;
  so.port_state = true;  // a cable down between two switches that both still answer
  job.sweeper = std::make_unique<counters::Sweeper>(job.model->fabric, job.source.live.mad, so);
  job.last = job.sweeper->sweep();
  job.topology = std::make_unique<TopologyWatch>(*job.last);
  job.sm = std::make_unique<SmWatch>(topo::probe_master_sm(job.sweeper->mad_window()));
  write_file_atomic(job.dir + "/counters-before.json", counters::snapshot_json_text(*job.last));
  job.write_counters();
  return fmt::format("ok: {} ports", job.last->ports.size());
}

}  // namespace ibburn::run
