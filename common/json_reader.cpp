#include "common/json_reader.h"

namespace ibburn {

std::string JsonPlace::path() const {
  std::vector<const JsonPlace*> chain;
  for (const JsonPlace* p = this; p && p->parent; p = p->parent) chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!out.empty()) out += '.';
    out += (*it)->key;
    if ((*it)->index) out += "[" + std::to_string(*(*it)->index) + "]";
  }
  return out;
}

std::string json_not_object(JsonWording w) {
  return w == JsonWording::Message ? "expected an object" : "must be an object";
}

std::string json_not_array(JsonWording w) {
  return w == JsonWording::Message ? "expected an array" : "must be an array";
}

}  // namespace ibburn
