#pragma once
// What generated registration code builds tools from: an invoker that decodes the arguments straight
// from JSON text into the tool's Args struct, runs the C++ function, and encodes its result.

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <ptc/codec/codec.hpp>
#include <ptc/json_text.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

namespace ptc::codec {

namespace detail {
template <class T>
struct IsToolResult : std::false_type {};
template <class T>
struct IsToolResult<ToolResult<T>> : std::true_type {};
template <class T>
struct IsExpected : std::false_type {};
#if defined(__cpp_lib_expected)
template <class T, class E>
struct IsExpected<std::expected<T, E>> : std::true_type {};
#endif
/// A failed call whose message is the error's JSON: a string as it is, anything else compact.
ToolResult<LazyJson> error_result(const nlohmann::json& error);
/// The first NaN or infinity in `value`, at `path`, as the error that refuses it: no JSON text holds
/// one (its text would say null), and no function may run on it in any mode.
std::optional<Issue> non_finite(const nlohmann::json& value, const std::string& path = {});
/// `value` as a result value: the text TextWriter writes, or, when the C++ value holds something its
/// type does not describe (an enum value that is no enumerator), its JSON, which dispatch checks.
template <class T>
LazyJson result_value(const T& value) {
  TextWriter w = write_text(value);
  if (w.off_schema()) return LazyJson(to_json_value<T>(value));
  return LazyJson::from_text(w.take());
}
}  // namespace detail

/// Turns what a tool function returns into the result dispatch expects: a plain T becomes a success
/// holding its JSON text (LazyJson); a ToolResult<T> keeps its message, success and exclusion flags. A
/// std::expected<T,E> holding a value is a success holding `{"result": T, "error": null}` (its
/// declared `{result T, error E?}`); holding an error, it is a failed call (rolled back like any
/// failure) whose message is E: a string as it is, other types as compact JSON.
template <class R>
requires(!detail::IsToolResult<std::remove_cvref_t<R>>::value) ToolResult<LazyJson> to_tool_result(R&& value);
template <class T>
ToolResult<LazyJson> to_tool_result(ToolResult<T>&& result);
/// What a void function returns: a success holding null (its result type is :nil).
ToolResult<LazyJson> void_result();

/// `Args` has StructTraits (one field per parameter). `call` runs the function on the decoded arguments,
/// which it may take or change (parameters by value are moved from them).
/// Prepared::arguments is the text of the decoded Args: fields the C++ types do not declare are
/// dropped, and an absent optional parameter shows as null. It is written only if somebody reads it,
/// from the arguments' text decoded again: decoding is deterministic, and keeping the text costs one
/// string where keeping the decoded values would cost a copy of every string and list in them.
template <class Args>
class Invoker final : public ToolInvoker {
 public:
  using Call = std::function<ToolResult<LazyJson>(Args& args, ToolContext& context)>;
  explicit Invoker(Call call) : call_(std::move(call)) {}

  /// Text is decoded as it stands, without building a DOM; text that is not a JSON object, or not JSON
  /// at all, is declined (nullopt), so that dispatch reports it as it reports every malformed argument.
  /// An object is written as text and decoded: a NaN or an infinity in it (which a program, not a JSON
  /// text, can put there) is refused in every mode.
  std::optional<Prepared> prepare(const ToolArguments& arguments, Mode mode) const override {
    if (arguments.is_text()) {
      try {
        return decode(arguments.text(), mode);
      } catch (const InvalidJson&) {
        return std::nullopt;
      }
    }
    const nlohmann::json& object = arguments.object();
    try {
      if (auto bad = detail::non_finite(object)) return refused(std::move(*bad));
      if (auto p = decode(compact_text(object), mode)) return p;
      return refused({std::string(coercion::kRootPath), coercion::expected("map", object)});
    } catch (const InvalidJson& e) {
      return refused({std::string(coercion::kRootPath), e.what()});  // nesting that ptc::parse_json would have refused
    }
  }

 private:
  /// What the arguments' text is written from.
  struct Given {
    std::string text;
    Mode mode;
  };
  /// The decoded arguments and what they were decoded from, in one allocation.
  struct Held {
    Args args;
    Given given;
  };

  std::optional<Prepared> decode(std::string_view text, Mode mode) const {
    // Not value-initialized: the decode starts by assigning the arguments a fresh Args, so zeroing
    // the block first would be work thrown away.
    auto held = std::make_shared_for_overwrite<Held>();
    Decoder d(mode);
    auto decoded = detail::decode_document_into(d, text, true, held->args);
    if (!decoded) return std::nullopt;
    held->given = {std::string(text), mode};
    Prepared p;
    p.validation = detail::finish(d, *decoded);
    p.typed_results = true;
    p.arguments = LazyJson::deferred(std::shared_ptr<const Given>(held, &held->given), &decoded_text);
    // The function gets the arguments moved out of `held`, so that what it leaves of them is freed when
    // it returns rather than when the last reader of the arguments' text lets go of `held`.
    if (p.validation.ok)
      p.run = [this, args = &held->args](ToolContext& context) {
        Args taken = std::move(*args);
        return call_(taken, context);
      };
    p.state = std::move(held);
    return p;
  }

  /// The text of the Args that `given` decodes to. It decoded the same way before (it is the same
  /// text in the same mode), so it decodes again.
  static std::string decoded_text(const void* given) {
    const auto& g = *static_cast<const Given*>(given);
    Args args;
    Decoder d(g.mode);
    detail::decode_document_into(d, g.text, true, args);
    return to_text(args);
  }

  static Prepared refused(Issue issue) {
    Prepared p;
    p.validation.ok = false;
    p.validation.add_error(std::move(issue));
    return p;
  }

  Call call_;
};

template <class Args>
std::shared_ptr<const ToolInvoker> make_invoker(typename Invoker<Args>::Call call) {
  return std::make_shared<Invoker<Args>>(std::move(call));
}

template <class R>
requires(!detail::IsToolResult<std::remove_cvref_t<R>>::value) ToolResult<LazyJson> to_tool_result(R&& value) {
  using V = std::remove_cvref_t<R>;
  if constexpr (detail::IsExpected<V>::value) {
    using E = typename V::error_type;
    if (!value) return detail::error_result(to_json_value<E>(value.error()));
  }
  return ToolResult<LazyJson>::ok(detail::result_value<V>(value));
}

template <class T>
ToolResult<LazyJson> to_tool_result(ToolResult<T>&& result) {
  ToolResult<LazyJson> out;
  out.message = std::move(result.message);
  if (result.value) out.value = detail::result_value<T>(*result.value);
  out.success = result.success;
  out.exclude_value_from_context = result.exclude_value_from_context;
  return out;
}

inline ToolResult<LazyJson> void_result() { return ToolResult<LazyJson>::ok(LazyJson::from_text("null")); }

inline ToolResult<LazyJson> detail::error_result(const nlohmann::json& error) {
  return ToolResult<LazyJson>::error(plain_text(error));
}

inline std::optional<Issue> detail::non_finite(const nlohmann::json& value, const std::string& path) {
  if (value.is_number_float() && !std::isfinite(value.get<double>()))
    return Issue{path.empty() ? std::string(coercion::kRootPath) : path, coercion::expected("finite number", value)};
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it)
      if (auto bad = non_finite(it.value(), coercion::key_path(path, it.key()))) return bad;
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      if (auto bad = non_finite(value[i], coercion::index_path(path, i))) return bad;
  }
  return std::nullopt;
}

}  // namespace ptc::codec
