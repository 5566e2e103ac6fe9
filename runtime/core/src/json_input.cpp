#include <ptc/json_input.hpp>

#include <set>
#include <stdexcept>

#include <ptc/coercion.hpp>

#include "text.hpp"

namespace ptc {
namespace {

using json = nlohmann::json;

// Builds the DOM as nlohmann's own SAX parser does, with two differences: nesting deeper than the limit
// stops the parse before anything deeper is built (nlohmann's dump and comparisons recurse), and an
// object that repeats a key is an error instead of a silent "last wins", so that no two readers of the
// same text (a policy and a handler, the validator and a generated decoder) can see different values.
class Builder {
 public:
  Builder(json& root, std::size_t max_depth) : root_(root), max_depth_(max_depth) {}

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(json::number_integer_t v) { return put(v); }
  bool number_unsigned(json::number_unsigned_t v) { return put(v); }
  bool number_float(json::number_float_t v, const std::string& token) {
    if (coercion::is_int_beyond_64_bits(token)) {
      error = coercion::int_beyond_64_bits(token, path(true));
      return false;
    }
    return put(v);
  }
  bool string(std::string& v) { return put(std::move(v)); }
  bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& k) {
    Frame& top = frames_.back();
    if (!top.keys.insert(k).second) {
      error = coercion::duplicate_key(k, path(false));
      return false;
    }
    top.key = k;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while ..." -> the tail.
    auto colon = what.find(": ");
    failure = {position == 0 ? 0 : position - 1, colon == std::string::npos ? what : what.substr(colon + 2)};
    return false;
  }

  std::optional<std::string> error;
  std::optional<std::pair<std::size_t, std::string>> failure;
  bool too_deep = false;

 private:
  struct Frame {
    json* value;
    std::set<std::string, std::less<>> keys;
    std::string key;
    std::size_t index = 0;
  };

  json* slot(json v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& top = frames_.back();
    if (top.value->is_array()) {
      top.value->push_back(std::move(v));
      ++top.index;
      return &top.value->back();
    }
    auto& member = (*top.value)[top.key];
    member = std::move(v);
    return &member;
  }

  bool put(json v) {
    slot(std::move(v));
    return true;
  }

  bool open(json container) {
    if (frames_.size() >= max_depth_) {
      too_deep = true;
      return false;
    }
    json* at = slot(std::move(container));
    frames_.push_back({at, {}, {}, 0});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  // The innermost open container's path, or with `next` the path of the value about to be put into
  // it, as validation writes paths.
  std::string path(bool next) const {
    std::string out;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      const bool last = i + 1 == frames_.size();
      if (last && !next) break;
      out = f.value->is_array() ? coercion::index_path(out, last ? f.index : f.index - 1)
                                : coercion::key_path(out, f.key);
    }
    return out;
  }

  json& root_;
  std::size_t max_depth_;
  std::vector<Frame> frames_;
};

}  // namespace

Result<nlohmann::json> parse_json(std::string_view text, std::size_t max_depth) {
  // nlohmann stops reading at a NUL byte and would accept `{"a":1}<NUL>anything`; no JSON text holds one
  // outside a string, where it must be escaped.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    return text::error_at(text, nul, "invalid JSON: NUL byte");
  json root;
  Builder builder(root, max_depth);
  bool ok = false;
  try {
    ok = json::sax_parse(text.begin(), text.end(), &builder);
  } catch (const json::exception& e) {
    // e.g. out_of_range 406 for 1e999: a number no double holds.
    std::string what = e.what();
    auto close = what.find("] ");
    return Error{"invalid JSON: " + (close == std::string::npos ? what : what.substr(close + 2))};
  }
  if (ok) return root;
  if (builder.error) return Error{*builder.error};
  if (builder.too_deep) return Error{"invalid JSON: nesting deeper than " + std::to_string(max_depth) + " levels"};
  if (builder.failure) return text::error_at(text, builder.failure->first, "invalid JSON: " + builder.failure->second);
  return Error{"invalid JSON"};
}

}  // namespace ptc
