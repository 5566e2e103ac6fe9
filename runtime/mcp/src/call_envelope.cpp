#include "call_envelope.hpp"

#include <simdjson.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ptc::mcp::jsonrpc {
namespace {

namespace dom = simdjson::dom;
using Type = dom::element_type;

// Bigger messages are rare and dominated by their own work; the full parse keeps the memory this
// path holds per thread small.
constexpr std::size_t kMaxBytes = 64 * 1024;
// Well inside parse_json's bound, so that nesting it would refuse is always declined here first.
constexpr std::size_t kMaxDepth = 256;

/// One per reading thread: simdjson reuses its buffers from one message to the next.
struct Reader {
  dom::parser parser;
  std::string padded;                  // the message copied with the padding simdjson reads past its end
  std::vector<std::string_view> keys;  // the keys of the objects being checked, innermost last
  // A failed allocation leaves the parser empty, and every parse declined.
  Reader() { allocated = parser.allocate(4096, kMaxDepth) == simdjson::SUCCESS; }
  bool allocated = false;
};

Reader& reader() {
  thread_local Reader r;
  return r;
}

/// Whether keys[from..] holds no key twice: pairwise for the few keys objects usually have, sorted for
/// many (so that an object of thousands of keys costs n log n, not n squared).
bool distinct(std::vector<std::string_view>& keys, std::size_t from) {
  const auto first = keys.begin() + static_cast<std::ptrdiff_t>(from);
  if (keys.size() - from <= 16) {
    for (auto a = first; a != keys.end(); ++a)
      for (auto b = a + 1; b != keys.end(); ++b)
        if (*a == *b) return false;
    return true;
  }
  std::sort(first, keys.end());
  return std::adjacent_find(first, keys.end()) == keys.end();
}

/// Whether no object in `e` repeats a key (parse_json refuses those). Recursion is bounded by the
/// parser's depth limit.
bool unique_keys(dom::element e, std::vector<std::string_view>& keys) {
  if (e.type() == Type::ARRAY) {
    for (dom::element item : dom::array(e))
      if (!unique_keys(item, keys)) return false;
    return true;
  }
  if (e.type() != Type::OBJECT) return true;
  const std::size_t base = keys.size();
  for (dom::key_value_pair field : dom::object(e)) {
    keys.push_back(field.key);
    if (!unique_keys(field.value, keys)) return false;
  }
  const bool unique = distinct(keys, base);
  keys.resize(base);
  return unique;
}

/// The value as parse_json builds it: nlohmann reads a non-negative integer as unsigned.
nlohmann::json to_json(dom::element e) {
  switch (e.type()) {
    case Type::OBJECT: {
      nlohmann::json out = nlohmann::json::object();
      for (dom::key_value_pair field : dom::object(e)) out.emplace(std::string(field.key), to_json(field.value));
      return out;
    }
    case Type::ARRAY: {
      nlohmann::json out = nlohmann::json::array();
      for (dom::element item : dom::array(e)) out.push_back(to_json(item));
      return out;
    }
    case Type::STRING: return std::string(std::string_view(e));
    case Type::INT64: {
      const auto v = std::int64_t(e);
      return v >= 0 ? nlohmann::json(static_cast<std::uint64_t>(v)) : nlohmann::json(v);
    }
    case Type::UINT64: return std::uint64_t(e);
    case Type::DOUBLE: return double(e);
    case Type::BOOL: return bool(e);
    case Type::NULL_VALUE: break;
  }
  return nullptr;
}

bool is_string(dom::element e, std::string_view value) {
  return e.type() == Type::STRING && std::string_view(e) == value;
}

}  // namespace

std::optional<Message> read_tool_call(std::string_view text) {
  if (text.size() > kMaxBytes) return std::nullopt;
  Reader& r = reader();
  if (!r.allocated) return std::nullopt;
  r.padded.assign(text);
  r.padded.resize(text.size() + simdjson::SIMDJSON_PADDING);
  dom::element root;
  if (r.parser.parse(r.padded.data(), text.size(), false).get(root) != simdjson::SUCCESS) return std::nullopt;
  r.keys.clear();  // a refusal returns from inside the walk and leaves its keys behind
  if (root.type() != Type::OBJECT || !unique_keys(root, r.keys)) return std::nullopt;

  dom::element version, method, id, params, arguments;
  const dom::object envelope(root);
  if (envelope["jsonrpc"].get(version) || !is_string(version, "2.0")) return std::nullopt;
  if (envelope["method"].get(method) || !is_string(method, "tools/call")) return std::nullopt;
  if (envelope["id"].get(id)) return std::nullopt;
  if (id.type() != Type::STRING && id.type() != Type::INT64 && id.type() != Type::UINT64) return std::nullopt;
  if (envelope["params"].get(params) || params.type() != Type::OBJECT) return std::nullopt;
  if (dom::object(params)["arguments"].get(arguments) || arguments.type() != Type::OBJECT) return std::nullopt;
  // The text is found by unescaped names; a name written with escapes leaves it to the full parse.
  const auto arguments_text = member_text(text, {"params", "arguments"});
  if (!arguments_text) return std::nullopt;

  Message message;
  message.kind = Message::Kind::Request;
  message.id = to_json(id);
  message.method = "tools/call";
  for (dom::key_value_pair field : dom::object(params))
    if (field.key != "arguments") message.params.emplace(std::string(field.key), to_json(field.value));
  message.arguments_text = *arguments_text;
  return message;
}

}  // namespace ptc::mcp::jsonrpc
