#include "burn/coordinator.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "burn/control_channel.h"
#include "burn/progress.h"
#include "burn/results.h"
#include "burn/port_counters.h"
#include "burn/ring_pattern.h"
#include "burn/session.h"
#include "burn/verdict.h"
#include "common/exit_codes.h"
#include "common/interrupt.h"

namespace ibburn::burn {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
constexpr auto kSummaryRefresh = 10s;

// Rank 0's stage runner over the control channel: the session (burn/session.h) records what
// each stage returns, the ranks lost on the way and the hosts refused before stage 1.
class Coordinator : public StageRunner {
 public:
  Coordinator(CoordinatorInput in, const BurnOptions& o)
      : n_(in.ranks),
        listener_(std::move(in.listener)),
        token_(in.token),
        o_(o),
        session_(o, *this, std::move(in.observers)),
        plan_(std::move(in.plan)),
        ch_(n_),
        eps_(n_) {}

  int run() {
    accept_hellos();
    try {
      if (auto p = session_.observers_plan(eps_))
        plan_ = std::move(*p);
      else if (plan_.stages.empty() && o_.plan_file.empty() && o_.pattern == kRingPattern)
        plan_ = make_ring(eps_, o_.streams);
    } catch (...) {  // bad input (plan, endpoints): release the ranks before saying so
      release_all();
      throw;
    }
    session_.open(std::move(plan_), eps_);
    for (const auto& [rank, reason] : lost_) note_loss_event(rank, reason, 0);
    session_.record_events(std::exchange(loss_events_, {}));
    if (static_cast<int>(lost_.size()) == n_) {
      release_all();
      if (!refused_.empty()) {  // the hosts are the finding
        Summary s = session_.write_summary(true);
        print_summary(std::cerr, "burn", s.findings);
        std::cerr << "burn: every rank is on a refused host; nothing ran\n";
        return kExitFindings;
      }
      // Nothing can run: an environment problem (no device, no network), not a fabric finding.
      std::cerr << "ibburn: no rank could start; first reason: " << lost_.begin()->second << "\n";
      return kExitEnvironment;
    }
    const Summary s = session_.run();
    release_all();
    const int rc = session_.conclude(s, fmt::format("{} stage(s) run", session_.stages().size()));
    if (rc != kExitFindings || !environment_failure_ || flow_ran_or_failed_otherwise_) return rc;
    // Every flow failed on its hosts' environment (memory not pinned, a port down): the burn
    // never reached the fabric, which it must not be read as judging.
    std::cerr << "ibburn: no flow could run on these hosts; first reason: " << *environment_failure_ << "\n";
    return kExitEnvironment;
  }

  // The ranks lost so far and, mid-stage, the stage in progress from its samples.
  void add_to(SummaryInput& in) const override {
    if (current_) in.stages.push_back(merge_stage(stage_index_, *current_, live_reports(), lost_, true, refused_));
    in.lost = lost_;
    in.port_counters = port_rise_;
  }
  void add_to(Summary& s) const override { add_host_checks(s); }

  void follow_up_starting(int, const Stage& stage) override {
    // a follow-up (localisation probe) an observer asked for
    std::cerr << fmt::format("burn: follow-up stage \"{}\" ({} flows)\n", stage.name, stage.flows.size());
  }

 private:
  std::string who(int rank) const {
    const auto& e = eps_[rank];
    if (e.host.empty()) return fmt::format("rank {}", rank);
    if (e.endpoint.empty()) return fmt::format("rank {} ({})", rank, e.host);
    return fmt::format("rank {} ({} {})", rank, e.host, e.endpoint);
  }

  // Ranks connect directly or through their host's relay, whose link carries a route per
  // rank (burn/control_relay.h). A rank's channel is its own once its Hello arrived.
  void accept_hellos() {
    const auto deadline = Clock::now() + o_.timeout;
    // The connections with ranks still to say Hello: a direct one's single channel, or a
    // relay's route -1 channel (it never says Hello) and its routes without theirs yet.
    std::unordered_map<Link*, std::vector<std::unique_ptr<Channel>>> open;
    LinkPoller poller;
    poller.add_fd(listener_.get());
    std::set<Link*> links;
    int known = 0;
    while (known < n_ && Clock::now() < deadline && !interrupted()) {
      std::vector<Link*> ready;
      for (Link* link : poller.wait(100)) {
        if (link) {
          ready.push_back(link);
          continue;
        }
        for (Fd c; (c = accept_tcp(listener_.get(), Clock::now()));) {  // the listener
          auto ch = std::make_unique<Channel>(std::move(c));
          Link* l = ch->link().get();
          poller.add(l);
          ready.push_back(l);
          open[l].push_back(std::move(ch));
        }
      }
      for (Link* link : ready) {
        auto it = open.find(link);
        if (it == open.end()) continue;
        auto& channels = it->second;
        const std::shared_ptr<Link> keep = channels.front()->link();
        for (std::size_t i = 0; i < channels.size(); ++i) {  // grows by a relay's new routes
          if (auto hello = first_hello(*channels[i])) {
            const int rank = hello->rank;
            eps_[rank] = hello->endpoint;
            if (hello->host_check) host_checks_[rank] = *hello->host_check;
            if (hello->error) lost_[rank] = fmt::format("{}: could not start: {}", who(rank), *hello->error);
            links.insert(link);
            ch_[rank] = std::move(channels[i]);
            ++known;
          }
          for (int route : keep->take_new_routes())  // read in this same pass
            if (route >= 0) channels.push_back(std::make_unique<Channel>(keep, route));
        }
        std::erase_if(channels, [](const auto& c) { return !c || c->closed(); });
        if (keep->closed() || channels.empty()) {
          poller.remove(link);
          open.erase(it);
        }
      }
    }
    for (int r = 0; r < n_; ++r)
      if (!ch_[r] && !lost_.count(r))
        lost_[r] = fmt::format("{}: never reached rank 0's control channel within {} s", who(r),
                               std::chrono::duration_cast<std::chrono::seconds>(o_.timeout).count());
    if (links.size() < static_cast<std::size_t>(known))
      std::cerr << fmt::format("burn: {} ranks reached rank 0 over {} connections (host relays)\n", known,
                               links.size());
    refuse_failed_hosts();
  }

  // The Hello a new channel sent, if it is one rank 0 takes: its token, a rank of the job not
  // yet known, and on a relay's route the rank of that route.
  std::optional<Hello> first_hello(Channel& ch) {
    for (auto& m : ch.read_available()) {
      auto* hello = std::get_if<Hello>(&m);
      if (!hello || hello->token != token_) continue;
      if (!ch.is_route(-1) && !ch.is_route(hello->rank)) continue;
      if (hello->rank < 0 || hello->rank >= n_ || ch_[hello->rank]) continue;
      return std::move(*hello);
    }
    return std::nullopt;
  }

  // A host whose preflight found errors measures itself, not the fabric: its ranks take no
  // part (they stay connected and are released at the end), unless --force.
  void refuse_failed_hosts() {
    for (const auto& [checker, report] : host_checks_) {
      if (report.ok) continue;
      const std::string& host = eps_[checker].host;
      std::string why = report.error.value_or("");
      for (const auto& f : report.findings)
        if (f.severity >= Severity::Error) {
          why = f.message;
          break;
        }
      std::cerr << fmt::format("burn: host check failed on {}: {}{}\n", host, why,
                               o_.force ? " (--force: running anyway)" : "; its ranks are refused (--force runs them)");
      if (o_.force) continue;
      for (int r = 0; r < n_; ++r)
        if (eps_[r].host == host && !lost_.count(r)) {
          lost_[r] = fmt::format("{}: refused: host check failed: {}", who(r), why);
          refused_.insert(r);
        }
    }
  }

  // The host checks in the summary: every host's answer, and findings for those that failed.
  void add_host_checks(Summary& s) const {
    for (const auto& [checker, report] : host_checks_) {
      const std::string& host = eps_[checker].host;
      const bool ok = report.ok;
      s.doc.host_checks.push_back({host, !ok && !o_.force, report});
      if (ok) continue;
      for (Finding f : report.findings) {
        if (f.severity < Severity::Error) continue;
        f.kind = preflight_kind(f.kind);
        f.message = host + ": " + f.message;
        if (o_.force) f.severity = Severity::Warning;
        s.findings.push_back(std::move(f));
      }
      if (report.error)
        s.findings.push_back({FindingKind::HostCheckFailed,
                              o_.force ? Severity::Warning : Severity::Error,
                              host + ": " + *report.error,
                              {{host, 0}},
                              {}});
      s.doc.pass = false;
    }
  }

  // Queues a message for each rank, then writes each link at once (a relay's ranks' messages
  // in one go, 2 s per link). Ranks whose channel broke are lost, when lose_broken.
  template <class Ranks>
  void send_to(const Ranks& ranks, const std::function<Message(int)>& make, bool lose_broken = true,
               std::chrono::milliseconds per_link = 2s) {
    std::unordered_set<Link*> links;
    for (int r : ranks)
      if (ch_[r]) {
        ch_[r]->queue(make(r));
        links.insert(ch_[r]->link().get());
      }
    for (Link* link : links) link->flush_by(Clock::now() + per_link);
    if (!lose_broken) return;
    for (int r : ranks)
      if (ch_[r] && ch_[r]->closed()) lose(r, "control connection broken (" + ch_[r]->close_reason() + ")");
    record_losses();
  }

  // Every rank still connected: the run is over.
  void release_all() {
    std::vector<int> all(static_cast<std::size_t>(n_));
    std::iota(all.begin(), all.end(), 0);
    send_to(
        all, [](int) -> Message { return Done{}; }, false, 1s);
  }

  void note_loss_event(int rank, const std::string& reason, int stage) {
    json ev{{"type", "rank_lost"},     {"rank", rank},
            {"stage", stage},          {"reason", reason},
            {"host", eps_[rank].host}, {"endpoint", eps_[rank].endpoint}};
    if (!loss_events_.empty()) loss_events_ += '\n';
    loss_events_ += ev.dump();
  }

  // A rank is lost for the rest of the run. Its event is written down by record_losses() at the
  // end of the same pass, because when MPI aborts the job after a death this process has about
  // a second left; one pass may lose thousands (a relay's link, a deadline at 32k ranks).
  void lose(int rank, const std::string& why) {
    if (lost_.count(rank)) return;
    lost_[rank] = fmt::format("{}: {}", who(rank), why);
    if (ch_[rank]) ch_[rank]->close(why);
    ch_[rank].reset();
    note_loss_event(rank, lost_[rank], stage_index_);
    lost_in_pass_.push_back(rank);
  }

  // The pass's losses: their events in one durable append, a line each on stderr (the first
  // few when there are many: results.jsonl has every one), then the summary.
  void record_losses() {
    session_.record_events(std::exchange(loss_events_, {}));
    if (lost_in_pass_.empty()) return;
    constexpr std::size_t kPrinted = 8;
    for (std::size_t i = 0; i < lost_in_pass_.size() && i < kPrinted; ++i)
      std::cerr << "burn: lost " << lost_[lost_in_pass_[i]] << "\n";
    if (lost_in_pass_.size() > kPrinted)
      std::cerr << fmt::format("burn: ... and {} more ranks lost (each in {})\n", lost_in_pass_.size() - kPrinted,
                               session_.results_path());
    lost_in_pass_.clear();
    session_.write_summary(false);
  }

  std::vector<RankReport> live_reports() const {
    std::vector<RankReport> out;
    for (const auto& [rank, sides] : live_) {
      RankReport r{rank, {}};
      for (const auto& [key, s] : sides) r.sides.push_back(s);
      out.push_back(std::move(r));
    }
    for (const auto& r : synthetic_) out.push_back(r);
    return out;
  }

  void take_sample(int rank, const Sample& m) {
    for (const auto& x : m.sides) {
      SideReport& s = live_[rank][std::tuple(x.flow, x.from, x.rx)];
      s.flow = x.flow;
      s.from = x.from;
      s.to = x.to;
      s.rx = x.rx;
      s.bytes = x.bytes;
      s.seconds = m.seconds;
      s.samples_gbps.push_back(x.gbps);
    }
  }

  // Waits until every rank in `ranks` sent a message M for this stage, or the deadline.
  // Returns them by rank; ranks that close or miss the deadline are lost.
  template <class M>
  std::map<int, M> collect(const std::set<int>& ranks, SteadyTime deadline, const std::function<void()>& tick = {}) {
    const std::string type = message_type(Message{M{}});
    std::map<int, M> got;
    // The waiting ranks by the link they share (a relay's link carries its host's ranks): a
    // pass reads only the ranks of the links epoll found readable.
    std::unordered_map<Link*, std::vector<int>> on_link;
    std::size_t left = 0;
    for (int r : ranks)
      if (ch_[r]) {
        on_link[ch_[r]->link().get()].push_back(r);
        ++left;
      }
    LinkPoller poller;
    for (const auto& [link, rs] : on_link) poller.add(link);
    auto waiting = [&](int r) { return ch_[r] && !got.count(r); };
    auto still_waiting = [&] {
      std::vector<int> out;
      for (const auto& [link, rs] : on_link)
        for (int r : rs)
          if (waiting(r)) out.push_back(r);
      return out;
    };
    bool stop_sent = false, first_pass = true;  // the first pass reads lines already filed
    while (left > 0) {
      if (interrupted() && !stop_sent) {
        stop_sent = true;
        partial_ = true;
        session_.write_summary(false);  // first, from the samples: MPI may kill this process soon
        send_to(
            still_waiting(), [&](int) -> Message { return Stop{stage_index_}; }, false, 200ms);
        deadline = std::min(deadline, Clock::now() + 1s);
      }
      if (Clock::now() >= deadline) {
        for (int r : still_waiting())
          lose(r, interrupted() ? fmt::format("no {} after the interrupt", type)
                                : fmt::format("sent no {} within the deadline (hung or overloaded)", type));
        record_losses();
        break;
      }
      std::vector<Link*> ready;
      if (first_pass)
        for (const auto& [link, rs] : on_link) ready.push_back(link);
      else
        ready = poller.wait(100);
      first_pass = false;
      for (Link* link : ready) {
        auto it = on_link.find(link);
        if (it == on_link.end()) continue;
        for (int r : it->second) {
          if (!waiting(r)) continue;
          for (const auto& m : ch_[r]->read_available()) {
            if (stage_of(m) != stage_index_) continue;
            if (const auto* sample = std::get_if<Sample>(&m))
              take_sample(r, *sample);
            else if (const auto* x = std::get_if<M>(&m))
              got[r] = *x;
          }
          if (got.count(r)) {
            --left;
          } else if (ch_[r]->closed()) {
            lose(r, "control connection closed (" + ch_[r]->close_reason() + "): process died or was killed");
            --left;
          }
        }
      }
      record_losses();
      if (tick) tick();
    }
    return got;
  }

  // The stage's flows set up, connected, run and reported: Setup, Connect, Start to every
  // rank involved, their answers collected within the deadlines.
  StageResult run_stage(int index, const Stage& st) override {
    stage_index_ = index;
    current_ = &st;
    live_.clear();
    synthetic_.clear();
    partial_ = false;
    std::map<int, std::vector<FlowSetup>> flows_of;
    std::set<int> involved;
    for (std::uint32_t id = 0; id < st.flows.size(); ++id) {
      const Flow& f = st.flows[id];
      if (lost_.count(f.src) || lost_.count(f.dst)) {
        flow_ran_or_failed_otherwise_ = true;
        continue;
      }
      const FlowSetup setup{id, f.src, f.dst, f.bidirectional, f.streams > 0 ? f.streams : o_.streams};
      for (int r : {f.src, f.dst}) {
        flows_of[r].push_back(setup);
        involved.insert(r);
      }
    }
    send_to(involved, [&](int r) -> Message { return Setup{stage_index_, flows_of[r]}; });
    auto addrs = collect<Addresses>(involved, Clock::now() + o_.timeout);

    std::map<int, FlowTexts> peers, reasons;
    for (std::uint32_t id = 0; id < st.flows.size(); ++id) {
      const Flow& f = st.flows[id];
      if (!involved.count(f.src)) continue;
      auto blob = [&](int r) -> std::string {
        auto it = addrs.find(r);
        if (it == addrs.end()) return "";
        auto a = it->second.addrs.find(id);
        return a == it->second.addrs.end() ? "" : a->second;
      };
      std::string a = blob(f.src), b = blob(f.dst);
      if (!a.empty() && !b.empty() && !lost_.count(f.src) && !lost_.count(f.dst)) {
        flow_ran_or_failed_otherwise_ = true;
        peers[f.src][id] = b;
        peers[f.dst][id] = a;
        continue;
      }
      std::string why;
      bool environment = false;
      for (int r : {f.src, f.dst})
        if (auto it = addrs.find(r); it != addrs.end() && it->second.failures.count(id)) {
          why = it->second.failures.at(id);
          const auto& env = it->second.environment;
          environment = std::find(env.begin(), env.end(), id) != env.end();
        }
      if (why.empty()) why = "set-up failed at the other end";
      if (environment && !environment_failure_) environment_failure_ = why;
      if (!environment) flow_ran_or_failed_otherwise_ = true;
      reasons[f.src][id] = why;
      reasons[f.dst][id] = why;
      fail_flow(f, id, why);
    }
    send_to(involved, [&](int r) -> Message { return Connect{stage_index_, peers[r], reasons[r]}; });
    collect<Connected>(involved, Clock::now() + o_.timeout + 5s);

    send_to(involved, [&](int) -> Message { return Start{stage_index_, static_cast<long long>(o_.duration.count())}; });
    const auto t0 = Clock::now();
    auto next_print = t0 + 1s, next_summary = t0 + kSummaryRefresh;
    auto tick = [&] {
      // A long stage refreshes summary.json from the samples, so even rank 0's own sudden
      // death loses at most kSummaryRefresh of it.
      if (Clock::now() >= next_summary) {
        next_summary += kSummaryRefresh;
        session_.write_summary(false);
      }
      if (o_.quiet || Clock::now() < next_print) return;
      next_print += 1s;
      std::vector<LiveRate> rates;
      for (const auto& [rank, sides] : live_)
        for (const auto& [key, s] : sides)
          if (s.rx && !s.samples_gbps.empty()) rates.push_back({s.from, s.to, s.samples_gbps.back()});
      std::cerr << progress_line(stage_index_, static_cast<int>(session_.plan().stages.size()), st.name,
                                 std::chrono::duration<double>(Clock::now() - t0).count(),
                                 std::chrono::duration<double>(o_.duration).count(), rates, eps_)
                << "\n";
    };
    auto reports = collect<Report>(involved, t0 + o_.duration + o_.timeout, tick);
    std::vector<RankReport> rr;
    for (const auto& [rank, m] : reports) {
      rr.push_back({rank, m.sides});
      if (auto before = addrs.find(rank); before != addrs.end())
        add_counters(port_rise_[rank], counter_rise(before->second.port_counters, m.port_counters));
    }
    for (const auto& r : synthetic_) rr.push_back(r);
    // Ranks lost during this stage keep the samples they sent before they went.
    for (const auto& r : live_reports())
      if (lost_.count(r.rank) && !reports.count(r.rank)) rr.push_back(r);
    current_ = nullptr;  // what it measured is the session's from here
    return merge_stage(stage_index_, st, rr, lost_, partial_ || interrupted(), refused_);
  }

  // A flow that never started: its receiving ends report the reason.
  void fail_flow(const Flow& f, std::uint32_t id, const std::string& why) {
    auto add = [&](int from, int to) {
      RankReport r{to, {}};
      SideReport s;
      s.flow = id;
      s.from = from;
      s.to = to;
      s.rx = true;
      s.failure = why;
      r.sides.push_back(s);
      synthetic_.push_back(r);
    };
    add(f.src, f.dst);
    if (f.bidirectional) add(f.dst, f.src);
  }

  int n_;
  Fd listener_;
  std::string token_;
  const BurnOptions& o_;
  Session session_;
  Plan plan_;  // the options' plan, until the session opens with it (or with the observers')
  std::vector<std::unique_ptr<Channel>> ch_;
  std::vector<EndpointInfo> eps_;
  LostRanks lost_;
  std::set<int> refused_;                       // lost because their host failed its check
  std::map<int, HostCheckAnswer> host_checks_;  // by the rank that checked its host
  const Stage* current_ = nullptr;
  int stage_index_ = 0;
  bool partial_ = false;
  std::string loss_events_;        // results.jsonl lines not yet written (record_losses)
  std::vector<int> lost_in_pass_;  // not yet printed
  std::map<int, std::map<std::tuple<std::uint32_t, int, bool>, SideReport>> live_;
  std::vector<RankReport> synthetic_;
  std::map<int, PortCounterValues> port_rise_;      // by rank: its port's counters' rise, stages summed
  std::optional<std::string> environment_failure_;  // the first flow failed by its hosts' environment
  bool flow_ran_or_failed_otherwise_ = false;
};

}  // namespace

int run_coordinator(CoordinatorInput in, const BurnOptions& options) {
  return Coordinator(std::move(in), options).run();
}

}  // namespace ibburn::burn
