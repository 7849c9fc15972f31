#include "common/json_parse.h"

#include <algorithm>
#include <vector>

namespace ibburn {
namespace {

// A SAX pass that keeps the path of the value being read and stops at the first error, so
// the message can say which field the parser was in. Only run once a parse has failed.
class Locator : public nlohmann::json_sax<nlohmann::json> {
 public:
  using json = nlohmann::json;
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(json::number_integer_t) override { return value(); }
  bool number_unsigned(json::number_unsigned_t) override { return value(); }
  bool number_float(json::number_float_t, const json::string_t&) override { return value(); }
  bool string(json::string_t&) override { return value(); }
  bool binary(json::binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(false); }
  bool key(json::string_t& k) override {
    frames_.back().key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) override {
    failed_ = true, position_ = position, token_ = token, id_ = e.id, what_ = e.what();
    return false;
  }

  bool failed() const { return failed_; }
  size_t position() const { return position_; }
  const std::string& token() const { return token_; }
  bool overflow() const { return id_ == 406; }
  // nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix.
  std::string reason() const {
    std::string msg = what_;
    if (size_t end = msg.find("] "); end != std::string::npos) msg = msg.substr(end + 2);
    if (size_t column = msg.find("column "); column != std::string::npos)
      if (size_t sep = msg.find(": ", column); sep != std::string::npos) msg = msg.substr(sep + 2);
    return msg;
  }
  // "nodes[3].ports[1].lid": the members and elements open where the parser stopped.
  std::string path() const {
    std::string out;
    for (const auto& f : frames_) {
      if (f.array)
        out += "[" + std::to_string(f.index) + "]";
      else if (!f.key.empty())
        out += (out.empty() ? "" : ".") + f.key;
    }
    return out;
  }

 private:
  struct Frame {
    bool array = false;
    size_t index = 0;
    std::string key;
  };
  bool value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return true;
  }
  bool open(bool array) {
    frames_.push_back({array, 0, {}});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return value();
  }

  std::vector<Frame> frames_;
  bool failed_ = false;
  size_t position_ = 0;
  std::string token_, what_;
  int id_ = 0;
};

}  // namespace

std::optional<InputError> json_error(std::string_view text, const std::string& origin, int first_line) {
  Locator at;
  nlohmann::json::sax_parse(text.begin(), text.end(), &at);
  if (!at.failed()) return std::nullopt;
  const size_t end = std::min(at.position(), text.size());
  const int line = first_line + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(end), '\n'));
  // A syntax error's line is enough to find it; an overflowing number is valid syntax, so
  // its field says what is wrong.
  const std::string path = at.path();
  if (at.overflow())
    return InputError(origin, line, (path.empty() ? "" : path + ": ") + "number '" + at.token() + "' is out of range");
  return InputError(origin, line, "invalid JSON: " + at.reason());
}

nlohmann::json parse_json(std::string_view text, const std::string& origin, int first_line) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    if (auto located = json_error(text, origin, first_line)) throw *located;
    throw InputError(origin, first_line, std::string("invalid JSON: ") + e.what());
  }
}

}  // namespace ibburn
