// The scalar codecs' slow paths and constraint checks: every decision and message comes from
// ptc/coercion.hpp, as the validator's do.

#include <ptc/codec/codec.hpp>
#include <ptc/coercion.hpp>

#include <cstdio>

#include "read.hpp"

namespace ptc::codec {

namespace detail {

namespace {

// Records the outcome's warning or error (a refusal as one); whether it is usable.
template <class T>
bool settle(Decoder& d, coercion::Outcome<T>& r) {
  if (r.verdict == coercion::Verdict::Failed) {
    if (r.refused) {
      d.refuse(std::move(r.message));
    } else {
      d.error(std::move(r.message));
    }
    return false;
  }
  if (r.verdict == coercion::Verdict::Coerced) d.warn(std::move(r.message));
  return true;
}

std::vector<nlohmann::json> enum_values(std::span<const std::string_view> names) {
  std::vector<nlohmann::json> values;
  values.reserve(names.size());
  for (auto n : names) values.emplace_back(std::string(n));
  return values;
}

}  // namespace

bool int_outside(Decoder& d, std::int64_t value, bool is_unsigned, std::int64_t min, std::uint64_t max) {
  // Unsigned types are [:and :int [:>= 0]]: a negative value fails that refinement first. Types
  // narrower than 32 bits are [:and :int [:>= min] [:<= max]] (ptc-gen's schemas show their range).
  // Whichever the message, the type cannot hold the value: refused in every mode.
  static const Schema non_negative = Schema::refinement(Refine::Ge, std::int64_t{0});
  if (is_unsigned && value < 0) {
    d.refuse(*coercion::refinement_error(non_negative, value));
  } else if (coercion::range_in_schema(max)) {
    const bool below = value < min;
    const Schema bound =
        Schema::refinement(below ? Refine::Ge : Refine::Le, below ? min : static_cast<std::int64_t>(max));
    d.refuse(*coercion::refinement_error(bound, value));
  } else {
    d.refuse(coercion::expected("int in range " + coercion::int_range(min, max), value));
  }
  return false;
}

bool decode_int(Decoder& d, Value& v, bool is_unsigned, std::int64_t min, std::uint64_t max, std::int64_t& out,
                bool fit) {
  const nlohmann::json number = given(d, v);
  auto r = coercion::to_int(number, d.coercing());
  // An integral float (`300.0`) is a plain type error where the type holds its value, and refused where
  // it does not (for a uint8_t), with the same message.
  if (r.verdict == coercion::Verdict::Failed && !r.refused && number.is_number_float()) {
    const double x = number.get<double>();
    r.refused = x < static_cast<double>(min) || x > static_cast<double>(max);
  }
  if (!settle(d, r)) return false;
  const bool fits = r.value >= min && (r.value < 0 || static_cast<std::uint64_t>(r.value) <= max);
  if (fit && !fits) return int_outside(d, r.value, is_unsigned, min, max);
  out = r.value;
  return true;
}

bool float_outside(Decoder& d, double value, double max) {
  char bound[32];
  std::snprintf(bound, sizeof bound, "%g", max);
  d.refuse(coercion::expected(std::string("float within +/-") + bound, value));
  return false;
}

bool decode_float(Decoder& d, Value& v, double& out) {
  nlohmann::json number = given(d, v);
  auto r = coercion::to_float(number, d.coercing());
  if (!d.coercing()) d.note_integer(number.is_number_integer() ? std::optional(number) : std::nullopt);
  if (!settle(d, r)) return false;
  out = r.value;
  return true;
}

bool decode_bool(Decoder& d, Value& v, bool& out) {
  auto r = coercion::to_bool(given(d, v), d.coercing());
  if (!settle(d, r)) return false;
  out = r.value;
  return true;
}

bool enum_mismatch(Decoder& d, std::string_view got, std::span<const std::string_view> names) {
  d.error(coercion::not_one_of(enum_values(names), std::string(got)));
  return false;
}

bool enum_mismatch(Decoder& d, Value& v, std::span<const std::string_view> names) {
  d.error(coercion::not_one_of(enum_values(names), given(d, v)));
  return false;
}

}  // namespace detail

bool check(Decoder& d, const Schema& constraint, const nlohmann::json& decoded, bool held) {
  auto noted = d.take_noted_integer();
  const nlohmann::json& value = noted && decoded.is_number_float() && *noted == decoded ? *noted : decoded;
  if (value.is_null()) return true;
  auto refine = [&](const Schema& r) {
    auto message = coercion::refinement_error(r, value);
    if (message && held) {
      d.error(std::move(*message));
    } else if (message) {
      d.refuse(std::move(*message));
    }
    return !message;
  };
  if (constraint.kind() == Kind::Refinement) return refine(constraint);
  bool ok = true;
  const auto& parts = constraint.children();
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (parts[i].kind() == Kind::Refinement) ok &= refine(parts[i]);
  return ok;
}

}  // namespace ptc::codec
