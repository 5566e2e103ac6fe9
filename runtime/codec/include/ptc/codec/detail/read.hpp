#pragma once
// The helpers every codec template calls: JSON kinds, numbers read exactly, errors, list walking,
// and the document entry point. Values read on slow paths, every message and the bookkeeping of issue
// order are compiled once, in runtime/codec/src/.
// Part of ptc/codec/codec.hpp, which includes it after declaring Codec<T>, Decoder and the writers; not
// meant to be included on its own.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace ptc::codec {

namespace detail {

using coercion::JsonKind;
using coercion::kind_bit;

[[noreturn]] void invalid_json(simdjson::error_code e);
/// Throws InvalidJson unless `e` is SUCCESS.
inline void check_json(simdjson::error_code e) {
  if (e != simdjson::SUCCESS) [[unlikely]]
    invalid_json(e);
}
/// The item or field a list's or object's iterator gave, checked (InvalidJson) and used where the
/// iterator built it. Copying it out with get() made g++ store it in parts and load it back as one
/// 16-byte word, a store-forwarding stall that cost about a sixth of a decode.
template <class T>
[[gnu::always_inline]] inline T&& in_place(simdjson::simdjson_result<T>&& result) {
  check_json(result.error());
  return std::move(result).value_unsafe();
}
/// Whether the `n` bytes at `a` and `b` are equal: keys are short, so eight bytes are compared at a
/// time here rather than through a call to memcmp.
[[gnu::always_inline]] inline bool same_bytes(const char* a, const char* b, std::size_t n) {
  auto word = [](const char* p, auto size) {
    decltype(size) x;
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  if (n >= 8) {  // eight bytes at a time, the last eight overlapping what was compared
    for (std::size_t i = 0; i + 8 < n; i += 8)
      if (word(a + i, std::uint64_t{}) != word(b + i, std::uint64_t{})) return false;
    return word(a + n - 8, std::uint64_t{}) == word(b + n - 8, std::uint64_t{});
  }
  if (n >= 4)
    return word(a, std::uint32_t{}) == word(b, std::uint32_t{}) &&
           word(a + n - 4, std::uint32_t{}) == word(b + n - 4, std::uint32_t{});
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}
/// Whether a key read from the text is a field's name.
inline bool same_key(std::string_view a, std::string_view b) {
  return a.size() == b.size() && same_bytes(a.data(), b.data(), a.size());
}
/// How a field's key is recognised in place in the text, without finding where the key ends: the
/// first eight bytes after the opening quote of the name written without escapes, and which of them
/// count. A name of fewer than eight bytes counts its closing quote as well, and nothing after it.
struct KeyWord {
  std::uint64_t value = 0;
  std::uint64_t mask = 0;
};

/// Whether no name holds a quote or a backslash: only then is a key whose bytes equal a name that name.
constexpr bool plain_names(std::span<const FieldInfo> fields) {
  for (const auto& f : fields)
    if (f.name.find_first_of("\\\"") != std::string_view::npos) return false;
  return true;
}

/// The KeyWords of `fields`, whose names must be plain (plain_names).
template <std::size_t N>
constexpr std::array<KeyWord, N> key_words(std::span<const FieldInfo> fields) {
  static_assert(std::endian::native == std::endian::little, "the first byte of a word is its lowest");
  std::array<KeyWord, N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    const std::string_view name = fields[i].name;
    for (std::size_t b = 0; b < 8 && b <= name.size(); ++b) {
      const auto c = static_cast<unsigned char>(b < name.size() ? name[b] : '"');
      out[i].value |= std::uint64_t{c} << (8 * b);
      out[i].mask |= std::uint64_t{0xff} << (8 * b);
    }
  }
  return out;
}

/// The most fields a struct may have for its keys to be looked up by bucket: one bit each in a word.
inline constexpr std::size_t kBucketedFields = 64;

/// Which fields a key may name, by its first byte (the low five bits of it): bit i of bucket b is set
/// when field i's name starts with a byte of bucket b (or is empty: then its first byte is the closing
/// quote). A key out of order is compared with those fields only, not with every field in turn.
/// Empty for structs of more than kBucketedFields fields, which search the fields in turn.
template <std::size_t N>
constexpr std::array<std::uint64_t, 32> key_buckets(std::span<const FieldInfo> fields) {
  std::array<std::uint64_t, 32> out{};
  if (N > kBucketedFields) return out;
  for (std::size_t i = 0; i < N; ++i) {
    const std::string_view name = fields[i].name;
    const auto c = static_cast<unsigned char>(name.empty() ? '"' : name[0]);
    out[c & 31] |= std::uint64_t{1} << i;
  }
  return out;
}

/// How the keys of one struct's fields are recognised in the text (key_words, key_buckets).
struct FieldKeys {
  const KeyWord* words;
  const std::uint64_t* buckets;  ///< null for more than kBucketedFields fields
};

/// The eight bytes at `p` as a word, the first byte lowest.
[[gnu::always_inline]] inline std::uint64_t word_at(const char* p) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  return x;
}

/// Whether the key whose text starts at `raw` (past its opening quote), of which `first` holds the
/// first eight bytes, is `field`, written without escapes. A name of eight bytes or more is compared
/// further, up to its closing quote; a longer name differs at the key's closing quote, and same_bytes
/// stops at the first word that differs, so nothing is read past eight bytes after that quote, which
/// simdjson's padding covers.
[[gnu::always_inline]] inline bool raw_key_is(std::uint64_t first, const char* raw, const FieldInfo& field,
                                              KeyWord word) {
  if ((first & word.mask) != word.value) return false;
  const std::size_t n = field.name.size();
  return n < 8 || (same_bytes(raw + 8, field.name.data() + 8, n - 8) && raw[n] == '"');
}

/// The field the key whose text starts at `raw` names, written without escapes, or fields.size(), for
/// structs of more than kBucketedFields fields (field_of uses the buckets of smaller ones). `words` are
/// the fields' KeyWords. Keys usually come in declaration order, so the search starts at `hint` (the
/// field after the last one found).
std::size_t find_raw_key(std::span<const FieldInfo> fields, const KeyWord* words, const char* raw, std::size_t hint);

/// A field's key, unescaped. Most keys hold no escape: they are then the bytes between the quotes, read
/// in place, which spares the unescaping call per key. simdjson has checked the text, so the key ends
/// in a quote, and the padding after the text lets eight bytes be read at a time.
inline std::string_view key_of(simdjson::ondemand::field& field) {
  static_assert(std::endian::native == std::endian::little, "the first byte of a word is its lowest");
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  // The lowest byte this marks is the first zero byte of x (marks above it may be false).
  auto zero_bytes = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
  const char* begin = field.key().raw();
  for (const char* p = begin;; p += 8) {
    std::uint64_t x;
    std::memcpy(&x, p, 8);
    const std::uint64_t quote = zero_bytes(x ^ (ones * '"'));
    const std::uint64_t backslash = zero_bytes(x ^ (ones * '\\'));
    if (!(quote | backslash)) continue;
    if (quote && (!backslash || std::countr_zero(quote) < std::countr_zero(backslash)))
      return {begin, static_cast<std::size_t>(p - begin) + static_cast<std::size_t>(std::countr_zero(quote)) / 8};
    std::string_view key;
    check_json(field.unescaped_key().get(key));
    return key;
  }
}

/// The value's kind, peeked (not read); throws InvalidJson when it is no JSON value.
inline JsonKind kind_of(Value& v) {
  simdjson::ondemand::json_type t{};
  check_json(v.type().get(t));
  switch (t) {
    case simdjson::ondemand::json_type::array: return JsonKind::List;
    case simdjson::ondemand::json_type::object: return JsonKind::Map;
    case simdjson::ondemand::json_type::number: return JsonKind::Number;
    case simdjson::ondemand::json_type::string: return JsonKind::String;
    case simdjson::ondemand::json_type::boolean: return JsonKind::Bool;
    case simdjson::ondemand::json_type::null: return JsonKind::Null;
  }
  invalid_json(simdjson::INCORRECT_TYPE);
}
/// Reads a null; false (reading nothing) when the value is not null.
bool take_null(Value& v);
/// Reads the value to its end, checking that it is JSON: simdjson skips what is not read without
/// looking inside, so nothing is left unread.
void skip(Decoder& d, Value& v);
/// Reads the value to its end; records `expected <what>, got <value>`; returns false.
bool fail(Decoder& d, Value& v, std::string_view what);

/// Slow paths of the scalar codecs: the value is not of the exact JSON kind. `fit`: the value must be
/// within min..max; without it the caller checks that (an integral float beyond, such as 300.0 for a
/// uint8_t, is refused all the same).
bool decode_int(Decoder& d, Value& v, bool is_unsigned, std::int64_t min, std::uint64_t max, std::int64_t& out,
                bool fit = true);
/// An int64 read from the JSON that does not fit the C++ type; records the error, returns false.
bool int_outside(Decoder& d, std::int64_t value, bool is_unsigned, std::int64_t min, std::uint64_t max);
bool decode_float(Decoder& d, Value& v, double& out);
/// `expected float within +/-3.40282e+38, got float 3.4e+39` for a value past a narrower type's range.
bool float_outside(Decoder& d, double value, double max);
bool decode_bool(Decoder& d, Value& v, bool& out);
/// A number written with more than 19 digits, read correctly rounded: simdjson 3.0.1 On-Demand
/// silently misreads some (simdjson#2093: 0.1234567890123456789012 became 0.0017...). `x` is what
/// get_double() gave, kept when the token is not a plain finite double. False for an integer literal
/// beyond 64 bits, which no reader takes (coercion::int_beyond_64_bits).
bool exact_double(std::string_view token, double& x);
/// get_double() for every double the codecs read: only tokens long enough to hold 20 digits take
/// the slow, exact path. An integer beyond 64 bits is an error, which given() names.
inline simdjson::error_code read_double(Value& v, double& x) {
  const std::string_view token = v.raw_json_token();
  const auto e = v.get_double().get(x);
  if (e == simdjson::SUCCESS && token.size() >= 20 && !exact_double(token, x)) return simdjson::NUMBER_ERROR;
  return e;
}
/// After read_double() read `x` where `x == 0` or the mode is Strict: "-0" is int 0 to JSON (and
/// nlohmann), widened to 0.0; in Strict mode an integer is noted for check() (Decoder::note_integer).
double read_float_token(Decoder& d, Value& v, double x);
/// `expected one of [...], got ...` for a string that names no enumerator, or any other value.
bool enum_mismatch(Decoder& d, std::string_view got, std::span<const std::string_view> names);
bool enum_mismatch(Decoder& d, Value& v, std::span<const std::string_view> names);

/// Which fields of an object were seen.
class Seen {
 public:
  explicit Seen(std::size_t n) : rest_(n > 64 ? (n - 1) / 64 : 0, 0) {}
  void set(std::size_t i) {
    if (i < 64) [[likely]] {
      first_ |= std::uint64_t{1} << i;
    } else {
      rest_[i / 64 - 1] |= std::uint64_t{1} << (i % 64);
    }
  }
  bool operator[](std::size_t i) const { return ((i < 64 ? first_ : rest_[i / 64 - 1]) >> (i % 64)) & 1; }
  /// Whether all of the first `n` fields were seen (n is the size given at construction).
  bool all(std::size_t n) const {
    if (n <= 64) return first_ == (n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1);
    for (std::size_t i = 0; i < n; ++i)
      if (!(*this)[i]) return false;
    return true;
  }

 private:
  std::uint64_t first_ = 0;          // fields 0 to 63, which is all of them in most structs
  std::vector<std::uint64_t> rest_;  // 64 fields a word
};

/// The field named `key`, or fields.size(). Keys usually come in declaration order, so the search
/// starts at `hint` (the field after the last one found).
std::size_t find_field(std::span<const FieldInfo> fields, std::string_view key, std::size_t hint);
/// A key the object already had: throws InvalidJson `invalid JSON: duplicate key "x" at <object path>`,
/// as ptc::parse_json refuses the same text.
[[noreturn]] void duplicate_key(Decoder& d, std::string_view key);

/// The undeclared keys of one object, to refuse a repeated one, in a few bytes a key (the keys back to
/// back and a table of indexes, in runtime/codec/src: a std::set cost about 80 bytes a key, ten times a
/// short member's text). Nothing is allocated before the first key.
class SeenKeys {
 public:
  SeenKeys() noexcept;
  ~SeenKeys();
  SeenKeys(const SeenKeys&) = delete;
  SeenKeys& operator=(const SeenKeys&) = delete;
  /// False when `key` was already seen.
  bool insert(std::string_view key);

 private:
  struct Keys;
  std::unique_ptr<Keys> keys_;
};

/// An undeclared field `key`: read to its end; in Strict mode `unexpected field`, otherwise the warning
/// `unexpected field (ignored)` with a suggestion among `fields` (coercion::ignored_field).
bool unknown_field(Decoder& d, Value& v, std::span<const FieldInfo> fields, std::string_view key);

/// Puts the issues of an object's keys in the validator's order: declared fields in declaration
/// order, then undeclared fields (or a map's keys) by key. Keys are unique: a repeated one is invalid
/// JSON (duplicate_key) before its value is read.
///
/// The issues kept are capped as the decoder's are (Decoder::room): each key is the decoder's span while
/// it is decoded, with the issues read before the object as those before it; once many keys have
/// issues, those past the first limits::kStoredIssues of a kind in key order are counted and dropped,
/// so an object of hundreds of thousands of undeclared keys holds a few hundred issues at most.
class KeyedIssues {
 public:
  explicit KeyedIssues(Decoder& d);
  /// Before decoding one key's value: where its issues begin.
  [[gnu::always_inline]] Decoder::Mark open() {
    const auto begin = d_.mark();
    d_.set_span(begin, inner_before_);
    return begin;
  }
  /// After decoding one key's value, whose issues were recorded since `begin` (open()).
  [[gnu::always_inline]] void close(Decoder::Mark begin, std::size_t rank, std::string_view key, bool ok) {
    d_.set_span(outer_, outer_before_);
    const auto end = d_.mark();
    if (begin == end) [[likely]] {
      ok_ = ok_ && ok;  // nothing to order
      return;
    }
    add(begin, end, rank, key, ok);
  }
  /// Orders the issues; whether every key decoded.
  bool finish();

 private:
  void add(Decoder::Mark begin, Decoder::Mark end, std::size_t rank, std::string_view key, bool ok);
  void prune();
  struct Entry {
    Decoder::Span span;
    bool ok = true;
  };
  Decoder& d_;
  Decoder::Mark from_;
  Decoder::Mark outer_, outer_before_;  // the decoder's span around the object
  Decoder::Mark inner_before_;          // the issues before each of its keys
  std::vector<Entry> entries_;
  std::size_t prune_at_;  // entries_ held when they are next pruned
  bool ok_ = true;        // false once a key without issues kept failed
};

/// `missing required field` at `name`, as one key of `issues`.
void missing_field(Decoder& d, KeyedIssues& issues, std::size_t rank, std::string_view name);
/// `expected list of N items, got M`, moved before the items' issues (recorded since `from`).
void wrong_length(Decoder& d, Decoder::Mark from, std::size_t expected, std::size_t got);

/// The item's text as given (it must have been read to its end): for a failed set item.
nlohmann::json given_item(std::string_view token);
/// `duplicate item (same as [j])` at each `[i]`.
void report_duplicates(Decoder& d, const std::vector<std::pair<std::size_t, std::size_t>>& duplicates);

/// The value's JSON text, read to its end (and so checked): a union tries it once per alternative.
std::string_view raw_value(Decoder& d, Value& v);
/// What a union reports once no alternative matched exactly: the coerced match's warnings (true), or
/// the closest failure's issues (its refusals kept as such), or `expected <type_name>, got <value>`
/// (false), a refusal when `refused` (an alternative refused a number: none holds the value).
bool union_outcome(Decoder& d, Decoder* coerced, Decoder* closest, std::string_view raw, const std::string& type_name,
                   bool refused);

/// A callable passed to decode_root without std::function's allocation.
struct RootDecode {
  void* context;
  bool (*call)(void* context, Value& v);
};
/// Parses `text` (one JSON value) with this thread's parser for the current nesting of documents, and
/// calls `decode` on the value. Throws InvalidJson when the text is not JSON. With `object_only`, a
/// value that is not an object is not decoded: nullopt. With `again`, a `decode` that returns false
/// (or throws InvalidJson) is a first pass that gave up: the text is then read again from its start by
/// `again`, whose outcome is the result.
std::optional<bool> decode_root(std::string_view text, bool object_only, RootDecode decode,
                                const RootDecode* again = nullptr);
template <class F>
RootDecode root_decode(F& decode) {
  return RootDecode{&decode, [](void* c, Value& v) -> bool { return (*static_cast<F*>(c))(v); }};
}
template <class F>
std::optional<bool> decode_root(std::string_view text, bool object_only, F&& decode) {
  return decode_root(text, object_only, root_decode(decode));
}
/// A string where a list or map belongs (`want`): outside Strict mode and below the arguments object,
/// text that coercion::container_from_text accepts is decoded by `decode` after the warning `coerced
/// string "[1]" to list`, as the validator walks the parsed value; otherwise `expected <what>, got
/// string "..."`.
bool from_text(Decoder& d, Value& v, JsonKind want, std::string_view what, RootDecode decode);
template <class F>
bool from_text(Decoder& d, Value& v, JsonKind want, std::string_view what, F&& decode) {
  return from_text(d, v, want, what, root_decode(decode));
}
/// is_kind's slow path, kept out of line and apart from the hot code: `decode` is the codec itself,
/// which need not be inlined into itself for a value of the wrong kind.
template <class F>
[[gnu::noinline, gnu::cold]] bool not_of_kind(Decoder& d, Value& v, JsonKind kind, JsonKind want, std::string_view what,
                                              F& decode) {
  return kind == JsonKind::String ? from_text(d, v, want, what, decode) : fail(d, v, what);
}
/// The start of every list and map codec: true when `v` is of kind `want`. Otherwise the value is
/// read here (from_text for a string, else `expected <what>, got ...`) and `*result` says whether it
/// decoded.
template <class F>
bool is_kind(Decoder& d, Value& v, JsonKind want, std::string_view what, bool* result, F&& decode) {
  const JsonKind kind = kind_of(v);
  if (kind == want) [[likely]]
    return true;
  *result = not_of_kind(d, v, kind, want, what, decode);
  return false;
}

/// The Validation of a finished decode (without `value`): ok as the validator decides it per mode.
Validation finish(Decoder& d, bool decoded);

/// ISO 8601 times and dates (docs/codecs.md, "Types").
struct UtcTime {
  std::int64_t seconds = 0;  ///< since 1970-01-01T00:00:00Z
  std::uint32_t nanos = 0;
};
std::optional<UtcTime> parse_time(std::string_view text);
/// Throws std::out_of_range for a time outside the years 0000-9999.
std::string format_time(UtcTime t);
std::optional<std::chrono::year_month_day> parse_date(std::string_view text);
std::string format_date(const std::chrono::year_month_day& date);
/// `expected ISO 8601 time such as "2025-12-29T10:30:00Z", got string "..."`; returns false.
bool bad_time(Decoder& d, std::string_view text);
/// A valid time the C++ time point cannot hold.
bool time_out_of_range(Decoder& d, std::string_view text);
/// A fraction of a second finer than the time point's unit (`fraction_digits` is what it holds).
bool time_too_precise(Decoder& d, std::string_view text, int fraction_digits);
bool bad_date(Decoder& d, std::string_view text);

template <class T>
concept HasStructTraits = requires {
  StructTraits<T>::fields;
};

/// Reads a list (the caller checked its kind) one nesting level down, calling `item(index, value)` for
/// each item in order; returns how many there were.
template <class F>
std::size_t each_item(Decoder& d, Value& v, F&& item) {
  simdjson::ondemand::array array;
  check_json(v.get_array().get(array));
  d.enter();
  std::size_t i = 0;
  for (auto result : array) {
    auto&& value = in_place(std::move(result));
    item(i++, value);
  }
  d.leave();
  return i;
}

}  // namespace detail

}  // namespace ptc::codec
