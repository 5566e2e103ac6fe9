#pragma once
// What generated registration code builds tools from: an invoker that decodes the arguments straight
// from JSON text into the tool's Args struct, runs the C++ function, and encodes its result.

#include <functional>
#include <memory>
#include <string_view>

#include <ptc/codec/codec.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

namespace ptc::codec {

/// Turns what a tool function returns into the result dispatch expects.
template <class R>
ToolResult<nlohmann::json> to_tool_result(R&& value);                       // plain T
template <class T>
ToolResult<nlohmann::json> to_tool_result(ToolResult<T>&& result);          // keeps message/success
ToolResult<nlohmann::json> void_result();                                    // void -> null
// std::expected<T,E> -> {"result": T, "error": null} or {"result": null, "error": E} (when available)

/// `Args` has StructTraits (one field per parameter). `call` runs the function on decoded arguments.
template <class Args>
class Invoker final : public ToolInvoker {
 public:
  using Call = std::function<ToolResult<nlohmann::json>(Args& args, ToolContext& context)>;
  explicit Invoker(Call call) : call_(std::move(call)) {}

  /// From parsed JSON (dispatch parsed the arguments already): encodes to text and decodes.
  Prepared prepare(const nlohmann::json& arguments, Mode mode) const override;
  /// From JSON text, without building a DOM. nullopt when the text is not a JSON object, so that
  /// dispatch reports it as it reports every malformed argument.
  std::optional<Prepared> prepare_text(std::string_view arguments, Mode mode) const override;

 private:
  Call call_;
};

template <class Args>
std::shared_ptr<const ToolInvoker> make_invoker(typename Invoker<Args>::Call call) {
  return std::make_shared<Invoker<Args>>(std::move(call));
}

}  // namespace ptc::codec
