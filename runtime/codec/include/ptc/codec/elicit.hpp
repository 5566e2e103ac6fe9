#pragma once
// ToolContext::elicit<T>: ask the user for a value of a C++ type. The type's schema (its codec's) must be
// a struct of strings, numbers, booleans and string enums, the restricted form MCP elicitation allows; the
// answer is checked against it and decoded into T.
//
//   struct Confirm { bool confirm; };
//   auto answer = context.elicit<Confirm>("Delete PTC-7? This cannot be undone.");
//   if (!answer) return ptc::ToolResult<...>::error(answer.error().message);   // e.g. the client cannot elicit
//   if (!answer->accepted() || !answer->value->confirm) return ...;            // declined, cancelled, or no

#include <string>
#include <string_view>

#include <ptc/codec/codec.hpp>
#include <ptc/codec/schema_of.hpp>
#include <ptc/json_text.hpp>
#include <ptc/tool_context.hpp>

namespace ptc {

template <class T>
Result<Elicited<T>> ToolContext::elicit(std::string_view message, std::string key) {
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
