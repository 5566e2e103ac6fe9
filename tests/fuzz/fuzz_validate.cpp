// libFuzzer target: validation/coercion and JSON Schema rendering.
//
// Input: a shorthand signature, '\n', then a JSON document (the tool arguments or result). The
// document is validated against input() in the input direction and against output() in the output
// direction, in every Mode; every Profile renders the signature's JSON Schemas. Properties checked:
// nothing crashes or throws; Mode::Disabled passes the value through untouched and reports no warning;
// Mode::WarnOnly and Mode::Disabled report as errors only refusals (numbers the types cannot hold,
// docs/validation.md), the same in both, each one of Mode::Enabled's errors in its order, and none in
// the output direction; ok is whether there are errors; at most limits::kStoredIssues issues of each
// list are stored, the rest counted; firewall_text on the document's compact text is firewall() on it.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/firewall.hpp>
#include <ptc/json_input.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/json_text.hpp>
#include <ptc/limits.hpp>
#include <ptc/signature.hpp>
#include <ptc/validate.hpp>

#include "fuzz_common.hpp"

namespace {

constexpr ptc::Mode kModes[] = {ptc::Mode::Enabled, ptc::Mode::WarnOnly, ptc::Mode::Strict, ptc::Mode::Disabled};
constexpr ptc::Profile kProfiles[] = {ptc::Profile::Portable, ptc::Profile::OpenAI, ptc::Profile::Anthropic,
                                      ptc::Profile::Gemini, ptc::Profile::Mcp};

// Whether `part` is a subsequence of `whole`.
bool within(const std::vector<ptc::Issue>& part, const std::vector<ptc::Issue>& whole) {
  std::size_t next = 0;
  for (const auto& issue : whole)
    if (next < part.size() && part[next] == issue) ++next;
  return next == part.size();
}

void check(const ptc::Schema& schema, const nlohmann::json& value, ptc::Direction direction, std::string_view input) {
  std::vector<ptc::Issue> enabled_errors, refusals;
  bool enabled_complete = true;
  std::size_t refusal_count = 0;
  for (ptc::Mode mode : kModes) {
    ptc::Validation v = ptc::validate_and_coerce(schema, value, {direction, mode});
    const std::string report = v.report();
    if (v.ok != (v.error_count() == 0))
      ptc_fuzz::oracle_failure("Validation::ok disagrees with Validation::errors", "input", input, "report", report);
    if (v.errors.size() > ptc::limits::kStoredIssues || v.warnings.size() > ptc::limits::kStoredIssues ||
        (v.more_errors != 0 && v.errors.size() != ptc::limits::kStoredIssues) ||
        (v.more_warnings != 0 && v.warnings.size() != ptc::limits::kStoredIssues))
      ptc_fuzz::oracle_failure("a Validation stores more issues than its cap, or counts some below it", "input", input,
                               "report", report);
    // The errors Enabled stored are its first: a lenient mode's (its refusals) are among them unless
    // Enabled counted some it did not store.
    if (mode == ptc::Mode::Enabled) {
      enabled_errors = v.errors;
      enabled_complete = v.more_errors == 0;
    }
    if (mode == ptc::Mode::Disabled && (!v.warnings.empty() || v.value != value))
      ptc_fuzz::oracle_failure("Mode::Disabled changed the value or warned", "input", input, "report", report);
    if (mode != ptc::Mode::WarnOnly && mode != ptc::Mode::Disabled) continue;
    if (direction == ptc::Direction::Output && !v.errors.empty())
      ptc_fuzz::oracle_failure("a lenient mode refused a result", "input", input, "report", report);
    if (enabled_complete && !within(v.errors, enabled_errors))
      ptc_fuzz::oracle_failure("a lenient mode's errors are not Mode::Enabled's", "input", input, "report", report);
    if (mode == ptc::Mode::WarnOnly) {
      refusals = v.errors;
      refusal_count = v.error_count();
    }
    if (mode == ptc::Mode::Disabled && (v.errors != refusals || v.error_count() != refusal_count))
      ptc_fuzz::oracle_failure("Mode::Disabled refused otherwise than Mode::WarnOnly", "input", input, "report",
                               report);
  }
}

// Dispatch's JSON path: the text parsed with undeclared members left out (their names noted in a
// DroppedFields), then validated by consuming it and the dropped fields reported (report_dropped_fields),
// must report (stored issues, counts, report text) and coerce exactly as the whole value validated in
// place does.
void check_arguments_path(const ptc::Schema& params, std::string_view text, const nlohmann::json& whole,
                          std::string_view input) {
  if (params.kind() != ptc::Kind::Map || !whole.is_object()) return;
  ptc::JsonParseOptions options;
  ptc::DroppedFields dropped;
  options.keep = [&params, &dropped](std::string_view key) {
    if (params.find(key)) return true;
    dropped.add(key);
    return false;
  };
  auto skipped = ptc::parse_json(text, options);
  if (!skipped)
    ptc_fuzz::oracle_failure("skipping undeclared members refused a valid text", "input", input, "error",
                             skipped.error().to_string());
  for (ptc::Mode mode : kModes) {
    const ptc::ValidateOptions vo{ptc::Direction::Input, mode, /*drop_undeclared=*/true};
    const ptc::Validation expected = ptc::validate_and_coerce(params, whole, vo);
    nlohmann::json owned = *skipped;
    ptc::Validation got = ptc::validate_and_coerce(params, std::move(owned), vo);
    ptc::report_dropped_fields(got, params, dropped, mode);
    nlohmann::json declared = expected.value;
    if (declared.is_object() && mode != ptc::Mode::Disabled)
      for (auto it = declared.begin(); it != declared.end();)
        it = params.find(it.key()) ? std::next(it) : declared.erase(it);
    nlohmann::json got_declared = got.value;
    if (got_declared.is_object() && mode != ptc::Mode::Disabled)
      for (auto it = got_declared.begin(); it != got_declared.end();)
        it = params.find(it.key()) ? std::next(it) : got_declared.erase(it);
    if (got.ok != expected.ok || got.report() != expected.report() || got.errors != expected.errors ||
        got.warnings != expected.warnings || got.more_errors != expected.more_errors ||
        got.more_warnings != expected.more_warnings || (mode != ptc::Mode::Disabled && got_declared != declared))
      ptc_fuzz::oracle_failure("the arguments path differs from validating the whole value", "input", input, "report",
                               got.report());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = ptc_fuzz::as_text(data, size);
  const auto newline = input.find('\n');
  const std::string_view signature_text = input.substr(0, newline);
  const std::string_view json_text = newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);

  auto sig = ptc::Signature::parse(signature_text);
  if (!sig) return 0;

  for (ptc::Profile profile : kProfiles) {
    auto schemas = ptc::to_json_schemas(*sig, profile);
    if (schemas) {
      (void)schemas->input.dump();
      (void)schemas->output.dump();
    } else {
      (void)schemas.error().to_string();
    }
  }

  auto doc = ptc::parse_json(json_text);
  if (!doc) {
    (void)doc.error().to_string();
    return 0;
  }
  check(sig->input(), *doc, ptc::Direction::Input, input);
  check(sig->output(), *doc, ptc::Direction::Output, input);
  check_arguments_path(sig->input(), json_text, *doc, input);

  // firewall_text is firewall() on compact text; on text in any other form it may decline, not misread.
  const std::string compact = ptc::compact_text(*doc);
  const auto hidden = ptc::firewall_text(sig->output(), compact);
  const std::string expected = ptc::compact_text(ptc::firewall(sig->output(), *doc));
  if (hidden && *hidden != expected)
    ptc_fuzz::oracle_failure("firewall_text differs from firewall", "input", input, "firewall_text", *hidden);
  if (!hidden && !ptc::has_firewalled_fields(sig->output()))
    ptc_fuzz::oracle_failure("firewall_text declined compact text without firewalled fields", "input", input, "compact",
                             compact);
  (void)ptc::firewall_text(sig->output(), json_text);
  return 0;
}
