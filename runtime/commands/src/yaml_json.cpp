#include "yaml_json.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <istream>
#include <limits>
#include <map>
#include <optional>
#include <streambuf>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include "json_keys.hpp"
#include "text.hpp"

namespace ptc::commands {

using nlohmann::ordered_json;

namespace {

// Aliases let a few lines of YAML expand into an enormous tree, or copy one long text many times;
// no command needs more than this.
constexpr std::size_t kMaxNodes = 100000;
constexpr std::size_t kMaxTextBytes = std::size_t{4} << 20;
constexpr std::size_t kMaxDepth = 128;

bool all_of(std::string_view s, std::string_view allowed) {
  return !s.empty() && s.find_first_not_of(allowed) == std::string_view::npos;
}

std::optional<ordered_json> integer(std::string_view s) {
  bool negative = false;
  std::string_view digits = s;
  if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) {
    negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  int base = 10;
  if (s.starts_with("0x") || s.starts_with("0o")) {
    base = s[1] == 'x' ? 16 : 8;
    digits = s.substr(2);
    if (!all_of(digits, base == 16 ? "0123456789abcdefABCDEF" : "01234567")) return std::nullopt;
  } else if (!all_of(digits, "0123456789")) {
    return std::nullopt;
  }
  // Beyond 64 bits: `discarded`, which scalar() refuses, as parse_json refuses such a JSON integer
  // (read as a double, its digits would change silently).
  const ordered_json beyond(ordered_json::value_t::discarded);
  std::uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (ec != std::errc{} || end != digits.data() + digits.size()) return beyond;
  if (!negative) {
    if (magnitude <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return ordered_json(static_cast<std::int64_t>(magnitude));
    return ordered_json(magnitude);
  }
  if (magnitude <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1)
    return ordered_json(static_cast<std::int64_t>(0 - magnitude));
  return beyond;
}

std::optional<ordered_json> floating(std::string_view s) {
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body.front() == '-' || body.front() == '+')) {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF")
    return ordered_json(negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return ordered_json(std::numeric_limits<double>::quiet_NaN());
  // [0-9]+(\.[0-9]*)? or \.[0-9]+, then an optional exponent.
  std::size_t i = 0, int_digits = 0, frac_digits = 0;
  while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++int_digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++frac_digits;
  }
  if (int_digits == 0 && frac_digits == 0) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++exp_digits;
    if (exp_digits == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  return ordered_json(std::strtod(std::string(s).c_str(), nullptr));
}

std::optional<ordered_json> resolve_plain(const std::string& s) {
  if (s == "true" || s == "True" || s == "TRUE") return ordered_json(true);
  if (s == "false" || s == "False" || s == "FALSE") return ordered_json(false);
  if (auto i = integer(s)) return i;
  return floating(s);
}

// Builds the JSON from yaml-cpp's parser events, never holding yaml-cpp's node tree, which costs about
// 80 bytes per byte of a frontmatter of many short keys. Rules a handler cannot signal otherwise are
// raised as Refused, which parse_yaml turns into the error.
struct Refused {
  Error error;
};

class Builder : public YAML::EventHandler {
 public:
  ordered_json root;

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark&, YAML::anchor_t anchor) override {
    count({1, 0});
    put({nullptr, "null", false, {1, 0}}, anchor);
  }

  void OnAlias(const YAML::Mark&, YAML::anchor_t anchor) override {
    const auto found = anchors_.find(anchor);
    // The parser reports unknown anchors itself; one it knows and this does not is still open: the
    // alias is inside its anchor's collection, a cycle JSON cannot hold.
    if (found == anchors_.end())
      throw Refused{Error{at_path(child_path(), "an alias refers to the collection it is inside")}};
    count(found->second.size);  // each use of an alias costs what its expansion does
    put(found->second, 0);
  }

  void OnScalar(const YAML::Mark&, const std::string& tag, YAML::anchor_t anchor, const std::string& value) override {
    const Size size{1, value.size()};
    count(size);
    put({scalar(tag, value), value, tag != "?", size}, anchor);  // a plain scalar's tag is "?"
  }

  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(ordered_json::array(), anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open(ordered_json::object(), anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  // What a value holds, itself included: values, and bytes of scalar text.
  struct Size {
    std::size_t nodes;
    std::size_t bytes;
  };

  // A finished value.
  struct Item {
    ordered_json value;
    std::string text;  // as a key: a scalar's text, a collection's flow form ([a, b])
    bool quoted;       // a scalar the YAML quoted
    Size size;
  };

  // A key (or an item of a flow form) as messages show it: quoted when the YAML quoted it, so that `1`
  // and `"1"` differ, and escaped, so that no key starts a new line in a message.
  static std::string shown(const std::string& key, bool quoted) {
    return quoted ? text::quote(key) : text::printable(key);
  }

  struct Frame {
    ordered_json value;
    YAML::anchor_t anchor;
    Size before;       // the count before the collection opened
    std::string path;  // where the collection sits
    // Its flow form so far, kept only for a collection that is (or is inside) a key or an anchor's
    // value: a copy of every collection's text would cost the input's size again per level.
    bool flowing;
    std::string flow;
    // A map alternates keys and values: the key waiting for its value, and whether each key so far was
    // quoted (messages show "1" and 1 apart).
    bool has_key = false;
    std::string key;
    bool key_quoted = false;
    std::vector<bool> quoted;
  };

  std::string child_path() const {
    if (frames_.empty()) return "";
    const Frame& top = frames_.back();
    if (top.value.is_array()) return index_path(top.path, top.value.size());
    return top.has_key ? key_path(top.path, top.key) : top.path;  // a key sits at its map
  }

  void count(Size size) {
    counted_.nodes += size.nodes;
    counted_.bytes += size.bytes;
    if (counted_.nodes > kMaxNodes)
      throw Refused{
          Error{"frontmatter has more than " + std::to_string(kMaxNodes) + " values once YAML aliases are expanded"}};
    if (counted_.bytes > kMaxTextBytes)
      throw Refused{Error{"frontmatter has more than " + std::to_string(kMaxTextBytes) +
                          " bytes of text once YAML aliases are expanded"}};
  }

  ordered_json scalar(const std::string& tag, const std::string& value) const {
    std::optional<ordered_json> v;
    if (tag == "?") {
      v = resolve_plain(value);
      if (!v) return ordered_json(value);
    } else if (tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float" || tag == "tag:yaml.org,2002:bool") {
      v = resolve_plain(value);
      if (!v) throw Refused{Error{at_path(child_path(), text::quote(value) + " is not a value of tag " + tag)}};
    } else {
      return ordered_json(value);
    }
    if (v->is_discarded()) throw Refused{Error{at_path(child_path(), "int " + value + " is beyond 64 bits")}};
    return std::move(*v);
  }

  // A finished value goes to the root, a list, or a map as its next key or value.
  void put(Item item, YAML::anchor_t anchor) {
    if (anchor != 0) anchors_[anchor] = item;
    if (frames_.empty()) {
      root = std::move(item.value);
      return;
    }
    Frame& top = frames_.back();
    if (top.flowing) {
      if (top.flow.size() > 1) top.flow += top.value.is_array() || !top.has_key ? ", " : ": ";
      top.flow += shown(item.text, item.quoted);
    }
    if (top.value.is_array()) {
      top.value.push_back(std::move(item.value));
    } else if (!top.has_key) {
      top.key = std::move(item.text);
      top.key_quoted = item.quoted;
      top.has_key = true;
    } else {
      // Appended, where operator[] would search the whole map; repeated keys are found when it closes.
      top.value.get_ref<ordered_json::object_t&>().emplace_back(std::move(top.key), std::move(item.value));
      top.quoted.push_back(top.key_quoted);
      top.has_key = false;
    }
  }

  // The first key, in the order written, that repeats an earlier one: sorting keeps a map of many keys
  // at n log n, without a set of every key held while the map is read.
  static void check_keys(const Frame& map) {
    // ordered_map's operator[] takes a key; its base vector indexes.
    const auto& members =
        static_cast<const ordered_json::object_t::Container&>(map.value.get_ref<const ordered_json::object_t&>());
    std::vector<std::uint32_t> order(members.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    // Equal keys stay in the order written (std::stable_sort trips clang 19's deprecation warning
    // inside libstdc++ 12).
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const int c = members[a].first.compare(members[b].first);
      return c < 0 || (c == 0 && a < b);
    });
    std::optional<std::pair<std::uint32_t, std::uint32_t>> first;  // (earlier, later)
    for (std::size_t i = 1, run = 0; i < order.size(); ++i) {
      if (members[order[i]].first != members[order[run]].first) {
        run = i;
      } else if (!first || order[i] < first->second) {
        first = {order[run], order[i]};
      }
    }
    if (!first) return;
    const std::string earlier = shown(members[first->first].first, map.quoted[first->first]);
    const std::string later = shown(members[first->second].first, map.quoted[first->second]);
    if (earlier == later) throw Refused{Error{at_path(map.path, "duplicate key " + later)}};
    throw Refused{Error{at_path(map.path, "conflicting keys " + earlier + " and " + later)}};
  }

  void open(ordered_json container, YAML::anchor_t anchor) {
    if (frames_.size() >= kMaxDepth)
      throw Refused{Error{"frontmatter nests deeper than " + std::to_string(kMaxDepth) + " levels"}};
    const Size before = counted_;
    count({1, 0});
    const bool flowing =
        anchor != 0 ||
        (!frames_.empty() && (frames_.back().flowing || (frames_.back().value.is_object() && !frames_.back().has_key)));
    std::string flow = flowing ? (container.is_array() ? "[" : "{") : "";
    frames_.push_back(Frame{
        std::move(container), anchor, before, child_path(), flowing, std::move(flow), false, {}, false, {}});
  }

  void close() {
    if (frames_.empty()) return;  // yaml-cpp balances its events
    Frame done = std::move(frames_.back());
    frames_.pop_back();
    if (done.value.is_object()) check_keys(done);
    if (done.flowing) done.flow += done.value.is_array() ? "]" : "}";
    const Size size{counted_.nodes - done.before.nodes, counted_.bytes - done.before.bytes};
    put({std::move(done.value), std::move(done.flow), false, size}, done.anchor);
  }

  std::vector<Frame> frames_;
  std::map<YAML::anchor_t, Item> anchors_;
  Size counted_{0, 0};
};

// The text as an input stream without a copy (yaml-cpp reads from a std::istream).
struct ViewBuffer : std::streambuf {
  explicit ViewBuffer(std::string_view text) {
    char* start = const_cast<char*>(text.data());  // only read: std::streambuf's get area is char*
    setg(start, start, start + text.size());
  }
};

}  // namespace

Result<ordered_json> parse_yaml(std::string_view text) {
  // yaml-cpp passes the bytes of a scalar through as they are, and JSON holds UTF-8 only (writing
  // anything else out throws), so other bytes are refused here, as parse_json refuses them.
  if (const auto at = text::invalid_utf8_at(text)) return text::error_at(text, *at, "invalid YAML: invalid UTF-8");
  ViewBuffer buffer(text);
  std::istream in(&buffer);
  Builder builder;
  try {
    YAML::Parser parser(in);
    parser.HandleNextDocument(builder);
  } catch (const YAML::Exception& e) {
    // yaml-cpp quotes the offending character as it is (`unknown escape character: <newline>`).
    return Error{"invalid YAML: " + text::escape_controls(e.msg), static_cast<std::size_t>(e.mark.line + 1),
                 static_cast<std::size_t>(e.mark.column + 1)};
  } catch (Refused& r) {
    return std::move(r.error);
  }
  return std::move(builder.root);
}

}  // namespace ptc::commands
