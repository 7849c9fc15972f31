#include "burn/session.h"

#include <iostream>

#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/file_io.h"
#include "common/interrupt.h"

namespace ibburn::burn {

Session::Session(const SessionOptions& o, StageRunner& runner, std::vector<std::shared_ptr<SessionObserver>> observers)
    : o_(o),
      runner_(runner),
      observers_(std::move(observers)),
      results_path_(o.out_dir + "/results.jsonl"),
      summary_path_(o.out_dir + "/summary.json") {
  std::erase(observers_, nullptr);
  make_dirs(o_.out_dir);
}

std::optional<Plan> Session::observers_plan(const std::vector<EndpointInfo>& endpoints) {
  for (const auto& ob : observers_)
    if (auto p = ob->plan_for(endpoints)) return p;
  return std::nullopt;
}

void Session::open(Plan plan, std::vector<EndpointInfo> endpoints) {
  plan_ = std::move(plan);
  endpoints_ = std::move(endpoints);
  write_file_atomic(results_path_, run_header(o_, plan_, endpoints_).dump() + "\n");
  write_summary(false);
}

void Session::record_events(const std::string& lines) {
  if (!lines.empty()) append_line_durable(results_path_, lines);
}

Summary Session::write_summary(bool complete) {
  SummaryInput in;
  in.transport = to_string(o_.transport);
  in.stages_planned = static_cast<int>(plan_.stages.size());
  in.complete = complete;
  in.interrupted = interrupted();
  in.stages = stages_;
  in.endpoints = endpoints_;
  in.options = {o_.threshold, o_.expect_gbps, o_.max_retry_rate};
  runner_.add_to(in);
  Summary s = make_summary(in);
  runner_.add_to(s);
  for (const auto& ob : observers_) ob->explain(s, endpoints_);
  burn::write_summary(summary_path_, s.doc);
  return s;
}

Summary Session::run_and_record(std::size_t i) {
  const int index = static_cast<int>(i) + 1;
  for (const auto& ob : observers_) ob->stage_starting(index, plan_.stages[i]);
  StageResult r = runner_.run_stage(index, plan_.stages[i]);
  for (const auto& ob : observers_) ob->stage_finished(r);
  append_line_durable(results_path_, to_json(r).dump());
  stages_.push_back(std::move(r));
  Summary s = write_summary(false);
  runner_.stage_recorded(stages_.back(), s);
  return s;
}

std::optional<Stage> Session::follow_up(const Summary& last, int extra_run) {
  for (const auto& ob : observers_)
    if (auto st = ob->follow_up(last, endpoints_, extra_run)) return st;
  return std::nullopt;
}

Summary Session::run() {
  Summary last;
  for (std::size_t i = 0; i < plan_.stages.size() && !interrupted(); ++i) last = run_and_record(i);
  for (int extra = 0; !observers_.empty() && !interrupted(); ++extra) {
    auto next = follow_up(last, extra);
    if (!next) break;
    plan_.stages.push_back(std::move(*next));
    runner_.follow_up_starting(static_cast<int>(plan_.stages.size()), plan_.stages.back());
    last = run_and_record(plan_.stages.size() - 1);
  }
  interrupted_ = interrupted();
  return write_summary(!interrupted_);
}

int Session::conclude(const Summary& last, const std::string& what_ran) const {
  print_summary(std::cerr, "burn", last.findings);
  std::cerr << fmt::format("burn: {}, results in {}\n", what_ran, o_.out_dir);
  if (interrupted_) return kExitInterrupted;
  return last.doc.pass ? kExitOk : kExitFindings;
}

}  // namespace ibburn::burn
