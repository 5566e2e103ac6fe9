#pragma once
// ToolContext::elicit<T>: ask the user for a value of a C++ type. The type's schema (its codec's) must be
// a struct of strings, numbers, booleans and string enums, the restricted form MCP elicitation allows: a
// T that cannot be one does not compile (when its StructTraits list the members' types, as ptc-gen's
// do). The answer is checked against the schema and decoded into T.
//
//   struct Confirm { bool confirm; };
//   auto answer = context.elicit<Confirm>("Delete PTC-7? This cannot be undone.");
//   if (!answer) return ptc::ToolResult<...>::error(answer.error().message);   // e.g. the client cannot elicit
//   if (!answer->accepted() || !answer->value->confirm) return ...;            // declined, cancelled, or no

#include <chrono>
#include <concepts>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include <ptc/codec/codec.hpp>
#include <ptc/codec/schema_of.hpp>
#include <ptc/json_text.hpp>
#include <ptc/tool_context.hpp>

namespace ptc {
namespace codec::detail {

/// A field MCP elicitation can ask for: a string (dates included), a number, a boolean, an enum (ptc's
/// enums are string enums), an optional one of these, or a list of an enum (a multi-select).
template <class T>
struct ElicitScalar : std::bool_constant<std::same_as<T, std::string> || std::same_as<T, bool> || SchemaInteger<T> ||
                                         std::floating_point<T> || std::is_enum_v<T>> {};
template <class Duration>
struct ElicitScalar<std::chrono::time_point<std::chrono::system_clock, Duration>> : std::true_type {};
template <>
struct ElicitScalar<std::chrono::year_month_day> : std::true_type {};
template <SchemaInteger Rep, class Period>
struct ElicitScalar<std::chrono::duration<Rep, Period>> : std::true_type {};

template <class T>
struct ElicitField : ElicitScalar<T> {};
template <class T>
struct ElicitField<std::optional<T>> : ElicitScalar<T> {};
template <class E>
struct ElicitField<std::vector<E>> : std::is_enum<E> {};
template <class E>
struct ElicitField<std::set<E>> : std::is_enum<E> {};

template <class Tuple>
struct ElicitFields;
template <class... Fields>
struct ElicitFields<std::tuple<Fields...>> : std::bool_constant<(ElicitField<Fields>::value && ...)> {};

template <class T>
concept HasFieldTypes = requires {
  typename StructTraits<T>::field_types;
};

/// Whether elicit<T> can ask for T, known at compile time when T's StructTraits list the members' types
/// (ptc-gen's do); a hand-written StructTraits without `field_types` is checked when asked instead.
template <class T>
constexpr bool elicitable() {
  if constexpr (HasFieldTypes<T>)
    return ElicitFields<typename StructTraits<T>::field_types>::value;
  else
    return true;
}

}  // namespace codec::detail

template <class T>
Result<Elicited<T>> ToolContext::elicit(std::string_view message, std::string key) {
  static_assert(
      requires { codec::StructTraits<T>::fields; },
      "elicit<T>: T must be a struct with a codec (one ptc-gen wrote, or a StructTraits "
      "specialization): elicitation asks for an object of fields");
  static_assert(codec::detail::elicitable<T>(),
                "elicit<T>: every field of T must be a string, a number, a boolean, a date, an enum, an optional "
                "one of these, or a list of an enum: the only fields MCP elicitation can ask for");
  auto answer = elicit(message, codec::schema_of<T>(), std::move(key));
  if (!answer) return answer.error();
  Elicited<T> out;
  out.action = answer->action;
  if (!answer->value) return out;
  T value{};
  const Validation decoded = codec::decode_only(compact_text(*answer->value), value);
  if (!decoded.ok) return Error{"The user's answer does not decode:\n" + decoded.report()};
  out.value = std::move(value);
  return out;
}

}  // namespace ptc
