#include "burn/stage_plan.h"

#include <string>

#include "common/error.h"
#include "common/file_io.h"
#include "common/json_parse.h"

namespace ibburn::burn {
namespace {

int int_field(const nlohmann::json& j, const char* key, const std::string& where, const std::string& file,
              bool required, int fallback) {
  if (!j.contains(key)) {
    if (required) throw InputError(file, 0, where + ": missing \"" + key + "\"");
    return fallback;
  }
  const auto& v = j.at(key);
  if (!v.is_number_integer()) throw InputError(file, 0, where + ": \"" + key + "\" is not an integer");
  return v.get<int>();
}

}  // namespace

Plan plan_from_json(const nlohmann::json& j, int ranks, const std::string& file) {
  if (!j.is_object()) throw InputError(file, 0, "a plan is a JSON object with \"stages\"");
  if (j.contains("version") && j.at("version") != 1)
    throw InputError(file, 0, "unsupported plan version " + j.at("version").dump());
  Plan p;
  if (j.contains("name") && j.at("name").is_string()) p.name = j.at("name").get<std::string>();
  if (!j.contains("stages") || !j.at("stages").is_array() || j.at("stages").empty())
    throw InputError(file, 0, "\"stages\" must be a non-empty array");
  int si = 0;
  for (const auto& js : j.at("stages")) {
    ++si;
    const std::string swhere = "stage " + std::to_string(si);
    if (!js.is_object() || !js.contains("flows") || !js.at("flows").is_array())
      throw InputError(file, 0, swhere + ": needs a \"flows\" array");
    Stage s;
    s.name = js.value("name", swhere);
    int fi = 0;
    for (const auto& jf : js.at("flows")) {
      ++fi;
      const std::string where = swhere + " flow " + std::to_string(fi);
      if (!jf.is_object()) throw InputError(file, 0, where + ": not an object");
      Flow f;
      f.src = int_field(jf, "src", where, file, true, 0);
      f.dst = int_field(jf, "dst", where, file, true, 0);
      f.streams = int_field(jf, "streams", where, file, false, 0);
      if (jf.contains("bidirectional")) {
        if (!jf.at("bidirectional").is_boolean())
          throw InputError(file, 0, where + ": \"bidirectional\" is not true/false");
        f.bidirectional = jf.at("bidirectional").get<bool>();
      }
      for (auto [name, v] : {std::pair{"src", f.src}, std::pair{"dst", f.dst}}) {
        if (v < 0 || v >= ranks)
          throw InputError(file, 0,
                           where + ": " + name + " " + std::to_string(v) +
                               (v < 0 ? " < 0" : " >= " + std::to_string(ranks) + " ranks"));
      }
      if (f.src == f.dst) throw InputError(file, 0, where + ": src and dst are both " + std::to_string(f.src));
      if (f.streams < 0) throw InputError(file, 0, where + ": streams < 0");
      s.flows.push_back(f);
    }
    if (s.flows.empty()) throw InputError(file, 0, swhere + ": no flows");
    p.stages.push_back(std::move(s));
  }
  return p;
}

Plan load_plan(const std::string& path, int ranks) {
  std::string text = read_file(path);
  return plan_from_json(parse_json(text, path), ranks, path);
}

nlohmann::json to_json(const Plan& p) {
  nlohmann::json j{{"version", 1}, {"name", p.name}, {"stages", nlohmann::json::array()}};
  for (const auto& s : p.stages) {
    nlohmann::json js{{"name", s.name}, {"flows", nlohmann::json::array()}};
    for (const auto& f : s.flows) {
      nlohmann::json jf{{"src", f.src}, {"dst", f.dst}, {"bidirectional", f.bidirectional}};
      if (f.streams > 0) jf["streams"] = f.streams;
      js["flows"].push_back(jf);
    }
    j["stages"].push_back(js);
  }
  return j;
}

}  // namespace ibburn::burn
