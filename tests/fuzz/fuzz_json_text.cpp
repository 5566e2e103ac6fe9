// libFuzzer target: ptc::compact_text, which writes JSON text itself instead of through nlohmann's
// serializer.
//
// Oracle, for any bytes: as a string value, and as the value they parse to (when they are JSON, in
// both object orders), compact_text writes exactly what nlohmann's dump writes with invalid UTF-8
// replaced.

#include <cstddef>
#include <cstdint>
#include <string>

#include <ptc/json_text.hpp>

#include "fuzz_common.hpp"

namespace {

template <class Json>
void same_as_dump(const Json& value, std::string_view input) {
  const std::string ours = ptc::compact_text(value);
  const std::string theirs = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (ours != theirs) ptc_fuzz::oracle_failure("compact_text differs from dump", "input", input, "compact_text", ours);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ptc_fuzz::as_text(data, size);
  same_as_dump(nlohmann::json(std::string(text)), text);
  nlohmann::ordered_json keyed;
  keyed[std::string(text)] = std::string(text);
  same_as_dump(keyed, text);
  // Depth is bounded by -max_len; nlohmann's own parser and dump recurse as deep as the input nests.
  const auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (!parsed.is_discarded()) {
    same_as_dump(parsed, text);
    same_as_dump(nlohmann::ordered_json::parse(text, nullptr, false), text);
  }
  return 0;
}
