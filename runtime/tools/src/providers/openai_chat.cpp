// OpenAI Chat Completions: the `tools` entry of a request, one tool call of a response, and the `tool`
// message that answers it. This file is the format's one home: code that sends Chat Completions requests
// and reads their responses (an agent loop's) belongs beside these.

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include <ptc/coercion.hpp>
#include <ptc/provider.hpp>
#include <ptc/tool_catalog.hpp>

#include "common.hpp"
#include "text.hpp"

namespace ptc {
namespace providers {

using coercion::key_path;

namespace {

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

}  // namespace

// OpenAI sends arguments as JSON text; it stays text so that dispatch reports malformed text as a
// failed call instead of this parser losing the call. Some OpenAI-compatible servers send "" for a call
// without arguments, which means the empty object, not malformed JSON. An object is taken as is, for
// servers that send one.
Result<json> openai_arguments(const json& obj, const std::string& path) {
  auto it = obj.find("arguments");
  const std::string where = key_path(path, "arguments");
  if (it == obj.end()) return at(where, "missing required field");
  if (it->is_string() && blank(it->get_ref<const std::string&>())) return json::object();
  if (it->is_string() || it->is_object()) return *it;
  return at(where, "expected a string of JSON text or an object");
}

Result<ToolCall> chat_call(const json& call, const std::string& path) {
  if (auto bad = expect_object(call, path)) return *bad;
  if (auto bad = expect_type(call, path, "function")) return *bad;
  auto id = required_string(call, path, "id");
  if (!id) return id.error();
  const std::string fpath = key_path(path, "function");
  auto fn = call.find("function");
  if (fn == call.end()) return at(fpath, "missing required field");
  if (auto bad = expect_object(*fn, fpath)) return *bad;
  auto name = required_name(*fn, fpath);
  if (!name) return name.error();
  auto args = openai_arguments(*fn, fpath);
  if (!args) return args.error();
  return ToolCall{std::move(id).value(), std::move(name).value(), std::move(args).value()};
}

}  // namespace providers

// Each reply is written once, as text, with its keys in nlohmann::json's sorted order so that the
// text is byte for byte the dump() of the JSON version, which parses it.
std::string openai_chat_tool_message_text(const ToolOutcome& outcome) {
  std::string out;
  out.reserve(outcome.rendered.size() + outcome.call_id.size() + 48);
  out += R"({"content":)";
  text::append_json_string(out, outcome.rendered);
  out += R"(,"role":"tool","tool_call_id":)";
  text::append_json_string(out, outcome.call_id);
  out += '}';
  return out;
}

// The JSON forms of the replies put their members in place: an initializer list would build each
// member as a two-element array and copy it, a third of the dispatch's cost again.
nlohmann::json openai_chat_tool_message(const ToolOutcome& outcome) {
  nlohmann::json out(nlohmann::json::value_t::object);
  auto& members = out.get_ref<nlohmann::json::object_t&>();
  members.emplace("content", text::valid_utf8(outcome.rendered));
  members.emplace("role", "tool");
  members.emplace("tool_call_id", text::valid_utf8(outcome.call_id));
  return out;
}

Result<OrderedJson> openai_chat_tool(const Tool& tool) {
  auto schemas = tool_schemas(tool, Profile::OpenAI);
  if (!schemas) return schemas.error();
  OrderedJson fn = providers::named(tool);
  fn["parameters"] = std::move(schemas->input);
  fn["strict"] = true;
  OrderedJson out = OrderedJson::object();
  out["type"] = "function";
  out["function"] = std::move(fn);
  return out;
}

}  // namespace ptc
