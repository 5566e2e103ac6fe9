// libFuzzer target: the scalar codecs with rules beyond the schema (docs/codecs.md, "Differences from
// ptc::validate"): float's range, times and dates.
//
// Oracles, for any JSON text: a float decodes to a finite value or not at all (never +/-inf); a time
// point or date that decodes writes text that decodes back to the same value, or writing it throws
// std::out_of_range (years outside 0000-9999), never text its own decoder refuses; nothing else throws.

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <ptc/codec/codec.hpp>

#include "fuzz_common.hpp"

namespace {

template <class T>
void round_trip(std::string_view text, const char* what) {
  T value{};
  if (!ptc::codec::decode_text(text, value).ok) return;
  std::string written;
  try {
    written = ptc::codec::to_text(value);
  } catch (const std::out_of_range&) {
    return;  // the documented refusal for years beyond four digits
  }
  T again{};
  if (!ptc::codec::decode_text(written, again).ok)
    ptc_fuzz::oracle_failure(what, "input", text, "written, and refused", written);
  if (again != value) ptc_fuzz::oracle_failure(what, "input", text, "written, and read differently", written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ptc_fuzz::as_text(data, size);
  float f = 0;
  if (ptc::codec::decode_text(text, f).ok && !std::isfinite(f))
    ptc_fuzz::oracle_failure("a float decoded to a non-finite value", "input", text);
  using namespace std::chrono;
  round_trip<sys_seconds>(text, "a sys_seconds round trip");
  round_trip<sys_time<milliseconds>>(text, "a millisecond time round trip");
  round_trip<system_clock::time_point>(text, "a system_clock time round trip");
  round_trip<year_month_day>(text, "a date round trip");
  return 0;
}
