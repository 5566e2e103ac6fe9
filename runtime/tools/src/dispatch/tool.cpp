#include <algorithm>
#include <mutex>
#include <string_view>

#include <ptc/tool.hpp>

#include <ptc/coercion.hpp>
#include <ptc/firewall.hpp>

#include "text.hpp"

namespace ptc {

namespace {

using text::trim;

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

void check_name(const std::string& name) {
  if (trim(name) != name) throw DefinitionError("Tool name must not contain surrounding whitespace.", {}, "name");
  if (!is_valid_tool_name(name)) throw DefinitionError("Tool name must match ^[a-z0-9_-]{1,64}$.", {}, "name");
}

std::string checked_description(std::string_view description) {
  const std::string_view d = trim(description);
  if (!is_ascii(d)) throw DefinitionError("Tool description must be ASCII.", {}, "description");
  if (!is_valid_tool_description(d))
    throw DefinitionError("Tool description must be 1-200 ASCII characters.", {}, "description");
  return std::string(d);
}

std::string checked_title(std::string_view title) {
  const std::string_view t = trim(title);
  if (!t.empty() && !is_valid_tool_title(t))
    throw DefinitionError("Tool title must be 1-100 printable ASCII characters.", {}, "title");
  return std::string(t);
}

void check_hints(const std::optional<ToolHints>& hints) {
  if (hints && hints_contradict(hints->read_only, hints->destructive))
    throw DefinitionError("A read-only tool cannot be destructive.", {}, "hints");
}

// The errors stored (Validation keeps the first limits::kStoredIssues), and how many more there are.
std::string first_errors(const Validation& v) {
  std::string out;
  for (const auto& e : v.errors) {
    if (!out.empty()) out += "; ";
    out += e.path + ": " + e.message;
  }
  if (v.more_errors != 0) {
    out += "; ... and ";
    out += std::to_string(v.more_errors);
    out += " more";
  }
  return out;
}

// Examples teach the model what a good call looks like, so they are held to the strict rules: no
// coercion, no extra fields.
void check_example(const ToolExample& example, std::size_t index, const Signature& signature) {
  const std::string where = "examples[" + std::to_string(index) + "]";
  if (!is_ascii(example.description))
    throw DefinitionError("Tool example description must be ASCII.", {}, where + ".description");
  if (example.description.size() > kMaxToolDescription)
    throw DefinitionError("Tool example description must be at most 200 ASCII characters.", {}, where + ".description");
  const std::string label = "Tool example " + std::to_string(index) + " ('" + example.description + "')";
  auto in = validate(signature.input(), example.input, {Direction::Input, Mode::Strict});
  if (!in.ok)
    throw DefinitionError(label + " input does not match the parameters: " + first_errors(in), {}, where + ".input");
  auto out = validate(signature.output(), example.output, {Direction::Output, Mode::Strict});
  if (!out.ok)
    throw DefinitionError(label + " output does not match the result: " + first_errors(out), {}, where + ".output");
}

/// Whether the schema refines values beyond their structure anywhere: `[:and ...]`, ranges, patterns.
bool refined(const Schema& s) {
  switch (s.kind()) {
    case Kind::And:
    case Kind::Refinement: return true;
    case Kind::Map:
      return std::any_of(s.entries().begin(), s.entries().end(), [](const MapEntry& e) { return refined(e.schema); });
    case Kind::MapOf: return refined(s.key()) || refined(s.value());
    case Kind::Vector:
    case Kind::Sequential:
    case Kind::Set:
    case Kind::Maybe: return refined(s.item());
    case Kind::Tuple:
    case Kind::Or: return std::any_of(s.children().begin(), s.children().end(), refined);
    default: return false;
  }
}

/// make_tool's invoker: the runtime validator, then the JSON handler on the coerced arguments.
class JsonInvoker final : public ToolInvoker {
 public:
  JsonInvoker(Schema params, JsonHandler handler) : params_(std::move(params)), handler_(std::move(handler)) {}

  /// Text is declined: dispatch parses it, with the signature's rules for undeclared members, and
  /// hands the object back owned.
  std::optional<Prepared> prepare(const ToolArguments& arguments, Mode mode) const override {
    if (arguments.is_text()) return std::nullopt;
    const ValidateOptions options{Direction::Input, mode, /*drop_undeclared=*/true};
    Prepared p;
    if (!arguments.is_owned()) {
      p.validation = validate_and_coerce(params_, arguments.object(), options);
      return finish(std::move(p), arguments.object());
    }
    nlohmann::json given = arguments.take();  // parsed for this call alone: moved, not copied
    p.validation = validate_and_coerce(params_, std::move(given), options);
    return finish(std::move(p), given);
  }

 private:
  // `given`: the arguments as given, which the coerced value stands for when it is not an object.
  Prepared finish(Prepared p, const nlohmann::json& given) const {
    if (params_.kind() == Kind::Map) complete(p.validation, given);
    p.arguments = std::move(p.validation.value);
    if (p.validation.ok) {
      p.run = [this, args = p.arguments](ToolContext& context) -> ToolResult<LazyJson> {
        return handler_(*args, context);
      };
    }
    return p;
  }

  // Whatever the mode, the handler gets an object holding exactly the declared parameters: an absent
  // one as its default or null, an undeclared one never. So `args["x"]` on the const json is always
  // defined (in warn_only and disabled a missing required parameter reads as null, and get<T>() on it
  // throws, which dispatch reports), and no policy is shown an argument the tool does not take.
  void complete(Validation& validation, const nlohmann::json& given) const {
    // The coerced value is validation's own: its parts are moved, not copied.
    const bool owned = validation.value.is_object();
    const nlohmann::json& coerced = owned ? validation.value : given;
    nlohmann::json args = nlohmann::json::object();
    for (const auto& e : params_.entries()) {
      auto it = coerced.is_object() ? coerced.find(e.name) : coerced.end();
      if (coerced.is_object() && it != coerced.end() && !(it->is_null() && e.default_value))
        args[e.name] = owned ? std::move(const_cast<nlohmann::json&>(*it)) : *it;
      else
        args[e.name] = e.default_value ? *e.default_value : nlohmann::json(nullptr);
    }
    validation.value = std::move(args);
  }

  Schema params_;
  JsonHandler handler_;
};

}  // namespace

bool is_valid_tool_name(std::string_view name) noexcept {
  return !name.empty() && name.size() <= kMaxToolName && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

bool is_valid_tool_description(std::string_view description) noexcept {
  return !description.empty() && description.size() <= kMaxToolDescription && is_ascii(description);
}

bool is_valid_tool_title(std::string_view title) noexcept {
  return !title.empty() && title.size() <= kMaxToolTitle &&
         std::all_of(title.begin(), title.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

struct Tool::ReadSignature {
  std::once_flag once;
  Signature signature;
  ResultFacts facts;
};

namespace {

Signature signature_from_malli(std::string_view malli) {
  auto read = Signature::from_malli(malli);
  if (!read) throw DefinitionError("Tool signature does not parse: " + read.error().to_string(), {}, "signature");
  return std::move(*read);
}

}  // namespace

std::string_view ptc_version() noexcept { return PTC_RUNTIME_VERSION; }

Tool::Tool(ToolSpec spec) {
  check_name(spec.name);
  spec.description = checked_description(spec.description);
  spec.title = checked_title(spec.title);
  check_hints(spec.hints);
  // Examples are checked against the signature, so a tool that has them reads it now.
  if (!spec.signature_malli.empty() && !spec.examples.empty()) {
    spec.signature = signature_from_malli(spec.signature_malli);
    spec.signature_malli = {};
  }
  for (std::size_t i = 0; i < spec.examples.size(); ++i) check_example(spec.examples[i], i, spec.signature);
  if (spec.listing && spec.listing->version == ptc_version()) listing_ = spec.listing;
  spec_ = std::make_shared<const ToolSpec>(std::move(spec));
  if (!spec_->signature_malli.empty()) {
    read_ = std::make_shared<ReadSignature>();
    return;
  }
  facts_ = {refined(spec_->signature.output()), has_firewalled_fields(spec_->signature.output())};
}

const Signature& Tool::read_signature() const {
  std::call_once(read_->once, [this] {
    read_->signature = signature_from_malli(spec_->signature_malli);
    read_->facts = {refined(read_->signature.output()), has_firewalled_fields(read_->signature.output())};
  });
  return read_->signature;
}

const Tool::ResultFacts& Tool::read_facts() const {
  read_signature();
  return read_->facts;
}

std::string Tool::signature_text() const { return listing_ ? std::string(listing_->signature) : signature().render(); }

Tool Tool::with_description(std::string description) const {
  if (!accepts_overrides())
    throw DefinitionError("Tool '" + name() + "' does not accept description overrides.", {}, "description");
  ToolSpec copy = *spec_;
  copy.description = std::move(description);
  return Tool(std::move(copy));
}

Tool make_tool(std::string name, std::string description, Signature signature, JsonHandler handler,
               ToolOptions options) {
  ToolSpec spec;
  spec.name = std::move(name);
  spec.description = std::move(description);
  if (handler) spec.invoker = std::make_shared<JsonInvoker>(signature.input(), std::move(handler));
  spec.signature = std::move(signature);
  spec.accepts_overrides = options.accepts_overrides;
  spec.examples = std::move(options.examples);
  spec.title = std::move(options.title);
  spec.hints = options.hints;
  spec.client_capabilities = options.client_capabilities;
  return Tool(std::move(spec));
}

Tool make_tool(std::string name, std::string description, std::string_view signature, JsonHandler handler,
               ToolOptions options) {
  auto parsed = Signature::parse(signature);
  if (!parsed) throw DefinitionError("Tool signature does not parse: " + parsed.error().to_string(), {}, "signature");
  return make_tool(std::move(name), std::move(description), std::move(*parsed), std::move(handler), std::move(options));
}

}  // namespace ptc
