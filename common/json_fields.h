#pragma once
// Strict reading of one JSON object: a missing or mistyped field is an error naming its place
// ("flows[0].src"), never a default, so a field renamed by the writer fails at the reader.
// The owner chooses the exception: the burn's control protocol throws ProtocolError, a file
// reader InputError naming the file.
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ibburn {

class JsonFields {
 public:
  // Must throw. `field` is the field's place in the document ("" = the object itself).
  using Fail = std::function<void(const std::string& field, const std::string& what)>;

  JsonFields(const nlohmann::json& j, Fail fail, std::string path = "")
      : j_(j), fail_(std::move(fail)), path_(std::move(path)) {
    if (!j_.is_object()) this->fail("", "expected an object");
  }

  template <class T>
  T get(const std::string& name) const {
    return convert<T>(value(name), name);
  }

  template <class T>
  std::optional<T> optional(const std::string& name) const {
    if (!j_.contains(name)) return std::nullopt;
    return convert<T>(j_.at(name), name);
  }

  const nlohmann::json& value(const std::string& name) const {
    if (!j_.contains(name)) fail(name, "missing");
    return j_.at(name);
  }

  JsonFields object(const std::string& name) const { return JsonFields(value(name), fail_, where(name)); }

  // The objects of an array field, each with its index in the place.
  std::vector<JsonFields> objects(const std::string& name) const {
    const nlohmann::json& a = array(name);
    std::vector<JsonFields> out;
    for (std::size_t i = 0; i < a.size(); ++i) out.emplace_back(a[i], fail_, fmt::format("{}[{}]", where(name), i));
    return out;
  }

  const nlohmann::json& array(const std::string& name) const {
    if (!value(name).is_array()) fail(name, "expected an array");
    return j_.at(name);
  }

  const nlohmann::json& json() const { return j_; }

  [[noreturn]] void fail(const std::string& name, const std::string& what) const {
    fail_(where(name), what);
    throw std::logic_error("JsonFields: the fail handler returned");
  }

 private:
  std::string where(const std::string& name) const {
    if (path_.empty()) return name;
    return name.empty() ? path_ : path_ + "." + name;
  }

  template <class T>
  T convert(const nlohmann::json& v, const std::string& name) const {
    const bool fits = std::is_same_v<T, bool>          ? v.is_boolean()
                      : std::is_same_v<T, std::string> ? v.is_string()
                      : std::is_floating_point_v<T>    ? v.is_number()
                      : std::is_unsigned_v<T>          ? v.is_number_unsigned()
                      : std::is_integral_v<T>          ? v.is_number_integer()
                                                       : true;
    if (!fits) fail(name, fmt::format("wrong type ({})", v.type_name()));
    try {
      return v.get<T>();
    } catch (const nlohmann::json::exception& e) {
      fail(name, e.what());
    }
  }

  const nlohmann::json& j_;
  Fail fail_;
  std::string path_;
};

}  // namespace ibburn
