// Reading JSON values with simdjson On-Demand on the codecs' slow paths: everything but the exact kind
// a codec expects. Numbers are read into the nlohmann types nlohmann's parser gives, so messages and
// :any values match the validator's for the same text.

#include "read.hpp"

#include <charconv>
#include <system_error>

#include <ptc/codec/codec.hpp>
#include <ptc/coercion.hpp>
#include <ptc/json_input.hpp>

#include "text.hpp"

namespace ptc::codec {

namespace detail {

namespace {

// simdjson's raw tokens carry the whitespace that follows them.
std::string_view trim_token(std::string_view token) { return text::trim_right(token, text::kJsonWhitespace); }

nlohmann::json number(Decoder& d, Value& v) {
  const std::string_view token = trim_token(v.raw_json_token());
  if (token.find_first_of(".eE") == std::string_view::npos) {
    // nlohmann reads "-5" as int64 and "5" as uint64.
    if (token.starts_with('-')) {
      std::int64_t i = 0;
      if (v.get_int64().get(i) == simdjson::SUCCESS) return i;
    } else {
      std::uint64_t u = 0;
      if (v.get_uint64().get(u) == simdjson::SUCCESS) return u;
    }
  } else {
    double x = 0;
    if (read_double(v, x) == simdjson::SUCCESS) return x;
  }
  if (coercion::is_int_beyond_64_bits(token)) throw InvalidJson(coercion::int_beyond_64_bits(token, d.path()));
  // Not a number at all: nlohmann decides, as it did for the validator's JSON. An unread value is
  // skipped by the enclosing list or object.
  try {
    auto parsed = nlohmann::json::parse(token);
    if (parsed.is_number()) return parsed;
  } catch (const nlohmann::json::exception&) {
  }
  throw InvalidJson("invalid JSON: bad number " + text::quote(text::excerpt(token, 64)));
}

std::string string(Value& v) {
  std::string_view s;
  check_json(v.get_string().get(s));
  return std::string(s);
}

bool boolean(Value& v) {
  bool b = false;
  check_json(v.get_bool().get(b));
  return b;
}

// The extent of a list or map that has been read (and so checked) to its end.
std::string_view container_text(const char* start) {
  std::size_t depth = 0;
  const char* p = start;
  for (;; ++p) {
    const char c = *p;
    if (c == '"') {
      for (++p; *p != '"'; ++p)
        if (*p == '\\') ++p;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && --depth == 0) {
      return {start, static_cast<std::size_t>(p + 1 - start)};
    }
  }
}

}  // namespace

bool exact_double(std::string_view token, double& x) {
  token = trim_token(token);
  if (coercion::is_int_beyond_64_bits(token)) return false;
  std::size_t digits = 0;
  for (char c : token) digits += c >= '0' && c <= '9';
  if (digits <= 19) return true;
  double exact = 0;
  const char* end = token.data() + token.size();
  // from_chars is locale-independent and correctly rounded, like the strtod nlohmann uses; out of
  // range (overflow or underflow) keeps simdjson's reading.
  if (auto r = std::from_chars(token.data(), end, exact); r.ptr == end && r.ec == std::errc()) x = exact;
  return true;
}

void invalid_json(simdjson::error_code e) {
  throw InvalidJson(std::string("invalid JSON: ") + simdjson::error_message(e));
}

bool take_null(Value& v) {
  if (kind_of(v) != JsonKind::Null) return false;
  bool is_null = false;
  check_json(v.is_null().get(is_null));
  if (!is_null) throw InvalidJson("invalid JSON: bad literal");
  return true;
}

void skip(Decoder& d, Value& v) {
  switch (kind_of(v)) {
    case JsonKind::List: {
      simdjson::ondemand::array array;
      check_json(v.get_array().get(array));
      d.enter();
      std::size_t index = 0;
      for (auto result : array) {
        auto&& item = in_place(std::move(result));
        d.push(index++);
        skip(d, item);
        d.pop();
      }
      d.leave();
      return;
    }
    case JsonKind::Map: {
      // Even a value nobody reads must not repeat a key: ptc::parse_json refuses the whole text then.
      simdjson::ondemand::object object;
      check_json(v.get_object().get(object));
      d.enter();
      SeenKeys keys;
      for (auto result : object) {
        auto&& field = in_place(std::move(result));
        const std::string_view key = key_of(field);
        if (!keys.insert(key)) duplicate_key(d, key);
        d.push(key);
        skip(d, field.value());
        d.pop();
      }
      d.leave();
      return;
    }
    case JsonKind::String: {
      std::string_view s;
      check_json(v.get_string().get(s));
      return;
    }
    default: given(d, v); return;
  }
}

nlohmann::json given(Decoder& d, Value& v) {
  switch (kind_of(v)) {
    case JsonKind::Null: take_null(v); return nullptr;
    case JsonKind::Bool: return boolean(v);
    case JsonKind::Number: return number(d, v);
    case JsonKind::String: return string(v);
    case JsonKind::List: skip(d, v); return nlohmann::json::array();
    case JsonKind::Map: skip(d, v); return nlohmann::json::object();
  }
  return nullptr;
}

bool from_text(Decoder& d, Value& v, JsonKind want, std::string_view what, RootDecode decode) {
  std::string_view text;
  check_json(v.get_string().get(text));
  const std::size_t depth = d.depth();
  if (d.coercing() && depth > 0 &&
      coercion::container_from_text(text, want, depth < kMaxJsonDepth ? kMaxJsonDepth - depth : 0)) {
    d.warn(coercion::coerced(text, want == JsonKind::List ? "list" : "map"));
    // `text` lives in this document's string buffer; decode_root parses it with the next nesting's parser.
    return *decode_root(text, false, decode);
  }
  d.error(coercion::expected(what, nlohmann::json(std::string(text))));
  return false;
}

bool fail(Decoder& d, Value& v, std::string_view what) {
  d.error(coercion::expected(what, given(d, v)));
  return false;
}

double read_float_token(Decoder& d, Value& v, double x) {
  const std::string_view token = trim_token(v.raw_json_token());
  std::optional<nlohmann::json> integer;
  if (token.find_first_of(".eE") == std::string_view::npos) {
    // Integers beyond 64 bits are floats to nlohmann too: nothing to note.
    std::int64_t i = 0;
    std::uint64_t u = 0;
    const char* end = token.data() + token.size();
    // An out-of-range token is consumed to its end too: only `ec` tells it did not fit.
    if (auto r = std::from_chars(token.data(), end, i); r.ptr == end && r.ec == std::errc()) {
      integer = i;
    } else if (auto ru = std::from_chars(token.data(), end, u); ru.ptr == end && ru.ec == std::errc()) {
      integer = u;
    }
  }
  if (integer && x == 0) x = 0;  // "-0"
  if (!d.coercing()) d.note_integer(std::move(integer));
  return x;
}

std::string_view raw_value(Decoder& d, Value& v) {
  const std::string_view token = v.raw_json_token();
  const JsonKind kind = kind_of(v);
  skip(d, v);
  if (kind == JsonKind::List || kind == JsonKind::Map) return container_text(token.data());
  return trim_token(token);
}

nlohmann::json given_item(std::string_view token) {
  const JsonKind kind = token.starts_with('[')   ? JsonKind::List
                        : token.starts_with('{') ? JsonKind::Map
                                                 : JsonKind::Null;
  // Untrusted text that simdjson let through but nlohmann refuses must end the decode as invalid JSON,
  // never escape as an exception (found by fuzz_codec).
  auto parsed = parse_json(kind == JsonKind::Null ? trim_token(token) : container_text(token.data()));
  if (!parsed) throw InvalidJson(parsed.error().message);
  return std::move(*parsed);
}

}  // namespace detail

nlohmann::json to_json(Decoder& d, Value& v) {
  switch (detail::kind_of(v)) {
    case coercion::JsonKind::List: {
      simdjson::ondemand::array array;
      detail::check_json(v.get_array().get(array));
      d.enter();
      auto out = nlohmann::json::array();
      for (auto result : array) {
        auto&& item = detail::in_place(std::move(result));
        d.push(out.size());
        out.push_back(to_json(d, item));
        d.pop();
      }
      d.leave();
      return out;
    }
    case coercion::JsonKind::Map: {
      simdjson::ondemand::object object;
      detail::check_json(v.get_object().get(object));
      d.enter();
      auto out = nlohmann::json::object();
      for (auto result : object) {
        auto&& field = detail::in_place(std::move(result));
        const std::string_view key = detail::key_of(field);
        if (out.contains(key)) detail::duplicate_key(d, key);
        d.push(key);
        out[std::string(key)] = to_json(d, field.value());
        d.pop();
      }
      d.leave();
      return out;
    }
    default: return detail::given(d, v);
  }
}

}  // namespace ptc::codec
