// Parsing one JSON text for a decode: a thread-local simdjson parser and padded buffer per nesting
// level (a union's alternatives are parsed while the enclosing document is still being read).

#include <cstring>
#include <memory>

#include <ptc/codec/codec.hpp>

namespace ptc::codec::detail {

namespace {

struct Slot {
  simdjson::ondemand::parser parser;
  std::string buffer;
};

constexpr std::size_t kKeptBytes = std::size_t{1} << 20;

thread_local std::vector<std::unique_ptr<Slot>> slots;
thread_local std::size_t slots_in_use = 0;

class Lease {
 public:
  Lease() {
    if (slots_in_use == slots.size()) slots.push_back(std::make_unique<Slot>());
    slot_ = slots[slots_in_use++].get();
  }
  // A slot that grew for a large text gives its memory back: a thread keeps only what small calls
  // need, so a burst of large calls on many threads leaves no copies of the largest text behind.
  ~Lease() {
    if (slot_->buffer.size() > kKeptBytes) {
      slot_->parser = simdjson::ondemand::parser();
      slot_->buffer = std::string();
    }
    --slots_in_use;
  }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  Slot& operator*() const { return *slot_; }

 private:
  Slot* slot_;
};

}  // namespace

std::optional<bool> decode_root(std::string_view text, bool object_only, RootDecode decode, const RootDecode* again) {
  // Read the text as ptc::parse_json reads it: a UTF-8 byte order mark at the start is skipped, and a
  // NUL byte anywhere is invalid (it used to end the input, so `{"a":1}<NUL>anything` passed).
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (text.find('\0') != std::string_view::npos) throw InvalidJson("invalid JSON: NUL byte");
  Lease lease;
  Slot& slot = *lease;
  // The text goes inside "[...]": simdjson gives no value for a scalar document, and a list's end
  // shows whether the text held exactly one value.
  const std::size_t length = text.size() + 2;
  if (slot.buffer.size() < length + simdjson::SIMDJSON_PADDING) slot.buffer.resize(length + simdjson::SIMDJSON_PADDING);
  char* buffer = slot.buffer.data();
  buffer[0] = '[';
  std::memcpy(buffer + 1, text.data(), text.size());
  buffer[length - 1] = ']';
  std::memset(buffer + length, 0, simdjson::SIMDJSON_PADDING);

  simdjson::ondemand::document document;
  check_json(slot.parser.iterate(buffer, length, slot.buffer.size()).get(document));
  // One pass over the document. A first pass that has a second to fall back on stops as soon as its
  // decode returns false, without reading the rest.
  auto pass = [&](RootDecode run, bool first_of_two) -> std::optional<bool> {
    simdjson::ondemand::array wrapper;
    check_json(document.get_array().get(wrapper));
    std::optional<bool> decoded;
    bool first = true;
    for (auto result : wrapper) {
      if (!first) throw InvalidJson("invalid JSON: more than one value");
      first = false;
      auto&& value = in_place(std::move(result));
      if (object_only && kind_of(value) != coercion::JsonKind::Map) return std::nullopt;
      decoded = run.call(run.context, value);
      if (first_of_two && !*decoded) return decoded;
    }
    if (first) throw InvalidJson("invalid JSON: no value");
    const char* rest = nullptr;
    if (document.current_location().get(rest) == simdjson::SUCCESS)
      throw InvalidJson("invalid JSON: content after the value");
    return decoded;
  };
  if (!again) return pass(decode, false);
  try {
    if (auto decoded = pass(decode, true); !decoded || *decoded) return decoded;
  } catch (const InvalidJson&) {
    // The second pass meets it too, and throws it then.
  }
  // The second pass parses the text anew rather than rewinding the document: simdjson keeps an
  // iterator's error across a rewind, and iterating such a document again can loop forever.
  check_json(slot.parser.iterate(buffer, length, slot.buffer.size()).get(document));
  return pass(*again, false);
}

Validation finish(Decoder& d, bool decoded) {
  Validation r;
  // In WarnOnly and Disabled only refusals are errors (Decoder::refuse): the rest goes on.
  const bool lenient = d.mode() == Mode::WarnOnly || d.mode() == Mode::Disabled;
  r.ok = (decoded || lenient) && d.error_count() == 0;
  d.take_report(r);
  return r;
}

}  // namespace ptc::codec::detail
