#pragma once
// Strict reading of JSON objects, whichever parser built them. The rules are written once,
// here: a missing field, a value of the wrong type and an integer outside its range each fail
// naming the value's place in the document ("flows[0].src", "nodes[3].ports[1].lid"), never
// becoming a default; optional fields are asked for as optional, so a reader says which ones
// may be absent. A field renamed by a writer thus fails at its reader.
//
// A `Tree` adapts one parser's values (common/json_fields.h: nlohmann, for the control
// protocol, summary.json, results.jsonl and findings; common/json_document.h: simdjson's DOM,
// for the large persisted snapshots). The document's owner chooses the exception (the control
// protocol throws ProtocolError, a file reader InputError naming the file) and the wording.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ibburn {

// Where a value sits: its parent's place, and its key in the parent, followed by [index] when
// it is an element of the array at that key. Rendered only on failure, so a reader pays
// nothing per field for naming it. Keys are not copied: they are the literals readers ask for.
struct JsonPlace {
  const JsonPlace* parent = nullptr;
  std::string_view key;  // empty for the root
  std::optional<std::size_t> index;

  std::string path() const;  // "nodes[3].ports[1]"; "" for the root
};

// The two vocabularies the documents' messages use (both pinned by tests and read by people).
enum class JsonWording {
  Message,   // control messages and run files: "wrong type (string)", "expected an object"
  Document,  // snapshots: "must be an integer", "must be an object"
};

// Receives the failing value's place ("" = the document itself) and what is wrong. Must throw.
using JsonFail = std::function<void(const std::string& place, const std::string& what)>;

struct JsonRules {
  JsonFail fail;
  JsonWording wording;
};

// The words for a problem, by wording. `T` is the type the reader asked for.
std::string json_not_object(JsonWording w);
std::string json_not_array(JsonWording w);
template <class T>
std::string json_wrong_type(JsonWording w, std::string_view found) {
  if (w == JsonWording::Message) return "wrong type (" + std::string(found) + ")";
  if constexpr (std::is_same_v<T, bool>)
    return "must be true or false";
  else if constexpr (std::is_floating_point_v<T>)
    return "must be a number";
  else if constexpr (std::is_unsigned_v<T>)
    return "must be a non-negative integer";
  else if constexpr (std::is_integral_v<T>)
    return "must be an integer";
  else
    return "must be a string";
}

// One object of a document, its place, and the document's rules.
//
// A Tree provides: `Value`, a cheap handle to a value, and `root(Root)`, the handle of what a
// caller passes for a document's top; `kWording`, its documents' usual words;
// `object(Value)` and `is_array(Value)`, the kinds; `find(Value object, key)`, a member or
// nullopt; `Array` and `array_of(Value)`, an array to iterate, and `element(e)`, an element's
// Value; the scalar reads `boolean`, `string`, `number`, `int64` and `uint64`, each nullopt
// when the value has another type; `type_name(Value)`; and `convert<T>(Value, fail)` for the
// other types a caller may ask `get` for (vectors, maps: only nlohmann's tree has them).
template <class Tree>
class JsonReader {
 public:
  using Value = typename Tree::Value;
  using Array = typename Tree::Array;

  // A document's top object; fails "expected an object" / "must be an object" otherwise.
  JsonReader(typename Tree::Root top, JsonFail fail, JsonWording wording = Tree::kWording)
      : JsonReader(Tree::root(top), JsonPlace{}, nullptr,
                   std::make_shared<const JsonRules>(JsonRules{std::move(fail), wording})) {}

  bool has(std::string_view key) const { return Tree::find(v_, key).has_value(); }

  Value value(std::string_view key) const {
    const std::optional<Value> v = Tree::find(v_, key);
    if (!v) fail(key, "missing");
    return *v;
  }

  template <class T>
  T get(std::string_view key) const {
    return as<T>(value(key), key);
  }
  template <class T>
  std::optional<T> optional(std::string_view key) const {
    const std::optional<Value> v = Tree::find(v_, key);
    if (!v) return std::nullopt;
    return as<T>(*v, key);
  }
  // An integer field within [min, max].
  template <class T>
  T get(std::string_view key, T min, T max) const {
    return in_range(as<T>(value(key), key), key, min, max);
  }
  template <class T>
  std::optional<T> optional(std::string_view key, T min, T max) const {
    const std::optional<Value> v = Tree::find(v_, key);
    if (!v) return std::nullopt;
    return in_range(as<T>(*v, key), key, min, max);
  }

  // `v`, the value at `key` of this object, as a T.
  template <class T>
  T as(Value v, std::string_view key) const {
    if constexpr (std::is_same_v<T, bool>) {
      return scalar<T>(Tree::boolean(v), v, key);
    } else if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>) {
      return T(scalar<std::string_view>(Tree::string(v), v, key));
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(scalar<T>(Tree::number(v), v, key));
    } else if constexpr (std::is_unsigned_v<T>) {
      return in_range<T>(scalar<T>(Tree::uint64(v), v, key), key, 0, std::numeric_limits<T>::max());
    } else if constexpr (std::is_integral_v<T>) {
      std::optional<int64_t> n = Tree::int64(v);
      if (!n && Tree::uint64(v)) n = INT64_MAX;  // only integers above INT64_MAX are not int64
      return in_range<T>(scalar<T>(n, v, key), key, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    } else {
      return Tree::template convert<T>(v, [&](const std::string& what) { fail(key, what); });
    }
  }

  JsonReader object(std::string_view key) const& { return JsonReader(value(key), JsonPlace{&place_, key, {}}, rules_); }
  JsonReader object(std::string_view key) const&& = delete;  // the child names its place through this one

  Array array(std::string_view key) const {
    const Value v = value(key);
    if (!Tree::is_array(v)) fail(key, json_not_array(rules_->wording));
    return Tree::array_of(v);
  }

  // Calls f(const JsonReader&) for each object of the array at `key`, its index in its place.
  template <class F>
  void each_object(std::string_view key, F&& f) const& {
    std::size_t i = 0;
    for (auto&& e : array(key)) f(JsonReader(Tree::element(e), JsonPlace{&place_, key, i++}, rules_));
  }
  // The same, collected.
  std::vector<JsonReader> objects(std::string_view key) const& {
    std::vector<JsonReader> out;
    each_object(key, [&](const JsonReader& r) { out.push_back(r); });
    return out;
  }
  std::vector<JsonReader> objects(std::string_view key) const&& = delete;

  Value json() const { return v_; }
  const JsonPlace& place() const { return place_; }

  // Throws through the rules' handler; an empty key names this object itself.
  [[noreturn]] void fail(std::string_view key, const std::string& what) const {
    const std::string path = key.empty() ? place_.path() : JsonPlace{&place_, key, {}}.path();
    rules_->fail(path, what);
    throw std::logic_error("JsonReader: the fail handler returned");
  }

 private:
  JsonReader(Value v, JsonPlace place, const JsonRules* rules, std::shared_ptr<const JsonRules> owner)
      : v_(v), place_(place), owner_(std::move(owner)), rules_(rules ? rules : owner_.get()) {
    if (!Tree::object(v_)) fail("", json_not_object(rules_->wording));
  }
  // Children share the rules of the document's top object, which outlives them.
  JsonReader(Value v, JsonPlace place, const JsonRules* rules) : JsonReader(v, place, rules, nullptr) {}

  template <class T, class S>
  S scalar(const std::optional<S>& s, Value v, std::string_view key) const {
    if (!s) fail(key, json_wrong_type<T>(rules_->wording, Tree::type_name(v)));
    return *s;
  }

  template <class T, class N>
  T in_range(N n, std::string_view key, T min, T max) const {
    if (std::cmp_less(n, min) || std::cmp_greater(n, max))
      fail(key, std::to_string(n) + " is outside " + std::to_string(min) + ".." + std::to_string(max));
    return static_cast<T>(n);
  }

  Value v_;
  JsonPlace place_;
  std::shared_ptr<const JsonRules> owner_;  // set on the top object only
  const JsonRules* rules_;
};

}  // namespace ibburn
