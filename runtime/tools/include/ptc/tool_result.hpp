#pragma once
// ptc::ToolResult — what a tool hands back: a message for the model, an optional typed value, and
// whether the call succeeded. A failure is a result, not an exception, so evaluation goes on.

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include <ptc/schema.hpp>

namespace ptc {

namespace detail {
std::string render_tool_output(std::string_view message, const nlohmann::json* value, bool success,
                               const Schema* schema);
/// The same for a value already written as compact JSON text (`json`).
std::string render_tool_output_text(std::string_view message, std::string json, bool success);
}  // namespace detail

template <class T = nlohmann::json>
struct ToolResult {
  /// Text for the model; "OK" for plain successes.
  std::string message;
  /// The payload. Failures usually have none.
  std::optional<T> value;
  bool success = true;
  /// Keep the value for C++ callers and telemetry but show the model only the message. Not a security
  /// boundary: the value still travels through the process.
  bool exclude_value_from_context = false;

  static ToolResult ok(T value, std::string message = "OK") {
    return ToolResult{std::move(message), std::optional<T>(std::move(value)), true, false};
  }
  static ToolResult error(std::string message) { return ToolResult{std::move(message), std::nullopt, false, false}; }
  /// A failure that carries a payload (e.g. partial results).
  static ToolResult error(std::string message, T value) {
    return ToolResult{std::move(message), std::optional<T>(std::move(value)), false, false};
  }

  /// The same result with its value as a U (nlohmann::json to ptc::LazyJson and back, say): what lets
  /// a handler written for one value type serve where the other is expected.
  template <class U>
  requires(!std::is_same_v<U, T> && std::is_constructible_v<U, const T&>) operator ToolResult<U>() const& {
    return ToolResult<U>{message, value ? std::optional<U>(U(*value)) : std::nullopt, success,
                         exclude_value_from_context};
  }
  template <class U>
  requires(!std::is_same_v<U, T> && std::is_constructible_v<U, T&&>) operator ToolResult<U>() && {
    return ToolResult<U>{std::move(message), value ? std::optional<U>(U(std::move(*value))) : std::nullopt, success,
                         exclude_value_from_context};
  }

  /// The text the model sees: the value as compact JSON, or the message when there is no value or it
  /// is excluded from the context. A failure with a visible value shows both: the message, a blank line, the
  /// JSON. T must convert to nlohmann::json.
  std::string render() const { return render_with(nullptr); }
  /// Same, with the fields `result_schema` marks firewalled (`_name`) shown as "<Firewalled>".
  std::string render(const Schema& result_schema) const { return render_with(&result_schema); }

 private:
  std::string render_with(const Schema* schema) const {
    if (!value || exclude_value_from_context) return detail::render_tool_output(message, nullptr, success, schema);
    if constexpr (std::is_convertible_v<const T&, const nlohmann::json&>) {  // json, LazyJson: no copy
      const nlohmann::json& json = *value;
      return detail::render_tool_output(message, &json, success, schema);
    } else {
      const nlohmann::json json = *value;
      return detail::render_tool_output(message, &json, success, schema);
    }
  }
};

}  // namespace ptc
