#include "run/run_command.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "burn/verdict.h"
#include "topo_check/topo_check.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "common/finding.h"
#include "common/interrupt.h"
#include "counters/counter_delta.h"
#include "counters/snapshot_json.h"
#include "counters/sweep.h"
#include "localization/burn_localize.h"
#include "localization/suspect_cable_details.h"
#include "plan/plan_output.h"
#include "planner/planner.h"
#include "burn/ring_pattern.h"
#include "fluid/simulated_burn.h"
#include "price/pricing.h"
#include "price/price_command.h"
#include "report/history.h"
#include "report/report_command.h"
#include "report/run_data.h"
#include "run/counter_evidence.h"
#include "run/drain_guard.h"
#include "run/counter_localization.h"
#include "run/health_evidence.h"
#include "run/job_allocation.h"
#include "run/job_scope.h"
#include "run/link_state_poll.h"
#include "run/modelled_counters.h"
#include "run/service_actions.h"
#include "run/sim_counters.h"
#include "slurm/scontrol.h"
#include "run/sm_watch.h"
#include "run/topology_change.h"
#include "wiring/cable_scopes.h"
#include "wiring/wiring.h"

namespace ibburn::run {
namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// Links that go down and come back within a stage are seen by polls this often (or less, on a
// fabric whose poll takes longer: run/link_state_poll.h).
constexpr std::chrono::milliseconds kLinkStatePollInterval{1000};

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// drain.txt's hosts as Slurm drains them.
std::vector<slurm::Drain> slurm_drains(const std::vector<DrainEntry>& hosts) {
  std::vector<slurm::Drain> out;
  for (const auto& h : hosts) out.push_back({h.host, h.reason});
  return out;
}

// A fabric in parts: burning what the vantage point sees would certify a fraction of it.
bool stops_the_job(const Finding& f) { return info(f.kind).stops_job; }

// Rank 0's side of the job. As the burn session's observer it sees every stage start and end (the
// counters sweeps), every summary written (the job's findings and lists go into it and next
// to it) and asks for the localisation's probe stages.
class Job : public burn::SessionObserver {
 public:
  explicit Job(const RunOptions& o) : o_(o), dir_(o.burn.out_dir), coverage_(o.coverage) {}

  // Steps 1-4 before any traffic. Throws Error to stop (bad input: 2; split/no SM: 1).
  void prepare() {
    make_dirs(dir_);
    burn::write_summary(dir_ + "/summary.json", job_summary(burn::RunState::Running));
    // Inputs first: a typo fails before the fabric is touched.
    if (!o_.wiring.empty()) wiring_ = wiring::load_wiring_csv(o_.wiring);
    rules_.max_symbol_ber = o_.max_symbol_ber;
    if (!o_.thresholds.empty()) rules_.counts = counters::Thresholds::load(o_.thresholds);
    if (!o_.ibdiagnet.empty()) health_step(o_.ibdiagnet, "before");
    const audit::AuditPolicy policy = audit::load_policy(o_.audit);

    auto t0 = Clock::now();
    say("topo: " + std::string(o_.routes.routes.fabric.is_live() ? "discovering the fabric" : "loading the fabric"));
    topo::FabricSource source = o_.routes.routes.fabric;
    topo::Fabric fabric = source.load();
    if (wiring_) {
      topo_findings_ = topo_check::check_topology(fabric, *wiring_, source.vantage_points()).findings;
      write_file_atomic(dir_ + "/topo.json", findings_to_json(topo_findings_).dump(2) + "\n");
      print_summary(std::cerr, "run: topo check", topo_findings_, 5);
    }
    step("topo", t0, wiring_ ? (topo_findings_.empty() ? "ok" : "findings") : "skipped: no --wiring");
    scopes_ = wiring_ ? wiring::cable_scopes(*wiring_) : wiring::cable_scopes(fabric);
    for (const auto& f : topo_findings_)
      if (stops_the_job(f) && !o_.burn_anyway) stop(f);
    if (!o_.audit.partitions.empty()) audit_step(fabric, source, policy);

    t0 = Clock::now();
    model_ = routing::make_route_model(std::move(fabric), o_.routes.routes);
    for (topo::NodeId n = 0; n < model_->fabric.nodes().size(); ++n) {
      const topo::Node& node = model_->fabric.node(n);
      if (node.is_ca()) host_of_hca_[node.name] = node.description.substr(0, node.description.find(' '));
    }
    step("routes", t0, o_.routes.routes.routing);

    t0 = Clock::now();
    if (o_.routes.routes.fabric.is_live()) {
      counters::SweepOptions so;
      so.extended = true;
      so.port_state = true;  // a cable down between two switches that both still answer
      sweeper_ = std::make_unique<counters::Sweeper>(model_->fabric, source.live.mad, so);
      last_ = sweeper_->sweep();
      topology_ = std::make_unique<TopologyWatch>(*last_);
      sm_ = std::make_unique<SmWatch>(topo::probe_master_sm(sweeper_->mad_window()));
      write_file_atomic(dir_ + "/counters-before.json", counters::snapshot_json_text(*last_));
      write_counters();
      step("counters", t0, fmt::format("ok: {} ports", last_->ports.size()));
    } else {
      step("counters", t0, "skipped: the fabric came from files (counters need --fabric live)");
    }
    endpoints_ = plan::load_endpoints(o_.routes.endpoints, model_->fabric);
    if (!o_.allocation.empty()) allocate();
    given_guids_ = plan::given_port_guids(endpoints_, model_->fabric);
    localizer_ = std::make_unique<localization::RouteExplainer>(model_, o_.routes.probes, given_guids_);
    // The pricing's view of the fabric, and its job sizes checked before any traffic.
    price_options_.job_sizes = o_.job_sizes;
    if (!o_.max_slowdown.empty())
      price_options_.max_slowdown = price::parse_slowdown_limit(o_.max_slowdown, "--max-slowdown");
    price_fabric_ = std::make_unique<price::PriceFabric>(model_->fabric, *model_->cables, *model_->router,
                                                         o_.routes.routes.routing == "adaptive");
    price::parse_job_sizes(o_.job_sizes, price::slurm_layout(*price_fabric_), "--job-sizes");
  }

  // Sim: ranks are HCA ports. Step 4 for it.
  fluid::SimulatedBurn simulated() {
    auto t0 = Clock::now();
    fluid::SimulatedBurn run;
    run.routes = model_;
    run.live_fabric = o_.routes.routes.fabric.is_live();
    run.endpoints = endpoints_.ports;
    ports_by_rank_.assign(run.endpoints.begin(), run.endpoints.end());
    set_scope(o_.allocation.empty() ? "ranks" : allocation_source_);
    run.plan = plan_over(run.endpoints);
    for (const auto& d : o_.routes.degrade) routing::parse_degrade(d, model_->fabric, *model_->cables, run.degrade);
    const auto capacity = fluid::degraded_capacities(*model_->cables, run.degrade);
    step("plan", t0, fmt::format("{} stage(s) for {} ranks", run.plan.stages.size(), run.endpoints.size()));
    step("host", Clock::now(), "skipped: the sim transport has no hosts");
    if (sweeper_) {
      std::string console = o_.sim_console;
      if (console.empty())
        if (const char* d = std::getenv("SIMFABRIC_DIR"); d && fs::exists(std::string(d) + "/console"))
          console = std::string(d) + "/console";
      if (!console.empty()) {
        sim_counters_ = std::make_unique<SimDataCounters>(console, *model_, capacity);
        sim_counters_->start_from(*last_);
        run.on_traffic = [this](const std::vector<double>& g, double s) { sim_counters_->add(g, s); };
      } else if (coverage_ > 0) {
        coverage_ = 0;
        say("coverage from counters: not judged: the sim transport's bytes reach a simulated fabric's counters "
            "only through its console (--sim-console)");
      }
    } else {
      // A fabric from files has no counters to sweep: the model's own stand in for them.
      modelled_ = std::make_unique<ModelledCounters>(*model_, capacity);
      last_ = modelled_->snapshot();
      run.on_traffic = [this](const std::vector<double>& g, double s) { modelled_->add(g, s); };
    }
    run.tick = [this](double elapsed) {
      if (!o_.burn.quiet)
        std::cerr << fmt::format("run: stage {} {:.0f}/{:.0f} s, {} counter finding(s) so far\n", stage_, elapsed,
                                 std::chrono::duration<double>(o_.burn.duration).count(), counter_findings_.size());
    };
    return run;
  }

  // MPI: the ranks' endpoints are known now.
  std::optional<burn::Plan> plan_for(const std::vector<burn::EndpointInfo>& eps) override {
    auto t0 = Clock::now();
    std::vector<uint64_t> guid_by_rank;
    for (size_t r = 0; r < eps.size(); ++r)
      guid_by_rank.push_back(r < given_guids_.size() && given_guids_[r] ? given_guids_[r] : eps[r].port_guid);
    std::vector<int> missing;
    ports_by_rank_ = rank_ports(model_->fabric, guid_by_rank, &missing);
    set_scope("ranks");
    if (!o_.burn.plan_file.empty()) {
      step("plan", t0, "from " + o_.burn.plan_file);
      return burn::load_plan(o_.burn.plan_file, static_cast<int>(eps.size()));
    }
    if (!missing.empty())
      throw InputError(o_.routes.endpoints.empty() ? "endpoints" : o_.routes.endpoints, 0,
                       fmt::format("rank {} has no HCA port of the fabric (its transport reports none: give "
                                   "--endpoints RANK PORT_GUID, or --plan)",
                                   missing.front()));
    std::vector<topo::PortEnd> eps_ports;
    for (const auto& p : ports_by_rank_) eps_ports.push_back(*p);
    burn::Plan plan = plan_over(eps_ports, eps);
    step("plan", t0, fmt::format("{} stage(s) for {} ranks", plan.stages.size(), eps.size()));
    return plan;
  }

  void stage_starting(int index, const burn::Stage& stage) override {
    stage_ = index;
    stage_t0_ = Clock::now();
    if (!o_.burn.quiet)
      std::cerr << fmt::format("run: stage {} \"{}\": {} flows\n", index, stage.name, stage.flows.size());
    // observe() touches only what compare() reads after the poll has stopped (stage_finished).
    if (sweeper_ && topology_)
      poll_ = std::make_unique<LinkStatePoll>(*sweeper_, kLinkStatePollInterval,
                                              [this](const counters::Snapshot& s) { topology_->observe(s); });
  }

  void stage_finished(const burn::StageResult& result) override {
    poll_.reset();  // before the sweeper's next use
    if (!last_) return;
    const double seconds = std::chrono::duration<double>(o_.burn.duration).count();
    const auto sweep_t0 = Clock::now();
    counters::Snapshot now = sweeper_ ? sweeper_->sweep() : modelled_->snapshot();
    const double first_sweep = since(sweep_t0);
    // The simulated fabric applies the model's bytes between MADs, so a sweep may read a
    // port before its line was applied: once the last line shows, every line was applied
    // before one more sweep starts.
    if (sim_counters_) {
      for (int i = 0; !sim_counters_->applied(now) && i < 100 && !interrupted(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        now = sweeper_->sweep();
      }
      now = sweeper_->sweep();
    }
    // The first sweep is what hardware costs; the sim's waits for ibsim come on top. The
    // model's counters (a fabric from files) are not measurements: kept in memory only.
    if (sweeper_) {
      steps_.push_back(
          {fmt::format("sweep {}", result.index), first_sweep,
           fmt::format("{} ports, {:.1f} s with the simulated fabric's catch-up", now.ports.size(), since(sweep_t0))});
      write_file_atomic(fmt::format("{}/counters-stage-{}.json", dir_, result.index),
                        counters::snapshot_json_text(now));
    }
    const auto deltas = counters::compute_deltas(*last_, now);
    auto errors = errors_under_load(deltas, rules_, result.index);
    fabric_changes(now, result.index, errors);
    const auto expected = expected_octets(*model_, ports_by_rank_, result);
    if (expected_total_.empty()) expected_total_.assign(expected.size(), 0.0);
    for (size_t e = 0; e < expected.size(); ++e) expected_total_[e] += expected[e];
    std::vector<Finding> coverage;
    if (coverage_ > 0)
      coverage = coverage_findings(*model_, topology_ ? topology_->judgeable(*model_, expected) : expected,
                                   seen_octets(*model_, deltas), coverage_, seconds, result.index);
    if (!by_counters_) by_counters_ = std::make_unique<CounterLocalization>(*model_);
    by_counters_->add_stage(deltas, result.index);
    by_counters_->explain_shortfalls(coverage);
    if (!o_.burn.quiet)
      std::cerr << fmt::format(
          "run: stage {} counters: {} port(s) with errors under load, {} cable finding(s) from "
          "data counters ({:.1f} s)\n",
          result.index, errors.size(), coverage.size(), since(stage_t0_));
    for (auto* v : {&errors, &coverage}) counter_findings_.insert(counter_findings_.end(), v->begin(), v->end());
    last_ = std::move(now);
    if (sweeper_) write_counters();
  }

  void explain(burn::Summary& s, const std::vector<burn::EndpointInfo>& eps) override {
    if (by_counters_) localizer_->set_named_elsewhere(by_counters_->named());
    localizer_->explain(s, eps);
    corroborate(s.findings);
    std::vector<Finding> all = topo_findings_;
    all.insert(all.end(), health_.findings().begin(), health_.findings().end());
    if (by_counters_)
      for (auto& f : by_counters_->findings()) all.push_back(std::move(f));
    for (auto& f : counter_evidence()) all.push_back(std::move(f));
    if (s.doc.complete && !expected_total_.empty()) {
      const auto untested = scope_ ? scope_->untested_edges(*model_, expected_total_) : std::set<routing::EdgeId>{};
      for (auto& f : unused_directions(*model_, expected_total_, untested)) all.push_back(std::move(f));
      if (auto f = scope_ ? scope_->untested(*model_, expected_total_) : std::nullopt) all.push_back(std::move(*f));
    }
    all.insert(all.end(), s.findings.begin(), s.findings.end());
    if (scope_) all = scope_->within(std::move(all));
    all = group_systemic_causes(std::move(all), scopes_);
    if (s.doc.complete || s.doc.interrupted) price_findings(s.doc, all);
    sort_worst_first(all);
    s.doc.findings = all;
    burn::JobRecord job;
    job.outcome = s.doc.interrupted ? "interrupted" : s.doc.complete ? "complete" : "running";
    job.steps = steps_;
    if (scope_) job.allocation = scope_->record();
    s.doc.job = job;
    write_lists(s.doc);
    s.findings = *s.doc.findings;
    s.doc.pass = exit_code_for(s.findings) == kExitOk;
  }

  std::optional<burn::Stage> follow_up(const burn::Summary& s, const std::vector<burn::EndpointInfo>& eps,
                                       int extra_run) override {
    return localizer_->follow_up(s, eps, extra_run);
  }

  // Steps 7-9 after the burn: history, the page, Prometheus, Slurm.
  int finish(int burn_code, Clock::time_point burn_t0) {
    step("burn", burn_t0,
         burn_code == kExitOk         ? "ok"
         : burn_code == kExitFindings ? "findings"
                                      : "exit " + std::to_string(burn_code));
    if (!price_step_.name.empty()) steps_.push_back(price_step_);  // priced with the burn's last summary
    const std::string summary_path = dir_ + "/summary.json";
    burn::BurnSummary doc = burn::load_summary(summary_path);
    if (!doc.job) doc.job.emplace();
    if (!o_.history.empty()) {
      auto t0 = Clock::now();
      report::History h(o_.history);
      const report::RunData run = report::load_run_dir(dir_);
      const long long id = h.record(dir_, static_cast<long long>(std::time(nullptr)), run);
      doc.job->changes = h.changes_since_previous(id);
      if (doc.job->changes) failed_before_ = h.failed_cables(doc.job->changes->previous_run);
      step("history", t0, fmt::format("run {} recorded", id));
    }
    if (!o_.ibdiagnet_after.empty()) {
      health_step(o_.ibdiagnet_after, "after");
      add_findings(doc, health_.after_burn());
    }
    doc.job->outcome = burn::to_string(burn::run_state(doc));
    doc.job->steps = steps_;
    const GuardedDrain drain = write_lists(doc);
    burn::write_summary(summary_path, doc);
    report::ReportCommandOptions ro;
    ro.dir = dir_;
    ro.html = dir_ + "/report.html";
    ro.prometheus = dir_ + "/ibburn.prom";
    ro.nights = o_.history;
    if (model_) ro.loaded = &model_->fabric;  // the page's picture of the fabric the job ran on
    report::report_command(ro, std::cerr);
    // As the page says it: a job that did not finish is no pass (burn/summary.h, run_outcome).
    const burn::RunOutcome outcome = burn::run_outcome(doc);
    const bool finished = outcome != burn::RunOutcome::Incomplete;
    if (o_.slurm.any())
      slurm::apply_slurm_actions(
          o_.slurm, slurm_drains(drain.drain),
          finished ? passed_hosts(job_hosts(doc, host_of_hca_), drain) : std::vector<std::string>{},
          dir_ + "/slurm.jsonl", std::cerr);
    print_changes(doc);
    if (price_) price::print_price(std::cerr, *price_, 3);
    if (ring_check_)
      std::cerr << fmt::format(
          "run: ring step: the slowest flow measured {:.1f} Gb/s, the model gives {:.1f} (designed {:.1f})\n",
          ring_check_->measured_gbps, ring_check_->model_gbps, ring_check_->designed_gbps);
    std::cerr << fmt::format("run: {}: {} finding(s), {} host(s) in drain.txt, outputs in {}\n",
                             burn::headline(outcome), doc.findings ? doc.findings->size() : 0, drain.drain.size(),
                             dir_);
    if (burn_code != kExitOk && burn_code != kExitFindings) return burn_code;
    return doc.pass ? kExitOk : kExitFindings;
  }

 private:
  // `eps`: the ranks' endpoints (the sim's are made from the fabric), for the ring pattern.
  burn::Plan plan_over(const std::vector<topo::PortEnd>& endpoints, std::vector<burn::EndpointInfo> eps = {}) {
    const int ranks = static_cast<int>(endpoints.size());
    if (!o_.burn.plan_file.empty()) return burn::load_plan(o_.burn.plan_file, ranks);
    if (o_.burn.pattern == burn::kRingPattern) {
      if (eps.empty())
        for (const auto& p : endpoints) eps.push_back(fluid::simulated_endpoint(model_->fabric, *model_->cables, p));
      ring_hosts_ = burn::ring_hosts(eps);
      say("plan: the ring pattern: each rail's ring step over " + std::to_string(ring_hosts_.size()) + " hosts");
      return burn::make_ring(eps, o_.burn.streams);
    }
    planner::PlanResult r = planner::make_plan(model_->fabric, *model_->cables, *model_->router, endpoints, {});
    for (const auto& n : r.notes) say("plan: " + n);
    return plan::to_burn_plan(r, "ibburn run");
  }

  // Localisation from traffic alone cannot tell cables on the same paths apart; one of them
  // whose own counters rose under load can: the suspect then names that cable, with the
  // counter evidence, as an error.
  void corroborate(std::vector<Finding>& burn_findings) const {
    std::map<std::string, const Finding*> counted;
    for (const auto& f : counter_findings_)
      if (f.kind == FindingKind::ErrorsUnderLoad && f.ports.size() == 2)
        counted.emplace(report::cable_name(f.ports[0], f.ports[1]), &f);
    for (auto& f : burn_findings) {
      if (f.kind != FindingKind::SuspectCable || f.ports.size() != 2) continue;
      auto details = details_of<FindingKind::SuspectCable>(f);
      std::vector<std::pair<PortRef, PortRef>> candidates{{f.ports[0], f.ports[1]}};
      for (const std::string& text : details.tied_with()) {
        const auto arrow = text.find(" -> ");
        if (arrow != std::string::npos)
          candidates.emplace_back(report::port_from_text(text.substr(0, arrow)),
                                  report::port_from_text(text.substr(arrow + 4)));
      }
      for (const auto& [a, b] : candidates) {
        auto it = counted.find(report::cable_name(a, b));
        if (it == counted.end()) continue;
        f.severity = Severity::Error;
        f.ports = {a, b};
        f.message +=
            "; of these, " + report::cable_name(a, b) + " had its counters rise under load: " + it->second->message;
        details.errors_under_load = details_of<FindingKind::ErrorsUnderLoad>(*it->second);
        f.details = details;
        break;
      }
    }
  }

  // --allocation (sim): only the HCA ports of the job's hosts are ranks.
  void allocate() {
    std::set<std::string> fabric_hosts;
    std::vector<std::string> host_list;
    for (const auto& [hca, host] : host_of_hca_)
      if (fabric_hosts.insert(host).second) host_list.push_back(host);
    const AllocationRequest request = parse_allocation(
        o_.allocation, o_.allocation.starts_with("@") ? read_file(o_.allocation.substr(1)) : std::string());
    Allocation a;
    if (request.from_slurm) {
      const slurm::SlurmJob job = slurm::read_slurm_job();
      const auto node_map = o_.slurm.node_map.empty()
                                ? std::map<std::string, std::string>{}
                                : slurm::parse_slurm_node_map(read_file(o_.slurm.node_map), o_.slurm.node_map);
      a = allocation_from_slurm(job.allocated, host_list, job.nodes, node_map);
      for (const auto& n : a.nodes_without_host)
        say("allocation: Slurm node " + n + " has no host in the fabric (no HCA's node description names it)");
      allocation_source_ = "slurm";
    } else {
      a = allocation_from_list(request.hosts, fabric_hosts,
                               o_.allocation.starts_with("@") ? o_.allocation.substr(1) : "--allocation");
      allocation_source_ = "list";
    }
    std::erase_if(endpoints_.ports, [&](const topo::PortEnd& p) {
      const auto it = host_of_hca_.find(model_->fabric.node(p.node).name);
      return it == host_of_hca_.end() || !a.hosts.contains(it->second);
    });
    if (endpoints_.ports.empty())
      throw InputError(
          "--allocation", 0,
          fmt::format("none of the {} allocated host(s) has an HCA port among the endpoints", a.hosts.size()));
  }

  // The job's hosts are known (the sim's endpoints, the MPI ranks'): findings about the other
  // hosts are dropped from here on, topo.json's among them.
  void set_scope(const std::string& source) {
    scope_.emplace(model_->fabric, host_of_hca_, hosts_of_ports(model_->fabric, endpoints_of_ranks(), host_of_hca_),
                   source);
    if (!scope_->partial()) return;
    say(fmt::format("allocation ({}): {} of the fabric's {} hosts; the others' cables are not judged", source,
                    scope_->hosts().size(), scope_->record()->hosts.size() + scope_->record()->outside.size()));
    topo_findings_ = scope_->within(std::move(topo_findings_));
    if (wiring_) write_file_atomic(dir_ + "/topo.json", findings_to_json(topo_findings_).dump(2) + "\n");
  }

  std::vector<topo::PortEnd> endpoints_of_ranks() const {
    std::vector<topo::PortEnd> out;
    for (const auto& p : ports_by_rank_)
      if (p) out.push_back(*p);
    return out;
  }

  // The fabric's partitions, keys, SMs and MTU against the site's policy, before any traffic;
  // its findings join the topo check's.
  void audit_step(const topo::Fabric& fabric, const topo::FabricSource& source, const audit::AuditPolicy& policy) {
    const auto t0 = Clock::now();
    if (!source.is_live()) {
      step("audit", t0, "skipped: the fabric came from files (the audit reads live SMPs)");
      return;
    }
    std::vector<std::string> notes;
    auto found = audit::audit_fabric(fabric, source.live.mad, policy, notes);
    for (const auto& n : notes) say("audit: not answered: " + n);
    print_summary(std::cerr, "run: topo audit", found, 5);
    step("audit", t0, found.empty() ? "ok" : fmt::format("{} finding(s)", found.size()));
    topo_findings_.insert(topo_findings_.end(), found.begin(), found.end());
    write_file_atomic(dir_ + "/topo.json", findings_to_json(topo_findings_).dump(2) + "\n");
  }

  void health_step(const std::string& input, const std::string& when) {
    const auto t0 = Clock::now();
    step("health " + when, t0, health_.judge(input, when));
  }

  void say(const std::string& line) const {
    if (!o_.burn.quiet) std::cerr << "run: " << line << "\n";
  }

  void step(const std::string& name, Clock::time_point t0, const std::string& outcome) {
    steps_.push_back({name, since(t0), outcome});
    say(fmt::format("{} ({:.1f} s): {}", name, steps_.back().seconds, outcome));
  }

  // What each finding costs the site's jobs (price/pricing.h), into summary.json's "price" and
  // the lists' order; past --max-slowdown, the no-go joins the findings. Once the burn has run
  // to its end (or was stopped): the summaries on the way are not priced.
  void price_findings(burn::BurnSummary& doc, std::vector<Finding>& all) {
    const auto t0 = Clock::now();
    std::optional<price::RingCheck> ring;
    try {
      const auto subjects =
          price::subjects_of(all, *price_fabric_, price::measured_rates(*price_fabric_, doc, ports_by_rank_));
      price_ = price::price_subjects(*price_fabric_, subjects, price_options_);
      if (!ring_hosts_.empty()) ring = ring_check(subjects, doc);
    } catch (const routing::RoutingError& e) {
      price_step_ = {"price", since(t0), std::string("skipped: ") + e.what()};
      return;
    }
    doc.price = price::to_json(*price_);
    if (ring) (*doc.price)["ring_check"] = price::to_json(*ring);
    ring_check_ = ring;
    costs_ = {};
    size_t priced = 0;
    for (const auto& p : price_->findings) {
      if (!p.defect() || !p.worst()) continue;
      ++priced;
      const std::string text = price::cost_text(*p.worst());
      const auto& ports = p.what.ports;
      if (ports.size() >= 2) costs_.add(costs_.by_cable, report::cable_name(ports[0], ports[1]), p.slowdown(), text);
      for (const auto& port : ports)
        if (auto it = host_of_hca_.find(port.node); it != host_of_hca_.end())
          costs_.add(costs_.by_host, it->second, p.slowdown(), text);
    }
    if (!price_->go()) {
      Finding f;
      f.kind = FindingKind::SlowdownOverLimit;
      f.severity = Severity::Error;
      f.message = fmt::format("no-go: the fabric as measured is past --max-slowdown {}: {}", o_.max_slowdown,
                              price_->no_go.front());
      for (const auto& p : price_->findings)
        if (p.defect() && p.worst() && p.slowdown() > 1.0005 && f.ports.size() < 6) {
          f.message += (f.ports.empty() ? "; costliest: " : ", ") + p.what.message;
          f.ports.insert(f.ports.end(), p.what.ports.begin(),
                         p.what.ports.begin() + std::min<size_t>(2, p.what.ports.size()));
        }
      f.details = {{"no_go", price_->no_go}};
      all.push_back(std::move(f));
    }
    price_step_ = {
        "price", since(t0),
        fmt::format("{}: {} of {} finding(s) priced", price_->max_slowdown ? (price_->go() ? "go" : "no-go") : "ok",
                    priced, price_->findings.size())};
  }

  // --pattern ring: the slowest flow of its step beside the model's over the same hosts.
  price::RingCheck ring_check(const std::vector<price::Subject>& subjects, const burn::BurnSummary& doc) const {
    std::vector<price::HostId> order;
    for (const auto& h : ring_hosts_)
      if (auto id = price_fabric_->find_host(h)) order.push_back(*id);
    double measured = -1;
    for (const auto& f : doc.flows)
      if (f.stage == 1) measured = measured < 0 ? f.gbps : std::min(measured, f.gbps);
    return price::ring_check(*price_fabric_, subjects, order, std::max(0.0, measured));
  }

  // drain.txt and cables.csv, rewritten with every summary: a job that dies keeps them. Past
  // --max-drain nobody is drained and the guard's finding joins the findings (once).
  GuardedDrain write_lists(burn::BurnSummary& doc) const {
    std::vector<Finding>& all = doc.findings ? *doc.findings : doc.findings.emplace();
    auto drain = guard_drain(hosts_to_drain(all, host_of_hca_, doc), o_.max_drain, hosts_in_job(doc, host_of_hca_));
    auto cables = cables_to_service(all, wiring_ ? &*wiring_ : nullptr, failed_before_);
    for (auto* hosts : {&drain.drain, &drain.withheld}) order_by_cost(*hosts, costs_);
    order_by_cost(cables, costs_);
    write_file_atomic(dir_ + "/drain.txt", drain_text(drain));
    if (model_) health_.name_parts(cables, model_->fabric);
    write_file_atomic(dir_ + "/cables.csv", cables_csv(cables));
    const auto limit_told = [](const Finding& f) { return f.kind == FindingKind::DrainLimit; };
    if (drain.finding && std::none_of(all.begin(), all.end(), limit_told)) {
      all.push_back(std::move(*drain.finding));
      sort_worst_first(all);
      doc.pass = false;
    }
    return drain;
  }

  // The sweep after a stage against the one before stage 1 (switches and cables gone), and
  // the SM still there. Errors under load that a change explains become its details.
  void fabric_changes(const counters::Snapshot& now, int stage, std::vector<Finding>& errors) {
    if (!topology_ || !sweeper_) return;
    topology_->compare(now, stage);
    topology_->absorb(errors);
    if (auto lost = sm_->check(topo::probe_master_sm(sweeper_->mad_window()), stage))
      counter_findings_.push_back(*lost);
  }

  // The counters' findings: each stage's, and the fabric's changes since before stage 1.
  std::vector<Finding> counter_evidence() const {
    std::vector<Finding> all = counter_findings_;
    if (topology_) all.insert(all.end(), topology_->findings().begin(), topology_->findings().end());
    return scope_ ? scope_->within(std::move(all)) : all;
  }

  // counters.json, what the page and history read of a run directory: the latest snapshot
  // and the counters' findings, rewritten when a sweep adds to them.
  void write_counters() const {
    const std::string findings = "\"findings\":" + findings_to_json(counter_evidence())["findings"].dump();
    write_file_atomic(dir_ + "/counters.json", counters::snapshot_json_text(*last_, findings));
  }

  // The job's summary before its burn writes one: first thing (a job killed before the burn's
  // first summary reads as running, never as a pass), and when it stops before any traffic.
  burn::BurnSummary job_summary(burn::RunState state) const {
    burn::BurnSummary doc;
    doc.transport = burn::to_string(o_.burn.transport);
    doc.threshold = o_.burn.threshold;
    doc.expect_gbps = o_.burn.expect_gbps;
    doc.job = burn::JobRecord{burn::to_string(state), steps_, std::nullopt, std::nullopt};
    return doc;
  }

  [[noreturn]] void stop(const Finding& cause) {
    burn::BurnSummary doc = job_summary(burn::RunState::Stopped);
    doc.pass = false;
    doc.findings = topo_findings_;
    doc.findings->insert(doc.findings->end(), health_.findings().begin(), health_.findings().end());
    sort_worst_first(*doc.findings);
    write_file_atomic(dir_ + "/results.jsonl", "");
    write_lists(doc);
    burn::write_summary(dir_ + "/summary.json", doc);
    throw Error(kExitFindings,
                fmt::format("run: stopped before any traffic: {} (--burn-anyway burns regardless)", cause.message));
  }

  void print_changes(const burn::BurnSummary& doc) const {
    if (!doc.job || !doc.job->changes) return;
    const auto& c = *doc.job->changes;
    std::cerr << fmt::format("run: since run {}: {} new, {} recovered, {} still failing\n", c.previous_run,
                             c.new_findings.size(), c.recovered.size(), c.still_failing.size());
    for (const auto& n : c.new_findings) std::cerr << "  new: " << n << "\n";
  }

  const RunOptions& o_;
  std::string dir_;
  std::optional<wiring::Wiring> wiring_;
  LoadErrorRules rules_;
  std::vector<Finding> topo_findings_, counter_findings_;
  HealthCaptures health_{o_.routes.routes.fabric.node_name_map, dir_};
  CableScopes scopes_;  // the cables' tiers, pods, rails and switches, for systemic causes
  std::shared_ptr<routing::RouteModel> model_;
  std::map<std::string, std::string> host_of_hca_;
  std::unique_ptr<counters::Sweeper> sweeper_;
  std::optional<counters::Snapshot> last_;
  std::unique_ptr<SimDataCounters> sim_counters_;
  std::unique_ptr<TopologyWatch> topology_;
  std::unique_ptr<LinkStatePoll> poll_;  // during a stage
  std::unique_ptr<SmWatch> sm_;
  std::unique_ptr<ModelledCounters> modelled_;        // a file fabric's counters, from the model
  std::unique_ptr<CounterLocalization> by_counters_;  // cables named by their ports' counters
  std::unique_ptr<localization::RouteExplainer> localizer_;
  std::optional<JobScope> scope_;                            // the job's hosts, once the ranks are known
  std::string allocation_source_;                            // --allocation: "slurm" or "list"
  plan::Endpoints endpoints_;                                // --endpoints, read once, or every HCA port
  std::vector<uint64_t> given_guids_;                        // --endpoints: rank -> port GUID
  std::vector<std::optional<topo::PortEnd>> ports_by_rank_;  // the HCA port each rank drives
  std::vector<double> expected_total_;
  std::vector<burn::JobStep> steps_;
  std::set<std::string> failed_before_;
  price::PriceOptions price_options_;
  std::unique_ptr<price::PriceFabric> price_fabric_;
  std::optional<price::PriceReport> price_;  // once the burn has run to its end
  burn::JobStep price_step_;
  std::vector<std::string> ring_hosts_;  // --pattern ring: its hosts in order
  std::optional<price::RingCheck> ring_check_;
  ServiceCosts costs_;
  int stage_ = 0;
  Clock::time_point stage_t0_;
  double coverage_;
};

}  // namespace

int run_command(RunOptions o) {
  if (o.coverage < 0 || o.coverage > 1) throw InputError("--coverage", 0, "must be within 0..1");
  install_interrupt_handlers();
  if (!o.slurm.node_map.empty())
    slurm::parse_slurm_node_map(read_file(o.slurm.node_map), o.slurm.node_map);  // exit 2 now
  if (o.burn.transport == burn::TransportKind::Sim) {
    auto job = std::make_shared<Job>(o);
    job->prepare();
    fluid::SimulatedBurn run = job->simulated();
    burn::BurnOptions b = o.burn;
    b.observer = [job] { return job; };
    const auto t0 = Clock::now();
    const int rc = fluid::run_simulated_burn(run, b);
    return job->finish(rc, t0);
  }
  if (!o.routes.degrade.empty()) throw InputError("--degrade", 0, "is for --transport sim");
  if (!o.allocation.empty())
    throw InputError("--allocation", 0, "is for --transport sim: an MPI job's hosts are its ranks'");
  // Made on rank 0 only, by the burn, once MPI is up.
  std::shared_ptr<Job> job;
  burn::BurnOptions b = o.burn;
  b.plan_from_observer = true;
  b.observer = [&job, &o]() -> std::shared_ptr<burn::SessionObserver> {
    job = std::make_shared<Job>(o);
    job->prepare();
    return job;
  };
  const auto t0 = Clock::now();
  const int rc = burn::run_burn(b);
  return job ? job->finish(rc, t0) : rc;
}

}  // namespace ibburn::run
