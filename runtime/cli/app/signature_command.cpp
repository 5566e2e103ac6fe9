#include "signature_command.hpp"

#include <iostream>
#include <memory>

#include <ptc/json_input.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/json_text.hpp>
#include <ptc/signature.hpp>
#include <ptc/tool_list.hpp>
#include <ptc/tool_rules.hpp>
#include <ptc/validate.hpp>

#include "support.hpp"

namespace ptc::app {
namespace {

constexpr int kInvalid = 1;
constexpr int kUsage = 2;

struct Options {
  std::string signature;
  bool malli = false;
  bool input = false;
  bool output = false;
  std::string json;
  std::string mode = "enabled";
  std::string name;
  std::string description;
  std::string profile = "portable";
};

Result<Signature> read_signature(const Options& o) {
  return o.malli ? Signature::from_malli(o.signature) : Signature::parse(o.signature);
}

int parse_error(const Error& e) {
  std::cerr << "error: " << e.to_string() << "\n";
  return kInvalid;
}

int print_parse(const Options& o, bool as_malli) {
  auto sig = read_signature(o);
  if (!sig) return parse_error(sig.error());
  std::cout << (as_malli ? sig->to_malli() : sig->render()) << "\n";
  return 0;
}

int print_validate(const Options& o) {
  auto sig = read_signature(o);
  if (!sig) return parse_error(sig.error());
  auto mode = mode_from_name(o.mode);
  if (!mode) {
    std::cerr << cli::detail::unknown_mode(o.mode);
    return kUsage;
  }
  auto text = cli::detail::read_json_argument(o.json);
  if (!text) {
    std::cerr << cli::detail::cannot_read(text.error());
    return kUsage;
  }
  auto data = parse_json(*text);
  if (!data) {
    std::cerr << "error: " << data.error().to_string() << "\n";
    return kInvalid;
  }
  ValidateOptions options{o.input ? Direction::Input : Direction::Output, *mode};
  auto r = validate_and_coerce(o.input ? sig->input() : sig->output(), *data, options);
  nlohmann::ordered_json out;
  out["ok"] = r.ok;
  // Converted, not parsed from text: ordered_json's parser looks each key up among those before it,
  // which made a value of 100,000 keys take half a minute.
  out["value"] = nlohmann::ordered_json(r.value);
  auto issues = [](const std::vector<Issue>& xs) {
    auto arr = nlohmann::ordered_json::array();
    for (const auto& i : xs) arr.push_back({{"path", i.path}, {"message", i.message}});
    return arr;
  };
  out["errors"] = issues(r.errors);
  out["warnings"] = issues(r.warnings);
  // A Validation stores the first limits::kStoredIssues of each; the others are counted.
  if (r.more_errors != 0) out["more_errors"] = r.more_errors;
  if (r.more_warnings != 0) out["more_warnings"] = r.more_warnings;
  std::cout << ptc::compact_text(out) << "\n";
  return r.ok ? 0 : kInvalid;
}

int print_render(const Options& o) {
  // The same rule make_tool applies: a prompt entry for a tool that could never be registered misleads.
  if (!is_valid_tool_name(o.name)) {
    std::cerr << "error: invalid tool name '" << o.name << "'; tool names must match ^[a-z0-9_-]{1,64}$\n";
    return kUsage;
  }
  auto sig = read_signature(o);
  if (!sig) return parse_error(sig.error());
  std::cout << render_tool_entry(ToolDescription{o.name, o.description, *sig, {}});
  return 0;
}

int print_json_schema(const Options& o) {
  auto sig = read_signature(o);
  if (!sig) return parse_error(sig.error());
  auto profile = profile_from_name(o.profile);
  if (!profile) {
    std::cerr << cli::detail::unknown_profile(o.profile);
    return kUsage;
  }
  auto schemas = to_json_schemas(*sig, *profile);
  if (!schemas) {
    std::cerr << "error: " << schemas.error().to_string() << "\n";
    return kInvalid;
  }
  nlohmann::ordered_json out;
  out["input"] = schemas->input;
  out["output"] = schemas->output;
  std::cout << out.dump(2) << "\n";
  return 0;
}

}  // namespace

void add_signature_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Options>();
  auto* sig = app.add_subcommand("signature", "Parse, print, validate and render signatures");
  sig->require_subcommand(1);

  auto common = [o](CLI::App* cmd) {
    cmd->add_option("SIG", o->signature, "Shorthand signature, e.g. '(query :string) -> [{id :int}]'")->required();
    cmd->add_flag("--malli", o->malli, "Read SIG as Malli text, e.g. '[:=> [:cat :string] :int]'");
  };

  auto* parse = sig->add_subcommand("parse", "Print the canonical shorthand of SIG");
  common(parse);
  parse->callback([o, &exit_code] { exit_code = print_parse(*o, false); });

  auto* malli = sig->add_subcommand("malli", "Print the canonical Malli form of SIG");
  common(malli);
  malli->callback([o, &exit_code] { exit_code = print_parse(*o, true); });

  auto* validate = sig->add_subcommand("validate",
                                       "Validate JSON against SIG's parameters (--input) or result (--output); prints "
                                       "{\"ok\",\"value\",\"errors\",\"warnings\"}; exit 0 valid, 1 invalid, 2 usage");
  common(validate);
  auto* in = validate->add_flag("--input", o->input, "JSON is tool arguments: lenient coercion");
  auto* out = validate->add_flag("--output", o->output, "JSON is a tool result: strict");
  in->excludes(out);
  validate->add_option("JSON", o->json, "The JSON text to check; @FILE reads a file, - reads standard input")
      ->required();
  validate->add_option("--mode", o->mode, "enabled (default), warn_only, strict or disabled");
  validate->callback([o, &exit_code, validate] {
    if (!o->input && !o->output) {
      std::cerr << "error: give --input or --output\n" << validate->help();
      exit_code = kUsage;
      return;
    }
    exit_code = print_validate(*o);
  });

  auto* render = sig->add_subcommand("render", "Print the prompt entry for a tool with signature SIG");
  common(render);
  render->add_option("--name", o->name, "Tool name")->required();
  render->add_option("--description", o->description, "Tool description");
  render->callback([o, &exit_code] { exit_code = print_render(*o); });

  auto* schema = sig->add_subcommand("json-schema", "Print {\"input\":...,\"output\":...} JSON Schema 2020-12");
  common(schema);
  schema->add_option("--profile", o->profile, "portable (default), openai, anthropic, gemini or mcp");
  schema->callback([o, &exit_code] { exit_code = print_json_schema(*o); });
}

}  // namespace ptc::app
