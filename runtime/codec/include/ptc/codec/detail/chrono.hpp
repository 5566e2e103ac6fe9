#pragma once
// Codecs of system_clock time points, year_month_day and durations.
// Part of ptc/codec/codec.hpp, which includes it after declaring Codec<T>, Decoder and the writers; not
// meant to be included on its own.

#include <chrono>

namespace ptc::codec {

/// system_clock time points: :string, ISO 8601 in UTC ("2025-12-29T10:30:00Z"; fractions and offsets
/// are read, Z is written).
template <class Duration>
struct Codec<std::chrono::time_point<std::chrono::system_clock, Duration>> {
  using TimePoint = std::chrono::time_point<std::chrono::system_clock, Duration>;
  static constexpr Shape shape{kind_bit(coercion::JsonKind::String), false};
  static std::string type_name() { return "string"; }
  static bool decode(Decoder& d, Value& v, TimePoint& out) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) return detail::fail(d, v, "string");
    const auto t = detail::parse_time(s);
    using Seconds = std::chrono::duration<double>;
    constexpr double lo = std::chrono::duration_cast<Seconds>(Duration::min()).count();
    constexpr double hi = std::chrono::duration_cast<Seconds>(Duration::max()).count();
    if (!t) return detail::bad_time(d, s);
    if (static_cast<double>(t->seconds) <= lo || static_cast<double>(t->seconds) + 1 >= hi)
      return detail::time_out_of_range(d, s);
    const auto fraction = std::chrono::nanoseconds(t->nanos);
    const auto held = std::chrono::duration_cast<Duration>(fraction);
    // Digits the type cannot hold are refused rather than dropped: "10:30:00.5" is not "10:30:00".
    if (std::chrono::duration_cast<std::chrono::nanoseconds>(held) != fraction)
      return detail::time_too_precise(d, s, fraction_digits());
    out = TimePoint(std::chrono::duration_cast<Duration>(std::chrono::seconds(t->seconds)) + held);
    return true;
  }
  // Decimal digits of a second the duration holds: 0 for seconds, 3 for milliseconds, ...
  static constexpr int fraction_digits() {
    int n = 0;
    for (auto den = Duration::period::den / Duration::period::num; den > 1 && n < 9; den /= 10) ++n;
    return n;
  }
  template <class W>
  static void encode(W& w, const TimePoint& value) {
    const auto since = value.time_since_epoch();
    const auto seconds = std::chrono::floor<std::chrono::seconds>(since);
    const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(since - seconds);
    w.string(detail::format_time({seconds.count(), static_cast<std::uint32_t>(nanos.count())}));
  }
};

/// Dates: :string "2025-12-29".
template <>
struct Codec<std::chrono::year_month_day> {
  static constexpr Shape shape{kind_bit(coercion::JsonKind::String), false};
  static std::string type_name() { return "string"; }
  static bool decode(Decoder& d, Value& v, std::chrono::year_month_day& out) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) return detail::fail(d, v, "string");
    const auto date = detail::parse_date(s);
    if (!date) return detail::bad_date(d, s);
    out = *date;
    return true;
  }
  template <class W>
  static void encode(W& w, const std::chrono::year_month_day& value) {
    w.string(detail::format_date(value));
  }
};

/// Durations: the count in the duration's own unit, with the rules of its representation.
template <class Rep, class Period>
struct Codec<std::chrono::duration<Rep, Period>> {
  using D = std::chrono::duration<Rep, Period>;
  static constexpr Shape shape = Codec<Rep>::shape;
  static std::string type_name() { return Codec<Rep>::type_name(); }
  static bool decode(Decoder& d, Value& v, D& out) {
    Rep count{};
    if (!Codec<Rep>::decode(d, v, count)) return false;
    out = D(count);
    return true;
  }
  template <class W>
  static void encode(W& w, const D& value) {
    Codec<Rep>::encode(w, value.count());
  }
};

}  // namespace ptc::codec
