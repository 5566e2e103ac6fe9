#pragma once
// ptc::Tool — one function an LLM may call: a checked name and description, a signature, an optional
// handler, and examples. Immutable once built; copies share one definition.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/lazy_json.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool_example.hpp>
#include <ptc/tool_errors.hpp>
#include <ptc/tool_result.hpp>
#include <ptc/tool_rules.hpp>
#include <ptc/validate.hpp>

namespace ptc {

class ToolContext;

/// How a tool turns call arguments into a run. `make_tool` uses one that checks the arguments with the
/// runtime validator and hands the coerced JSON to a handler; generated code supplies invokers that
/// decode straight into C++ types. Implementations are called from many threads at once.
class ToolInvoker {
 public:
  virtual ~ToolInvoker() = default;

  struct Prepared {
    /// Outcome of decoding and validating the arguments: errors and warnings use the validator's paths
    /// and texts. Dispatch does not read its `value`; the coerced arguments are `arguments`.
    Validation validation;
    /// The coerced arguments, which policies, the outcome and ToolInvoked read. Generated invokers give
    /// their text, so no JSON tree is built unless one of those readers asks for it.
    LazyJson arguments;
    /// Set when `validation.ok`: runs the handler on the decoded arguments.
    std::function<ToolResult<LazyJson>(ToolContext&)> run;
    /// Kept alive with `run`, for a `run` that points into it without owning it: a std::function holding
    /// only pointers stores them in place, where one holding a std::shared_ptr allocates on every call.
    std::shared_ptr<void> state;
    /// Set by invokers whose result values made from text (LazyJson::from_text) were written from C++
    /// values by ptc's codec: the C++ type guarantees the structure of the tool's result schema, so
    /// dispatch checks such a value only where the schema asks for more (Tool::result_has_refinements).
    /// A value the type cannot vouch for (an enum holding no enumerator) comes as JSON and is checked.
    bool typed_results = false;
  };
  /// `arguments` is a JSON object (dispatch checks that first).
  virtual Prepared prepare(const nlohmann::json& arguments, Mode mode) const = 0;
  /// The same for arguments parsed for this call alone, which the invoker may take apart instead of
  /// copying (make_tool's moves them into the handler's arguments). By default, prepare.
  virtual Prepared prepare_owned(nlohmann::json&& arguments, Mode mode) const { return prepare(arguments, mode); }
  /// The same from the arguments' JSON text, when a call brings them as text (OpenAI does), for
  /// invokers that read text directly. nullopt means "use prepare": the text is not a JSON object (or
  /// not JSON), or this invoker has no text path; dispatch then parses and reports as usual.
  virtual std::optional<Prepared> prepare_text(std::string_view arguments, Mode mode) const {
    (void)arguments;
    (void)mode;
    return std::nullopt;
  }
};

/// How a tool behaves, for hosts that decide whether to ask the user before a call (MCP tool
/// annotations). The author's claims, not guarantees: hosts trust them only from trusted servers.
struct ToolHints {
  bool read_only = false;    ///< changes nothing anywhere
  bool destructive = false;  ///< may delete or overwrite data (a tool that only adds is not)
  bool idempotent = false;   ///< a second call with the same arguments changes nothing more
  bool open_world = false;   ///< reaches systems beyond its own domain (the web, other services)
  /// What a tool that states no hints is taken to be: MCP's defaults, which assume the worst.
  static constexpr ToolHints unstated() { return {false, true, false, true}; }
  friend bool operator==(const ToolHints&, const ToolHints&) = default;
};

/// The parts of a tool, checked when a Tool is built from them.
struct ToolSpec {
  std::string name{};         ///< ^[a-z0-9_-]{1,64}$
  std::string description{};  ///< trimmed, then 1-200 ASCII characters
  Signature signature{};
  std::shared_ptr<const ToolInvoker> invoker{};  ///< null: the tool is listed but cannot be called
  bool accepts_overrides = false;                ///< whether `with_description` may replace the description
  std::vector<ToolExample> examples{};
  std::string title{};  ///< a display name for people (MCP `title`); empty: none
  /// nullopt: the author stated nothing, and hints() is ToolHints::unstated(). Stated hints may not be
  /// both read-only and destructive.
  std::optional<ToolHints> hints{};
  /// What the tool cannot run without its client being able to answer ("elicitation", "sampling",
  /// "roots": ToolContext::elicit, sample, roots). An MCP server refuses a call from a client that did
  /// not declare one with -32021 before the handler runs.
  std::vector<std::string> client_capabilities{};
};

class Tool {
 public:
  /// Throws DefinitionError (field "name", "description" or "examples[i]...") when the spec
  /// breaks a rule; the texts are in docs/tools.md.
  explicit Tool(ToolSpec spec);

  const std::string& name() const { return spec_->name; }
  const std::string& description() const { return spec_->description; }
  const Signature& signature() const { return spec_->signature; }
  /// The arguments object, `signature().input()`: what the input JSON Schema renders.
  const Schema& input() const { return spec_->signature.input(); }
  /// What the tool returns, `signature().output()`: what the output JSON Schema renders.
  const Schema& output() const { return spec_->signature.output(); }
  [[deprecated("use input()")]] const Schema& params() const { return input(); }
  [[deprecated("use output()")]] const Schema& result() const { return output(); }
  bool has_handler() const { return spec_->invoker != nullptr; }
  const ToolInvoker* invoker() const { return spec_->invoker.get(); }
  bool accepts_overrides() const { return spec_->accepts_overrides; }
  const std::vector<ToolExample>& examples() const { return spec_->examples; }
  const std::string& title() const { return spec_->title; }
  /// The stated hints, or ToolHints::unstated().
  ToolHints hints() const { return spec_->hints.value_or(ToolHints::unstated()); }
  /// ToolSpec::client_capabilities.
  const std::vector<std::string>& client_capabilities() const { return spec_->client_capabilities; }
  /// Whether the result schema states only structure (types, fields, enums), no refinements
  /// (`[:and ...]`, ranges, patterns) and no firewalled fields: what a C++ type guarantees by itself.
  bool result_is_structural() const { return !refined_result_ && !firewalled_result_; }
  /// Whether the result schema refines values anywhere (`[:and ...]`, ranges, patterns): what a C++ type
  /// does not guarantee, so dispatch checks even a typed result against it.
  bool result_has_refinements() const { return refined_result_; }
  /// Whether the result schema has firewalled fields (`_name`) at any depth, which what the model sees
  /// shows as "<Firewalled>".
  bool result_has_firewall() const { return firewalled_result_; }

  /// A copy with another description (e.g. tuned per provider). Throws DefinitionError if the
  /// tool does not accept overrides or the description breaks the rules.
  Tool with_description(std::string description) const;

 private:
  std::shared_ptr<const ToolSpec> spec_;
  bool refined_result_ = false;
  bool firewalled_result_ = false;
};

/// A handler over JSON: receives the arguments validated and coerced against the signature.
using JsonHandler = std::function<ToolResult<nlohmann::json>(const nlohmann::json& args, ToolContext& context)>;

struct ToolOptions {
  bool accepts_overrides = false;
  std::vector<ToolExample> examples{};
  std::string title{};
  std::optional<ToolHints> hints{};                ///< e.g. `ptc::ToolHints{.read_only = true}`
  std::vector<std::string> client_capabilities{};  ///< ToolSpec::client_capabilities
};

/// A tool from a shorthand signature, e.g. `"(text :string) -> :string"`. A signature that does not
/// parse is a DefinitionError on field "signature" with the column. An empty handler makes a tool
/// that is listed but cannot be called.
Tool make_tool(std::string name, std::string description, std::string_view signature, JsonHandler handler = {},
               ToolOptions options = {});
Tool make_tool(std::string name, std::string description, Signature signature, JsonHandler handler = {},
               ToolOptions options = {});

}  // namespace ptc
