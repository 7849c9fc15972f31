#pragma once
// Writes Prometheus text exposition: a family's # HELP and # TYPE lines, then its samples.
// Shared by the run's metrics (report/prometheus) and the health gauges (report/health_section).
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/prometheus.h"

namespace ibburn::report {

using Labels = std::vector<std::pair<std::string, std::string>>;

// A counter only ever rises (until its source resets) and is named *_total; a gauge is a value
// as measured, which most of a run's metrics are. Dashboards and alerts apply rate() or
// increase() to counters only.
enum class MetricType { Gauge, Counter };

class PrometheusWriter {
 public:
  void family(const std::string& name, const std::string& help, MetricType type = MetricType::Gauge) {
    name_ = name;
    os_ << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' '
        << (type == MetricType::Counter ? "counter" : "gauge") << '\n';
  }
  void sample(const Labels& labels, double value) {
    os_ << name_;
    if (!labels.empty()) {
      os_ << '{';
      for (size_t i = 0; i < labels.size(); ++i)
        os_ << (i ? "," : "") << labels[i].first << "=\"" << escape_label_value(labels[i].second) << '"';
      os_ << '}';
    }
    os_ << ' ' << fmt::format("{}", value) << '\n';
  }
  std::string str() const { return os_.str(); }

 private:
  std::ostringstream os_;
  std::string name_;
};

}  // namespace ibburn::report
