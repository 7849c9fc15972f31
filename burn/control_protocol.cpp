#include "burn/control_protocol.h"

#include <fmt/format.h>

#include "common/json_fields.h"

namespace ibburn::burn {
namespace {

using nlohmann::json;

// A message's fields, read strictly, so a peer that sends something else is named precisely
// instead of being read as zeros.
using Fields = JsonFields;

Fields message_fields(const json& j, const std::string& type) {
  return Fields(j, [type](const std::string& field, const std::string& what) {
    if (field.empty()) throw ProtocolError(fmt::format("control message \"{}\": {}", type, what));
    throw ProtocolError(fmt::format("control message \"{}\": field \"{}\": {}", type, field, what));
  });
}

FlowTexts flow_texts(const Fields& f, const std::string& name) {
  const json& o = *f.value(name);
  if (!o.is_object()) f.fail(name, "expected an object of flow id -> text");
  FlowTexts out;
  for (const auto& [key, value] : o.items()) {
    std::uint32_t id = 0;
    try {
      std::size_t used = 0;
      id = static_cast<std::uint32_t>(std::stoul(key, &used));
      if (used != key.size()) throw std::invalid_argument(key);
    } catch (const std::exception&) {
      f.fail(name, fmt::format("key \"{}\" is not a flow id", key));
    }
    if (!value.is_string()) f.fail(name + "." + key, fmt::format("wrong type ({})", value.type_name()));
    out[id] = value.get<std::string>();
  }
  return out;
}

json texts_json(const FlowTexts& t) {
  json j = json::object();
  for (const auto& [id, text] : t) j[std::to_string(id)] = text;
  return j;
}

SideReport read_side_report(const Fields& f) {
  SideReport s;
  s.flow = f.get<std::uint32_t>("flow");
  s.from = f.get<int>("from");
  s.to = f.get<int>("to");
  s.rx = f.get<bool>("rx");
  s.bytes = f.get<std::uint64_t>("bytes");
  s.seconds = f.get<double>("seconds");
  s.samples_gbps = f.get<std::vector<double>>("samples_gbps");
  s.errors = f.get<std::uint64_t>("errors");
  s.mismatches = f.get<std::uint64_t>("mismatches");
  s.failure = f.optional<std::string>("failure").value_or("");
  return s;
}

template <class M>
Fields fields_of(const json& j) {
  return message_fields(j, message_type(Message{M{}}));
}

}  // namespace

HostCheckAnswer read_host_check(const Fields& f) {
  HostCheckAnswer h;
  h.ok = f.get<bool>("ok");
  h.error = f.optional<std::string>("error");
  for (const auto& jf : f.array("findings")) {
    try {
      h.findings.push_back(finding_from_json(jf));
    } catch (const std::exception& e) {
      f.fail("findings", e.what());
    }
  }
  h.pairing = f.array("pairing");
  return h;
}

const char* message_type(const Message& m) {
  struct Name {
    const char* operator()(const Hello&) const { return "hello"; }
    const char* operator()(const Setup&) const { return "setup"; }
    const char* operator()(const Addresses&) const { return "addresses"; }
    const char* operator()(const Connect&) const { return "connect"; }
    const char* operator()(const Connected&) const { return "connected"; }
    const char* operator()(const Start&) const { return "start"; }
    const char* operator()(const Sample&) const { return "sample"; }
    const char* operator()(const Report&) const { return "report"; }
    const char* operator()(const Stop&) const { return "stop"; }
    const char* operator()(const Done&) const { return "done"; }
  };
  return std::visit(Name{}, m);
}

std::optional<int> stage_of(const Message& m) {
  return std::visit(
      [](const auto& x) -> std::optional<int> {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Addresses> || std::is_same_v<T, Connected> || std::is_same_v<T, Sample> ||
                      std::is_same_v<T, Report>)
          return x.stage;
        else
          return std::nullopt;
      },
      m);
}

void to_json(json& j, const Boot& m) {
  if (m.error) {
    j = {{"error", *m.error}, {"code", m.code}};
    return;
  }
  j = {{"port", m.port}, {"addresses", m.addresses}, {"token", m.token}};
}

void from_json(const json& j, Boot& m) {
  Fields f = message_fields(j, "boot");
  m = Boot{};
  m.error = f.optional<std::string>("error");
  if (m.error) {
    m.code = f.get<int>("code");
    return;
  }
  m.port = f.get<std::uint16_t>("port");
  m.addresses = f.get<std::vector<std::string>>("addresses");
  m.token = f.get<std::string>("token");
}

void to_json(json& j, const HostCheckAnswer& m) {
  j = {{"ok", m.ok}, {"findings", json::array()}, {"pairing", m.pairing}};
  for (const auto& f : m.findings) j["findings"].push_back(to_json(f));
  if (m.error) j["error"] = *m.error;
}

void from_json(const json& j, HostCheckAnswer& m) { m = read_host_check(message_fields(j, "host_check")); }

void to_json(json& j, const Hello& m) {
  j = {{"type", "hello"}, {"rank", m.rank}, {"token", m.token}, {"endpoint", to_json(m.endpoint)}};
  if (m.host_check) to_json(j["host_check"], *m.host_check);
  if (m.error) j["error"] = *m.error;
}

void from_json(const json& j, Hello& m) {
  Fields f = fields_of<Hello>(j);
  m.rank = f.get<int>("rank");
  m.token = f.get<std::string>("token");
  m.endpoint = endpoint_from_json(f.object("endpoint"));
  m.host_check.reset();
  if (j.contains("host_check")) m.host_check = read_host_check(f.object("host_check"));
  m.error = f.optional<std::string>("error");
}

void to_json(json& j, const Setup& m) {
  json flows = json::array();
  for (const auto& x : m.flows)
    flows.push_back(
        {{"id", x.id}, {"src", x.src}, {"dst", x.dst}, {"bidirectional", x.bidirectional}, {"streams", x.streams}});
  j = {{"type", "setup"}, {"stage", m.stage}, {"flows", flows}};
}

void from_json(const json& j, Setup& m) {
  Fields f = fields_of<Setup>(j);
  m.stage = f.get<int>("stage");
  m.flows.clear();
  for (const auto& x : f.objects("flows"))
    m.flows.push_back({x.get<std::uint32_t>("id"), x.get<int>("src"), x.get<int>("dst"), x.get<bool>("bidirectional"),
                       x.get<int>("streams")});
}

void to_json(json& j, const Addresses& m) {
  j = {{"type", "addresses"},          {"stage", m.stage},
       {"addrs", texts_json(m.addrs)}, {"failures", texts_json(m.failures)},
       {"environment", m.environment}, {"port_counters", m.port_counters}};
}

void from_json(const json& j, Addresses& m) {
  Fields f = fields_of<Addresses>(j);
  m.stage = f.get<int>("stage");
  m.addrs = flow_texts(f, "addrs");
  m.failures = flow_texts(f, "failures");
  m.environment = f.get<std::vector<std::uint32_t>>("environment");
  m.port_counters = f.get<PortCounterValues>("port_counters");
}

void to_json(json& j, const Connect& m) {
  j = {{"type", "connect"}, {"stage", m.stage}, {"peers", texts_json(m.peers)}, {"reasons", texts_json(m.reasons)}};
}

void from_json(const json& j, Connect& m) {
  Fields f = fields_of<Connect>(j);
  m.stage = f.get<int>("stage");
  m.peers = flow_texts(f, "peers");
  m.reasons = flow_texts(f, "reasons");
}

void to_json(json& j, const Connected& m) {
  j = {{"type", "connected"}, {"stage", m.stage}, {"failures", texts_json(m.failures)}};
}

void from_json(const json& j, Connected& m) {
  Fields f = fields_of<Connected>(j);
  m.stage = f.get<int>("stage");
  m.failures = flow_texts(f, "failures");
}

void to_json(json& j, const Start& m) { j = {{"type", "start"}, {"stage", m.stage}, {"duration_ms", m.duration_ms}}; }

void from_json(const json& j, Start& m) {
  Fields f = fields_of<Start>(j);
  m.stage = f.get<int>("stage");
  m.duration_ms = f.get<long long>("duration_ms");
}

void to_json(json& j, const Sample& m) {
  json sides = json::array();
  for (const auto& s : m.sides)
    sides.push_back(
        {{"flow", s.flow}, {"from", s.from}, {"to", s.to}, {"rx", s.rx}, {"bytes", s.bytes}, {"gbps", s.gbps}});
  j = {{"type", "sample"}, {"stage", m.stage}, {"seconds", m.seconds}, {"sides", sides}};
}

void from_json(const json& j, Sample& m) {
  Fields f = fields_of<Sample>(j);
  m.stage = f.get<int>("stage");
  m.seconds = f.get<double>("seconds");
  m.sides.clear();
  for (const auto& x : f.objects("sides"))
    m.sides.push_back({x.get<std::uint32_t>("flow"), x.get<int>("from"), x.get<int>("to"), x.get<bool>("rx"),
                       x.get<std::uint64_t>("bytes"), x.get<double>("gbps")});
}

void to_json(json& j, const Report& m) {
  json sides = json::array();
  for (const auto& s : m.sides) sides.push_back(to_json(s));
  j = {{"type", "report"}, {"stage", m.stage}, {"sides", sides}, {"port_counters", m.port_counters}};
}

void from_json(const json& j, Report& m) {
  Fields f = fields_of<Report>(j);
  m.stage = f.get<int>("stage");
  m.sides.clear();
  for (const auto& x : f.objects("sides")) m.sides.push_back(read_side_report(x));
  m.port_counters = f.get<PortCounterValues>("port_counters");
}

void to_json(json& j, const Stop& m) { j = {{"type", "stop"}, {"stage", m.stage}}; }

void from_json(const json& j, Stop& m) { m.stage = fields_of<Stop>(j).get<int>("stage"); }

void to_json(json& j, const Done&) { j = {{"type", "done"}}; }

void from_json(const json& j, Done&) { fields_of<Done>(j); }

void to_json(json& j, const Message& m) {
  std::visit([&](const auto& x) { to_json(j, x); }, m);
}

Message message_from_json(const json& j) {
  if (!j.is_object()) throw ProtocolError("control message: expected an object, got " + std::string(j.type_name()));
  if (!j.contains("type") || !j.at("type").is_string())
    throw ProtocolError("control message: field \"type\": missing or not a string");
  const std::string type = j.at("type").get<std::string>();
  Message out;
  bool known = false;
  auto try_as = [&](auto m) {
    if (known || type != message_type(Message{m})) return;
    from_json(j, m);
    out = std::move(m);
    known = true;
  };
  try_as(Hello{});
  try_as(Setup{});
  try_as(Addresses{});
  try_as(Connect{});
  try_as(Connected{});
  try_as(Start{});
  try_as(Sample{});
  try_as(Report{});
  try_as(Stop{});
  try_as(Done{});
  if (!known) throw ProtocolError("control message \"" + type + "\": unknown type");
  return out;
}

}  // namespace ibburn::burn
