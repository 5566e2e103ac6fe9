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

/// A call's arguments as dispatch hands them to an invoker: the JSON text the call brought (OpenAI, MCP
/// and the command line bring text), or an object, either the request's own (borrowed) or parsed for
/// this call alone (owned: the invoker may take it apart instead of copying it). A view: it refers to
/// what dispatch holds, and lives as long as the call to ToolInvoker::prepare.
class ToolArguments {
 public:
  static ToolArguments text(std::string_view json_text) { return ToolArguments(json_text, nullptr, nullptr); }
  static ToolArguments borrowed(const nlohmann::json& object) { return ToolArguments({}, &object, nullptr); }
  static ToolArguments owned(nlohmann::json& object) { return ToolArguments({}, &object, &object); }

  bool is_text() const { return object_ == nullptr; }
  /// Whether the object is this call's own, which take() moves out rather than copies.
  bool is_owned() const { return owned_ != nullptr; }
  /// The text, when is_text().
  std::string_view text() const { return text_; }
  /// The object, when !is_text().
  const nlohmann::json& object() const { return *object_; }
  /// The object for keeping: moved out when owned, copied when borrowed. When !is_text().
  nlohmann::json take() const { return owned_ ? std::move(*owned_) : *object_; }

 private:
  ToolArguments(std::string_view text, const nlohmann::json* object, nlohmann::json* owned)
      : text_(text), object_(object), owned_(owned) {}
  std::string_view text_;
  const nlohmann::json* object_;
  nlohmann::json* owned_;
};

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
  /// Decodes and validates `arguments` (an object, or text). Text may be declined with nullopt: this
  /// invoker does not read text, or the text is not a JSON object (or not JSON). Dispatch then parses
  /// the text itself, reports what is malformed, and calls again with the object it parsed (owned). An
  /// object is never declined: dispatch has checked that it is one, and fails the call if it is.
  virtual std::optional<Prepared> prepare(const ToolArguments& arguments, Mode mode) const = 0;
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

/// What listing a tool shows, rendered ahead of time: ptc-gen writes one per generated tool, so that a
/// program with a thousand tools lists them (`list`, MCP tools/list) without building one Signature.
/// Each text is exactly what the runtime renders from the signature (render_tool_listing() in
/// <ptc/tool_catalog.hpp> makes them, and the tests hold generated ones to it). The texts must outlive
/// every Tool built with them: string literals.
struct ToolListing {
  /// The ptc version that rendered the texts (ptc_version()). A listing of another version is ignored,
  /// and the tool is rendered from its signature, as one without a listing is.
  std::string_view version{};
  std::string_view signature{};   ///< Signature::render(): "(query :string) -> :int"
  std::string_view mcp_input{};   ///< compact JSON: the MCP profile's input schema
  std::string_view mcp_output{};  ///< compact JSON: its output schema, the result wrapped where MCP wraps it
  std::string_view mcp_result{};  ///< compact JSON: the output schema unwrapped (what 2026-07-28 lists)
};

/// The version of this ptc runtime, which a ToolListing must carry to be used.
std::string_view ptc_version() noexcept;

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
  // Last, so that code listing the members above in order still builds.
  /// Instead of `signature` (left empty): the signature's Malli text, read on the first use of
  /// Tool::signature() rather than when the tool is built. Generated tools give it, with a `listing`,
  /// so that a program starts without reading any signature. The text must outlive the tool (a string
  /// literal), and must be valid: reading it throws DefinitionError on field "signature" otherwise.
  std::string_view signature_malli{};
  /// What listing the tool shows, rendered ahead (ToolListing); null: rendered from the signature.
  const ToolListing* listing = nullptr;
};

class Tool {
 public:
  /// Throws DefinitionError (field "name", "description" or "examples[i]...") when the spec
  /// breaks a rule; the texts are in docs/tools.md.
  explicit Tool(ToolSpec spec);

  const std::string& name() const { return spec_->name; }
  const std::string& description() const { return spec_->description; }
  /// Read from ToolSpec::signature_malli on the first call when the spec gives that instead.
  const Signature& signature() const { return read_ ? read_signature() : spec_->signature; }
  /// The arguments object, `signature().input()`: what the input JSON Schema renders.
  const Schema& input() const { return signature().input(); }
  /// What the tool returns, `signature().output()`: what the output JSON Schema renders.
  const Schema& output() const { return signature().output(); }
  /// The texts rendered ahead (ToolSpec::listing) when they are this runtime's; null otherwise.
  const ToolListing* listing() const { return listing_; }
  /// "(params) -> result": the listing's, else rendered from the signature.
  std::string signature_text() const;
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
  bool result_is_structural() const { return !result_facts().refined && !result_facts().firewalled; }
  /// Whether the result schema refines values anywhere (`[:and ...]`, ranges, patterns): what a C++ type
  /// does not guarantee, so dispatch checks even a typed result against it.
  bool result_has_refinements() const { return result_facts().refined; }
  /// Whether the result schema has firewalled fields (`_name`) at any depth, which what the model sees
  /// shows as "<Firewalled>".
  bool result_has_firewall() const { return result_facts().firewalled; }

  /// A copy with another description (e.g. tuned per provider). Throws DefinitionError if the
  /// tool does not accept overrides or the description breaks the rules.
  Tool with_description(std::string description) const;

 private:
  /// What dispatch asks of the result schema, found once per signature.
  struct ResultFacts {
    bool refined = false;
    bool firewalled = false;
  };
  /// A signature read from its Malli text on first use, shared by the copies of the tool.
  struct ReadSignature;

  const Signature& read_signature() const;
  const ResultFacts& result_facts() const { return read_ ? read_facts() : facts_; }
  const ResultFacts& read_facts() const;

  std::shared_ptr<const ToolSpec> spec_;
  std::shared_ptr<ReadSignature> read_;  ///< null when the spec gives the signature itself
  const ToolListing* listing_ = nullptr;
  ResultFacts facts_{};
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
