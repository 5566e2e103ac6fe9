#include <ptc/json_input.hpp>

#include <stdexcept>

#include <ptc/coercion.hpp>

#include "key_set.hpp"
#include "text.hpp"

namespace ptc {
namespace {

using json = nlohmann::json;

// Builds the DOM as nlohmann's own SAX parser does, with three differences: nesting deeper than the
// limit stops the parse before anything deeper is built (nlohmann's dump and comparisons recurse), an
// object that repeats a key is an error instead of a silent "last wins", so that no two readers of the
// same text (a policy and a handler, the validator and a generated decoder) can see different values,
// and a member of the top-level object that `keep` declines is read to its end, with every check, but
// neither built nor held: its key is only remembered to refuse a repeat of it.
class Builder {
 public:
  Builder(json& root, const JsonParseOptions& options) : root_(root), options_(options) {}

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
  bool start_object(std::size_t) { return open(false); }
  bool start_array(std::size_t) { return open(true); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& k) {
    Frame& top = frames_.back();
    if (!top.keys.insert(k)) {
      error = coercion::duplicate_key(k, path(false));
      return false;
    }
    top.key = k;
    // A member of the top-level object nobody will read: its value is skipped, and the member left out.
    if (frames_.size() == 1 && options_.keep && !options_.keep(k)) skip_next_ = true;
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
  bool stopped = false;  // options.charge said no

 private:
  struct Frame {
    json* value;  // null inside a skipped value
    bool array;
    text::KeySet keys;
    std::string key;
    std::size_t index = 0;
  };

  bool skipping() const { return skip_level_ != 0; }
  // Whether the value about to be put into the innermost container is skipped: a member `keep`
  // declined, or an item of a top-level list when there is a `keep` (its caller wants an object).
  bool declined() const { return skip_next_ || (frames_.size() == 1 && frames_[0].array && options_.keep); }

  // Where the next value goes: the root, the end of the innermost list, or the member just named;
  // null when it is skipped.
  // About what a value costs once built: its node in a list (with the list's spare capacity) or in an
  // object's tree (with its key), a container's own header, a long string's characters.
  static std::size_t cost(const json& v, const std::string* key) {
    std::size_t bytes = key ? 80 + (key->size() > 15 ? key->size() + 17 : 0) : 32;
    if (v.is_structured()) bytes += 48;
    if (v.is_string()) {
      const std::size_t n = v.get_ref<const std::string&>().size();
      if (n > 15) bytes += n + 17;
    }
    return bytes;
  }

  // Counts what is built, and tells options.charge every MiB.
  bool charge(std::size_t bytes) {
    built_ += bytes;
    if (!options_.charge || built_ < told_ + (std::size_t{1} << 20)) return true;
    told_ = built_;
    if (options_.charge(built_)) return true;
    stopped = true;
    return false;
  }

  json* slot(json v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& top = frames_.back();
    if (top.array) ++top.index;
    if (skipping()) return nullptr;
    if (declined()) return nullptr;
    if (!charge(cost(v, top.array ? nullptr : &top.key))) return nullptr;
    if (top.array) {
      top.value->push_back(std::move(v));
      return &top.value->back();
    }
    auto& member = (*top.value)[top.key];
    member = std::move(v);
    return &member;
  }

  bool put(json v) {
    slot(std::move(v));
    skip_next_ = false;
    return !stopped;
  }

  bool open(bool array) {
    if (frames_.size() >= options_.max_depth) {
      too_deep = true;
      return false;
    }
    const bool starts_skip = !skipping() && !frames_.empty() && declined();
    json* at = starts_skip || skipping() ? (slot(nullptr), nullptr) : slot(array ? json::array() : json::object());
    if (stopped) return false;
    if (starts_skip) skip_level_ = frames_.size() + 1;
    skip_next_ = false;
    frames_.push_back({at, array, {}, {}, 0});
    return true;
  }

  bool close() {
    if (frames_.size() == skip_level_) skip_level_ = 0;
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
      out = f.array ? coercion::index_path(out, last ? f.index : f.index - 1) : coercion::key_path(out, f.key);
    }
    return out;
  }

  json& root_;
  const JsonParseOptions& options_;
  std::vector<Frame> frames_;
  std::size_t built_ = 0;       // bytes built, about (cost)
  std::size_t told_ = 0;        // built_ when options.charge was last told
  bool skip_next_ = false;      // the next value is a member of the top-level object `keep` declined
  std::size_t skip_level_ = 0;  // the depth of the skipped container being read, 0 for none
};

}  // namespace

Result<nlohmann::json> parse_json(std::string_view text, const JsonParseOptions& options) {
  // nlohmann stops reading at a NUL byte and would accept `{"a":1}<NUL>anything`; no JSON text holds one
  // outside a string, where it must be escaped.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    return text::error_at(text, nul, "invalid JSON: NUL byte");
  json root;
  Builder builder(root, options);
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
  if (builder.stopped) return Error{"invalid JSON: stopped by the caller"};
  if (builder.too_deep)
    return Error{"invalid JSON: nesting deeper than " + std::to_string(options.max_depth) + " levels"};
  if (builder.failure) return text::error_at(text, builder.failure->first, "invalid JSON: " + builder.failure->second);
  return Error{"invalid JSON"};
}

Result<nlohmann::json> parse_json(std::string_view text, std::size_t max_depth) {
  return parse_json(text, JsonParseOptions{max_depth, {}});
}

}  // namespace ptc
