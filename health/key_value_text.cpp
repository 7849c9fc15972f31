#include "health/key_value_text.h"

#include "common/error.h"
#include "common/text.h"
#include "topo/text_scan.h"

namespace ibburn::health {

std::vector<KeyValue> parse_key_values(const std::string& text, const std::string& origin, const std::string& form) {
  std::vector<KeyValue> out;
  topo::scan::LineReader reader(text);
  std::string_view raw;
  while (reader.next(raw)) {
    std::string_view line = trim(raw);
    if (line.empty() || line.starts_with('#')) continue;
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) throw InputError(origin, reader.number(), "expected " + form);
    KeyValue kv{std::string(trim(line.substr(0, eq))), std::string(trim(line.substr(eq + 1))), reader.number()};
    if (kv.key.empty() || kv.value.empty()) throw InputError(origin, reader.number(), "expected " + form);
    out.push_back(std::move(kv));
  }
  return out;
}

}  // namespace ibburn::health
