// `ibburn run`'s steps one at a time (run/job_step.h), each on a job state set up as the steps
// before it would leave it, over a small two-tier design as fabric files: what each reads,
// fills in and says, without running the job around it.
#include <gtest/gtest.h>

#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "common/finding_details.h"
#include "burn/verdict.h"
#include "localization/suspect_cable_details.h"
#include "run/fabric_steps.h"
#include "run/history_step.h"
#include "run/job_outputs.h"
#include "run/plan_step.h"
#include "run/stage_sweep.h"
#include "run/verdict.h"
#include "tests/support/corpus.h"
#include "tests/support/temp_dir.h"
#include "wiring/fat_tree.h"
#include "wiring/ibsim_netfile.h"

namespace ibburn::run {
namespace {

class JobSteps : public ::testing::Test {
 protected:
  void SetUp() override {
    wiring::FatTreeSpec spec;
    spec.tiers = 2;
    spec.radix = 8;
    spec.hosts = 8;
    spec.hcas_per_host = 2;
    spec.rate = {topo::Width::X4, topo::Speed::HDR};  // what ibsim trains
    design_ = wiring::generate_fat_tree(spec);
    write_file_atomic(net_, wiring::to_ibsim_netfile(design_));
    write_file_atomic(csv_, wiring::to_csv(design_.wiring));
    o_.burn.transport = burn::TransportKind::Sim;
    o_.burn.duration = std::chrono::seconds(1);
    o_.burn.out_dir = tmp_.path() + "/run";
    o_.burn.quiet = true;
    o_.routes.routes.fabric.files = {net_};
    o_.routes.routes.routing = "adaptive";  // files carry no forwarding tables
    make_dirs(o_.burn.out_dir);
  }

  // The state as the steps before `upto` leave it, made by those steps.
  std::unique_ptr<JobState> state_through(const std::string& upto) {
    auto job = std::make_unique<JobState>(o_);
    read_inputs(*job);
    for (const std::string name : {"topo", "routes", "endpoints", "counters"}) {
      if (name == upto) break;
      std::unique_ptr<Step> step;
      if (name == "topo") step = std::make_unique<TopoStep>();
      if (name == "routes") step = std::make_unique<RoutesStep>();
      if (name == "endpoints") step = std::make_unique<EndpointsStep>();
      if (name == "counters") step = std::make_unique<CountersStep>();
      run_step(*job, *step);
    }
    return job;
  }

  std::string out(const std::string& file) const { return read_file(o_.burn.out_dir + "/" + file); }

  testing::TempDir tmp_;
  std::string net_ = tmp_.path() + "/design.net", csv_ = tmp_.path() + "/design.csv";
  wiring::FatTreeDesign design_;
  RunOptions o_;
};

TEST_F(JobSteps, TopoWithoutAWiringListLoadsTheFabricAndSaysItSkippedTheCheck) {
  JobState job(o_);
  TopoStep topo;
  EXPECT_EQ(topo.run(job), "skipped: no --wiring");
  ASSERT_TRUE(job.fabric);
  EXPECT_EQ(job.fabric->ca_count(), 16u);
  EXPECT_TRUE(job.topo_findings.empty());
  EXPECT_FALSE(std::filesystem::exists(o_.burn.out_dir + "/topo.json"));
}

TEST_F(JobSteps, TopoAgainstTheWiringListTellsACableTheListLacksAndWritesTopoJson) {
  wiring::Wiring fewer = design_.wiring;
  const auto gone = fewer.cables.back();
  fewer.cables.pop_back();
  write_file_atomic(csv_, wiring::to_csv(fewer));
  o_.wiring = csv_;
  JobState job(o_);
  read_inputs(job);
  EXPECT_EQ(TopoStep().run(job), "findings");
  ASSERT_FALSE(job.topo_findings.empty());
  bool named = false;
  for (const auto& f : job.topo_findings)
    for (const auto& p : f.ports) named = named || (p.node == gone.a.node && p.port == gone.a.port);
  EXPECT_TRUE(named) << findings_to_json(job.topo_findings).dump(1);
  EXPECT_NE(out("topo.json").find(gone.a.node), std::string::npos) << out("topo.json");
  EXPECT_EQ(stopping_cause(job), nullptr);  // one cable more than the list is no reason to stop
}

TEST_F(JobSteps, TopoOverTheListAsWiredIsOk) {
  o_.wiring = csv_;
  JobState job(o_);
  read_inputs(job);
  EXPECT_EQ(TopoStep().run(job), "ok");
  EXPECT_EQ(out("topo.json"), findings_to_json({}).dump(2) + "\n");
}

TEST_F(JobSteps, ASplitStopsTheJobUnlessBurnAnyway) {
  JobState job(o_);
  job.topo_findings.push_back({FindingKind::Split, Severity::Critical, "2 networks", {}, {}});
  ASSERT_NE(stopping_cause(job), nullptr);
  EXPECT_EQ(stopping_cause(job)->message, "2 networks");
  try {
    stop(job, *stopping_cause(job));
    ADD_FAILURE() << "stop returned";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), kExitFindings);
  }
  const auto s = nlohmann::json::parse(out("summary.json"));
  EXPECT_EQ(s["job"]["outcome"], "stopped") << s.dump(1);
  EXPECT_EQ(s["verdict"], "fail") << s.dump(1);
  EXPECT_EQ(s["findings"][0]["kind"], "split");
  o_.burn_anyway = true;
  EXPECT_EQ(stopping_cause(job), nullptr);
}

TEST_F(JobSteps, TheAuditOfAFabricFromFilesIsSkipped) {
  auto job = state_through("routes");
  EXPECT_EQ(AuditStep().run(*job), "skipped: the fabric came from files (the audit reads live SMPs)");
  EXPECT_TRUE(job->topo_findings.empty());
}

TEST_F(JobSteps, RoutesTakeTheFabricAndNameEachHcasHost) {
  auto job = state_through("routes");
  RoutesStep routes;
  EXPECT_EQ(routes.run(*job), o_.routes.routes.routing);
  EXPECT_FALSE(job->fabric);
  ASSERT_TRUE(job->model);
  EXPECT_EQ(job->host_of_hca.size(), 16u);
  for (const auto& [hca, host] : job->host_of_hca) EXPECT_EQ(hca.substr(0, host.size()), host) << hca;
  EXPECT_TRUE(job->price_fabric);
}

TEST_F(JobSteps, RoutesRefuseJobSizesTheFabricCannotHold) {
  o_.job_sizes = "64";  // 8 hosts
  auto job = state_through("routes");
  EXPECT_THROW(RoutesStep().run(*job), InputError);
}

TEST_F(JobSteps, EndpointsAreEveryHcaPortOrTheAllocationsHosts) {
  {
    auto job = state_through("endpoints");
    EXPECT_EQ(EndpointsStep().run(*job), "16 HCA port(s)");
    EXPECT_TRUE(job->localizer);
  }
  o_.allocation = "host001,host002";
  auto job = state_through("endpoints");
  EXPECT_EQ(EndpointsStep().run(*job), "4 HCA port(s) of the allocation (list)");
  for (const auto& p : job->endpoints.ports) {
    const std::string& host = job->host_of_hca.at(job->model->fabric.node(p.node).name);
    EXPECT_TRUE(host == "host001" || host == "host002") << host;
  }
  o_.allocation = "host001,nosuchhost";
  job = state_through("endpoints");
  EXPECT_THROW(EndpointsStep().run(*job), InputError);
}

TEST_F(JobSteps, CountersOfAFabricFromFilesAreSkipped) {
  auto job = state_through("counters");
  EXPECT_EQ(CountersStep().run(*job), "skipped: the fabric came from files (counters need --fabric live)");
  EXPECT_FALSE(job->sweeper);
  EXPECT_FALSE(job->last);
}

TEST_F(JobSteps, ThePlanGivesEveryEndpointARankAndTheJobItsHosts) {
  o_.allocation = "host001,host002,host003,host004";
  auto job = state_through("");
  fluid::SimulatedBurn run;
  SimPlanStep plan(run);
  const std::string outcome = plan.run(*job);
  EXPECT_EQ(run.endpoints.size(), 8u);
  EXPECT_EQ(job->ports_by_rank.size(), 8u);
  EXPECT_FALSE(run.plan.stages.empty());
  EXPECT_EQ(outcome, std::to_string(run.plan.stages.size()) + " stage(s) for 8 ranks");
  ASSERT_TRUE(job->scope);
  EXPECT_TRUE(job->scope->partial());
  EXPECT_EQ(job->scope->hosts().size(), 4u);
}

// The sweep after a stage compares the counters with the stage's traffic: bytes the ranks
// moved that no cable's counters saw are a coverage finding on the cables they took.
TEST_F(JobSteps, TheSweepAfterAStageTellsTrafficTheCountersDidNotSee) {
  for (const double coverage : {0.8, 0.0}) {
    o_.coverage = coverage;
    auto job = state_through("");
    fluid::SimulatedBurn run;
    SimPlanStep(run).run(*job);
    count_simulated_traffic(*job, run);
    ASSERT_TRUE(job->modelled);
    ASSERT_TRUE(run.on_traffic);
    // Stage 1's flows, as measured at 100 Gb/s for a second; the model's counters are told
    // nothing (on_traffic not called), as if the switches had not counted them.
    const burn::Stage& stage = run.plan.stages.front();
    burn::StageResult result;
    result.index = 1;
    result.name = stage.name;
    for (const auto& flow : stage.flows) {
      burn::FlowResult fr;
      fr.flow = flow;
      burn::DirectionResult d;
      d.from = flow.src;
      d.to = flow.dst;
      d.bytes = 12'500'000'000ULL;
      d.seconds = 1.0;
      d.gbps = 100.0;
      fr.directions.push_back(d);
      result.flows.push_back(fr);
    }
    StageSweep sweep;
    sweep.starting(*job, 1, stage);
    sweep.finished(*job, result);
    ASSERT_FALSE(job->expected_total.empty());
    double expected = 0;
    for (double e : job->expected_total) expected += e;
    EXPECT_GT(expected, 0);
    size_t unseen = 0;
    for (const auto& f : job->counter_findings) unseen += f.kind == FindingKind::NotExercised;
    if (coverage > 0)
      EXPECT_GT(unseen, 0u) << findings_to_json(job->counter_findings).dump(1);
    else
      EXPECT_EQ(unseen, 0u) << findings_to_json(job->counter_findings).dump(1);
  }
}

// A RoCE fabric has no subnet to discover: the host's RDMA ports say so, or --fabric none.
TEST(WithoutSubnet, AHostWhoseRdmaPortsAreAllEthernetHasNoSubnetToDiscover) {
  topo::FabricSource live;
  const host::Hca rxe{"rxe0", "", "", "", {{1, "4: ACTIVE", "5: LinkUp", "2.5 Gb/sec (1X SDR)", "Ethernet"}}, "data0"};
  const host::Hca mlx{"mlx5_0", "", "", "", {{1, "4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)", "InfiniBand"}}, ""};
  const auto verbs = burn::TransportKind::Verbs, tcp = burn::TransportKind::Tcp;
  EXPECT_EQ(without_subnet(live, verbs, {rxe}).value_or("discover"),
            "a RoCE fabric has no subnet management packets (the one of this host's RDMA port(s) are Ethernet, "
            "rxe0:1 the first)");
  EXPECT_FALSE(without_subnet(live, verbs, {rxe, mlx}));  // one InfiniBand port: discover through it
  live.live.mad.ca = "rxe0";                              // ... unless -C names the Ethernet one
  EXPECT_TRUE(without_subnet(live, verbs, {rxe, mlx}));
  live.live.mad.ca.clear();
  EXPECT_FALSE(without_subnet(live, verbs, {}));  // no device: discovery says what is missing
  EXPECT_FALSE(without_subnet(live, tcp, {}));    // ... under tcp too (--fabric none says it on purpose)
  EXPECT_TRUE(without_subnet(live, tcp, {rxe}));
  EXPECT_FALSE(without_subnet(live, burn::TransportKind::Sim, {rxe}));
  topo::FabricSource none;
  none.files = {"none"};
  EXPECT_EQ(without_subnet(none, verbs, {mlx}).value_or(""), "--fabric none");
  topo::FabricSource files;
  files.files = {"fabric.net"};
  EXPECT_FALSE(without_subnet(files, verbs, {rxe}));
  EXPECT_THROW(none.load(), InputError);
}

// `--fabric none` (what a RoCE host gets by itself): the steps over the fabric say why they
// are skipped, the ranks' own ports are the endpoints, and a host port's findings drain its
// host and give cables.csv a row with no far end.
TEST_F(JobSteps, WithoutASubnetTheRanksOwnPortsNameTheFindingsAndTheLists) {
  o_.burn.transport = burn::TransportKind::Verbs;
  o_.routes.routes.fabric.files = {"none"};
  o_.max_drain = parse_drain_limit("1");
  JobState job(o_);
  read_inputs(job);
  TopoStep topo;
  RoutesStep routes;
  EndpointsStep endpoints;
  CountersStep counters;
  for (Step* step : std::initializer_list<Step*>{&topo, &routes, &endpoints, &counters})
    EXPECT_TRUE(step->run(job).starts_with("skipped: ")) << step->name();
  EXPECT_EQ(topo.run(job), "skipped: --fabric none");
  EXPECT_FALSE(job.model);
  std::vector<burn::EndpointInfo> eps(2);
  eps[0] = {"vm01", "rxe0:1", "::ffff:10.77.0.1", 0, 0, "Ethernet", 2.0, -1};
  eps[1] = {"vm02", "rxe0:1", "::ffff:10.77.0.2", 0, 0, "Ethernet", 2.0, -1};
  RankPlanStep plan(eps);
  const std::string planned = plan.run(job);
  EXPECT_EQ(planned, fmt::format("{} stage(s) for 2 ranks, the pairs pattern (no fabric to plan over)",
                                 plan.plan.stages.size()));
  ASSERT_FALSE(plan.plan.stages.empty());
  EXPECT_EQ(job.host_of_hca.at("vm02 rxe0"), "vm02");
  burn::EndpointRecord failed;
  failed.rank = 1;
  failed.verdict = burn::Verdict::Failed;
  failed.host = "vm02";
  failed.endpoint = "rxe0:1";
  failed.reason = "all 2 measured directions failed";
  burn::Summary s;
  s.doc.complete = true;
  s.doc.endpoints = {failed};
  s.findings = {{FindingKind::FailedEndpoint,
                 Severity::Error,
                 "vm02 rxe0:1: all 2 measured directions failed",
                 {burn::endpoint_ref(eps, 1)},
                 burn::to_json(failed)},
                {FindingKind::ErrorsUnderLoad,
                 Severity::Error,
                 "vm02 rxe0:1: the port's own counters during the burn: link_downed +1",
                 {burn::endpoint_ref(eps, 1)},
                 ErrorsUnderLoadDetails{0, {{"link_downed", 1}}}}};
  judge(job, s, eps);
  ASSERT_EQ(s.findings.size(), 2u);
  for (const auto& f : s.findings) EXPECT_EQ(f.ports, (std::vector<PortRef>{{"vm02 rxe0", 1}})) << f.message;
  EXPECT_NE(findings_to_json(s.findings).dump().find("vm02 rxe0[1] (no cable known): all 2 measured directions failed"),
            std::string::npos);
  EXPECT_TRUE(out("drain.txt").starts_with("vm02\t")) << out("drain.txt");
  const std::string csv = out("cables.csv");
  EXPECT_NE(csv.find("\n\"vm02 rxe0\",1,\"\",0,\"\",replace,"), std::string::npos) << csv;
  ASSERT_TRUE(job.price_step);
  EXPECT_EQ(job.price_step->outcome, "skipped: no fabric to price on (--fabric none)");
}

TEST_F(JobSteps, HealthJudgesAnIbdiagnetCapture) {
  if (const auto why = testing::corpus_missing(); !why.empty()) GTEST_SKIP() << why;
  JobState job(o_);
  HealthStep health(testing::corpus_path("ibdiagnet/qm9700-ndr-sequoia-2025-gary-minghuili"), "before");
  EXPECT_EQ(health.name(), "health before");
  EXPECT_FALSE(health.run(job).empty());
  EXPECT_FALSE(job.health.findings().empty());
  EXPECT_TRUE(std::filesystem::exists(o_.burn.out_dir + "/health-before.json"));
}

TEST_F(JobSteps, HistoryRecordsTheRunAndWhatChangedSinceThePreviousOne) {
  o_.history = tmp_.path() + "/history.sqlite";
  JobState job(o_);
  // What history reads of a run directory: topo.json's findings here, a cable down.
  job.topo_findings = {{FindingKind::PortDown, Severity::Error, "down", {{"host002 mlx5_0", 1}, {"leaf01", 2}}, {}}};
  job.write_topo();
  burn::BurnSummary doc = job_summary(job, burn::RunState::Complete);
  doc.pass = false;
  burn::write_summary(o_.burn.out_dir + "/summary.json", doc);
  EXPECT_EQ(HistoryStep(doc).run(job), "run 1 recorded");
  EXPECT_FALSE(doc.job->changes);
  EXPECT_EQ(HistoryStep(doc).run(job), "run 2 recorded");
  ASSERT_TRUE(doc.job->changes);
  EXPECT_EQ(doc.job->changes->previous_run, 1);
  // The cable failed in the previous run too: cables.csv replaces it now, not reseats it.
  EXPECT_EQ(job.failed_before, (std::set<std::string>{"host002 mlx5_0[1] - leaf01[2]"}));
}

TEST_F(JobSteps, RunStepRecordsEachStepsOutcome) {
  JobState job(o_);
  run_step(job, TopoStep());
  ASSERT_EQ(job.steps.size(), 1u);
  EXPECT_EQ(job.steps[0].name, "topo");
  EXPECT_EQ(job.steps[0].outcome, "skipped: no --wiring");
  EXPECT_GE(job.steps[0].seconds, 0);
}

TEST(Corroborate, ASuspectTiedWithACableWhoseCountersRoseNamesThatCable) {
  const std::vector<Finding> counted = {{FindingKind::ErrorsUnderLoad,
                                         Severity::Error,
                                         "symbol errors",
                                         {{"leaf01", 5}, {"spine01", 1}},
                                         ErrorsUnderLoadDetails{.stage = 1, .rise = {{"SymbolErrorCounter", 9}}}}};
  localization::SuspectCableDetails d;
  burn::SuspectRecord flows;
  flows.cable = "leaf02[6] -> spine02[2]";
  flows.tied_with = {"leaf01[5] -> spine01[1]"};
  d.flows = flows;
  std::vector<Finding> burn = {
      {FindingKind::SuspectCable, Severity::Warning, "one of 2", {{"leaf02", 6}, {"spine02", 2}}, d}};
  std::vector<Finding> untouched = burn;
  corroborate(burn, counted);
  EXPECT_EQ(burn[0].severity, Severity::Error);
  EXPECT_EQ(burn[0].ports, (std::vector<PortRef>{{"leaf01", 5}, {"spine01", 1}}));
  EXPECT_TRUE(details_of<FindingKind::SuspectCable>(burn[0]).errors_under_load);
  // Without counters that rose, the suspect stays as the flows left it.
  corroborate(untouched, {});
  EXPECT_EQ(untouched[0].severity, Severity::Warning);
  EXPECT_EQ(untouched[0].ports, (std::vector<PortRef>{{"leaf02", 6}, {"spine02", 2}}));
}

}  // namespace
}  // namespace ibburn::run
