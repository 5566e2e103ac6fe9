// The server the official MCP conformance suite tests (run.mjs): the tools its scenarios call by name,
// served by ptc::cli::run exactly as a user's program is (`conformance_server mcp --http HOST:PORT`).
// the resources and prompts they read, and tools that ask the client (elicitation, sampling, roots) in
// both eras. Logging, which ptc does not implement, has no tools here; baseline-*.yml lists its scenarios.

#include <atomic>
#include <chrono>
#include <memory>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include <ptc/cli.hpp>
#include <ptc/client_requests.hpp>
#include <ptc/content.hpp>
#include <ptc/prompt_template.hpp>
#include <ptc/registry.hpp>
#include <ptc/resource.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

namespace {

// A 1x1 red PNG and 8 samples of 8 kHz silence as WAV, for the content scenarios.
constexpr std::string_view kPng(
    "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02"
    "\x00\x00\x00\x90\x77\x53\xde\x00\x00\x00\x0c\x49\x44\x41\x54\x78\x9c\x63\xf8\xcf\xc0\x00\x00\x03\x01"
    "\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82",
    69);
constexpr std::string_view kWav(
    "\x52\x49\x46\x46\x2c\x00\x00\x00\x57\x41\x56\x45\x66\x6d\x74\x20\x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f"
    "\x00\x00\x40\x1f\x00\x00\x01\x00\x08\x00\x64\x61\x74\x61\x08\x00\x00\x00\x80\x80\x80\x80\x80\x80\x80\x80",
    52);

/// A tool without parameters that answers `text` and attaches what `attach` gives.
ptc::Tool with_content(std::string name, std::string description, std::string text,
                       std::function<void(ptc::ToolContext&)> attach) {
  return ptc::make_tool(std::move(name), std::move(description), "() -> :string",
                        [text = std::move(text), attach = std::move(attach)](const nlohmann::json&,
                                                                             ptc::ToolContext& context) {
                          attach(context);
                          return ptc::ToolResult<nlohmann::json>::ok(text);
                        });
}

ptc::Content embedded() {
  return ptc::Content::resource_text("test://embedded-resource", "text/plain", "This is an embedded resource content.");
}

using Result = ptc::ToolResult<nlohmann::json>;

/// The resources and prompts of the resources-*, prompts-* and completion-complete scenarios.
void add_resources_and_prompts(ptc::ToolRegistry& registry) {
  registry.add_resource(ptc::make_resource("test://static-text", "static_text", "A static text resource.",
                                           "() -> :string", [](const nlohmann::json&, ptc::ToolContext&) {
                                             return Result::ok("This is the content of the static text resource.");
                                           }));
  registry.add_resource(ptc::make_resource("test://static-binary", "static_binary", "A static binary resource.",
                                           "() -> :string", [](const nlohmann::json&, ptc::ToolContext& context) {
                                             context.attach(ptc::Content::resource_blob("test://static-binary",
                                                                                        "image/png", kPng));
                                             return Result::ok("");
                                           }));
  registry.add_resource(ptc::make_resource(
      "test://template/{id}/data", "template_data", "Data for an id.",
      "(id :string) -> {id :string, templateTest :bool, data :string}",
      [](const nlohmann::json& args, ptc::ToolContext&) {
        const std::string id = args.at("id").get<std::string>();
        return Result::ok(nlohmann::json{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}});
      }));
  registry.add_resource(ptc::make_resource("test://watched-resource", "watched", "A resource to subscribe to.",
                                           "() -> :string", [](const nlohmann::json&, ptc::ToolContext&) {
                                             return Result::ok("Watched resource content.");
                                           }));
  registry.add_prompt(ptc::make_prompt("test_simple_prompt", "A prompt without arguments.", "() -> :string",
                                       [](const nlohmann::json&, ptc::ToolContext&) {
                                         return Result::ok("This is a simple prompt for testing.");
                                       }));
  registry.add_prompt(
      ptc::make_prompt("test_prompt_with_arguments", "A prompt with two arguments.",
                       "(arg1 :string, arg2 :string) -> :string", [](const nlohmann::json& args, ptc::ToolContext&) {
                         return Result::ok("Prompt with arguments: arg1='" + args.at("arg1").get<std::string>() +
                                           "', arg2='" + args.at("arg2").get<std::string>() + "'");
                       }));
  registry.add_prompt(ptc::make_prompt(
      "test_prompt_with_embedded_resource", "A prompt that embeds a resource.", "(resourceUri :string) -> :string",
      [](const nlohmann::json& args, ptc::ToolContext& context) {
        context.attach(ptc::Content::resource_text(args.at("resourceUri").get<std::string>(), "text/plain",
                                                   "Embedded resource content for testing."));
        return Result::ok("Please process the embedded resource above.");
      }));
  registry.add_prompt(ptc::make_prompt("test_prompt_with_image", "A prompt with an image.", "() -> :string",
                                       [](const nlohmann::json&, ptc::ToolContext& context) {
                                         context.attach(ptc::Content::image(kPng, "image/png"));
                                         return Result::ok("Please analyze the image above.");
                                       }));
}

ptc::Schema fields(std::vector<ptc::MapEntry> entries) { return ptc::Schema::map(std::move(entries)); }
ptc::MapEntry text(std::string name, std::string doc = {}) {
  ptc::MapEntry e(std::move(name), ptc::Schema::string());
  e.doc = std::move(doc);
  return e;
}

/// "action=accept, content={...}" for an elicitation's answer.
std::string said(const ptc::Elicited<nlohmann::json>& answer) {
  const char* action = answer.action == ptc::ElicitAction::accept    ? "accept"
                       : answer.action == ptc::ElicitAction::decline ? "decline"
                                                                     : "cancel";
  return std::string("action=") + action + ", content=" + (answer.value ? answer.value->dump() : "{}");
}

/// A tool whose result is a text; its handler gets the arguments and the context.
template <class F>
ptc::Tool text_tool(std::string name, std::string description, std::string signature, F f) {
  return ptc::make_tool(std::move(name), std::move(description), signature,
                        [f](const nlohmann::json& args, ptc::ToolContext& context) -> Result {
                          auto out = f(args, context);
                          if (!out) return Result::error(out.error().message);
                          return Result::ok(*out);
                        });
}

/// The 2025 scenarios' server-to-client requests: sampling and elicitation on the call's stream.
void add_client_request_tools(ptc::ToolRegistry& registry) {
  registry.add(text_tool("test_sampling", "Asks the client's model.", "(prompt :string) -> :string",
                         [](const nlohmann::json& args, ptc::ToolContext& c) -> ptc::Result<std::string> {
                           ptc::SamplingRequest request{{{"user", args.at("prompt").get<std::string>()}}};
                           request.max_tokens = 100;
                           auto sample = c.sample(request);
                           if (!sample) return sample.error();
                           return "LLM response: " + sample->text;
                         }));
  registry.add(text_tool("test_elicitation", "Asks the user.", "(message :string) -> :string",
                         [](const nlohmann::json& args, ptc::ToolContext& c) -> ptc::Result<std::string> {
                           auto answer = c.elicit(args.at("message").get<std::string>(),
                                                  fields({text("username", "User's response"),
                                                          text("email", "User's email address")}));
                           if (!answer) return answer.error();
                           return "User response: " + said(*answer);
                         }));
  registry.add(text_tool(
      "test_elicitation_sep1034_defaults", "Asks with defaults.", "() -> :string",
      [](const nlohmann::json&, ptc::ToolContext& c) -> ptc::Result<std::string> {
        auto with = [](std::string name, ptc::Schema type, nlohmann::json value) {
          ptc::MapEntry e(std::move(name), std::move(type));
          e.with_default(std::move(value));
          return e;
        };
        auto answer =
            c.elicit("Please review the defaults.",
                     fields({with("name", ptc::Schema::string(), "John Doe"), with("age", ptc::Schema::integer(), 30),
                             with("score", ptc::Schema::number(), 95.5),
                             with("status", ptc::Schema::enumeration({"active", "inactive", "pending"}), "active"),
                             with("verified", ptc::Schema::boolean(), true)}));
        if (!answer) return answer.error();
        return "Elicitation completed: " + said(*answer);
      }));
  // Titled options are JSON Schema that ptc's schemas do not state, so this asks with the raw request.
  registry.add(text_tool(
      "test_elicitation_sep1330_enums", "Asks with every enum form.", "() -> :string",
      [](const nlohmann::json&, ptc::ToolContext& c) -> ptc::Result<std::string> {
        using J = nlohmann::json;
        J properties{
            {"untitledSingle", {{"type", "string"}, {"enum", {"option1", "option2", "option3"}}}},
            {"titledSingle",
             {{"type", "string"},
              {"oneOf",
               {{{"const", "value1"}, {"title", "First Option"}}, {{"const", "value2"}, {"title", "Second Option"}}}}}},
            {"legacyEnum",
             {{"type", "string"},
              {"enum", {"opt1", "opt2", "opt3"}},
              {"enumNames", {"Option One", "Option Two", "Option Three"}}}},
            {"untitledMulti",
             {{"type", "array"}, {"items", {{"type", "string"}, {"enum", {"option1", "option2", "option3"}}}}}},
            {"titledMulti",
             {{"type", "array"},
              {"items",
               {{"anyOf",
                 {{{"const", "value1"}, {"title", "First Choice"}},
                  {{"const", "value2"}, {"title", "Second Choice"}}}}}}}}};
        auto answers = c.ask_client(
            {{"enums", "elicitation/create",
              J{{"message", "Pick options."}, {"requestedSchema", {{"type", "object"}, {"properties", properties}}}}}});
        if (!answers) return answers.error();
        const J& answer = answers->at("enums");
        return "Elicitation completed: action=" + answer.value("action", "") +
               ", content=" + answer.value("content", J::object()).dump();
      }));
}

/// The 2026-07-28 scenarios' multi round-trip requests.
void add_round_trip_tools(ptc::ToolRegistry& registry) {
  using S = ptc::Result<std::string>;
  using J = nlohmann::json;
  auto ask_name = [](ptc::ToolContext& c, std::string key, std::string message) -> S {
    auto answer = c.elicit(message, fields({text("name")}), std::move(key));
    if (!answer) return answer.error();
    return answer->value ? answer->value->at("name").get<std::string>() : std::string("nobody");
  };
  registry.add(text_tool("test_input_required_result_elicitation", "Asks for a name.", "() -> :string",
                         [ask_name](const J&, ptc::ToolContext& c) -> S {
                           auto name = ask_name(c, "user_name", "What is your name?");
                           if (!name) return name;
                           return "Hello, " + *name + "!";
                         }));
  registry.add(text_tool("test_input_required_result_sampling", "Asks the model.", "() -> :string",
                         [](const J&, ptc::ToolContext& c) -> S {
                           ptc::SamplingRequest r{{{"user", "What is the capital of France?"}}};
                           r.max_tokens = 100;
                           r.key = "capital_question";
                           auto sample = c.sample(r);
                           if (!sample) return sample.error();
                           return "The model said: " + sample->text;
                         }));
  registry.add(text_tool("test_input_required_result_list_roots", "Lists the roots.", "() -> :string",
                         [](const J&, ptc::ToolContext& c) -> S {
                           auto roots = c.roots("client_roots");
                           if (!roots) return roots.error();
                           std::string out = "Roots:";
                           for (const auto& r : *roots) out += " " + r.uri;
                           return out;
                         }));
  for (const char* name : {"test_input_required_result_request_state", "test_input_required_result_tampered_state"})
    registry.add(text_tool(name, "Asks for a confirmation.", "() -> :string", [](const J&, ptc::ToolContext& c) -> S {
      auto answer = c.elicit("Please confirm", fields({ptc::MapEntry("ok", ptc::Schema::boolean())}), "confirm");
      if (!answer) return answer.error();
      return "state-ok: " + said(*answer);
    }));
  registry.add(text_tool(
      "test_input_required_result_multiple_inputs", "Asks three things at once.", "() -> :string",
      [](const J&, ptc::ToolContext& c) -> S {
        auto schema = ptc::detail::elicitation_schema(fields({text("name")}));
        auto answers = c.ask_client(
            {{"user_name", "elicitation/create", J{{"message", "What is your name?"}, {"requestedSchema", *schema}}},
             {"greeting", "sampling/createMessage",
              J{{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Generate a greeting"}}}}}},
                {"maxTokens", 50}}},
             {"client_roots", "roots/list", J::object()}});
        if (!answers) return answers.error();
        return "Got " + std::to_string(answers->size()) + " answers.";
      }));
  registry.add(text_tool("test_input_required_result_multi_round", "Asks twice.", "() -> :string",
                         [ask_name](const J&, ptc::ToolContext& c) -> S {
                           auto name = ask_name(c, "step1", "Step 1: What is your name?");
                           if (!name) return name;
                           auto color =
                               c.elicit("Step 2: What is your favorite color?", fields({text("color")}), "step2");
                           if (!color) return color.error();
                           return *name + " likes " +
                                  (color->value ? color->value->at("color").get<std::string>() : "?");
                         }));
  registry.add(text_tool(
      "test_input_required_result_capabilities", "Asks what the client can answer.", "() -> :string",
      [](const J&, ptc::ToolContext& c) -> S {
        std::vector<ptc::ClientRequest> asks;
        if (c.client_supports("elicitation"))
          asks.push_back({"name", "elicitation/create",
                          J{{"message", "Name?"},
                            {"requestedSchema", *ptc::detail::elicitation_schema(fields({text("name")}))}}});
        if (c.client_supports("sampling"))
          asks.push_back({"haiku", "sampling/createMessage",
                          J{{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "A haiku"}}}}}},
                            {"maxTokens", 50}}});
        auto answers = c.ask_client(asks);
        if (!answers) return answers.error();
        return "Got " + std::to_string(answers->size()) + " answers.";
      }));
  ptc::ToolOptions needs_sampling;
  needs_sampling.client_capabilities = {"sampling"};
  registry.add(ptc::make_tool(
      "test_missing_capability", "Needs sampling.", "() -> :string",
      [](const J&, ptc::ToolContext& c) {
        auto sample = c.sample({{{"user", "Hello"}}});
        if (!sample) return Result::error(sample.error().message);
        return Result::ok(sample->text);
      },
      needs_sampling));
  // The stateless scenario checks that 2026-07-28 asks by round trip, never by a request on the stream.
  registry.add(text_tool("test_streaming_elicitation", "Asks for a name.", "() -> :string",
                         [ask_name](const J&, ptc::ToolContext& c) -> S { return ask_name(c, "name", "Your name?"); }));
  registry.add_prompt(ptc::make_prompt(
      "test_input_required_result_prompt", "A prompt that asks for context.", "() -> :string",
      [](const J&, ptc::ToolContext& c) {
        auto answer = c.elicit("What context should the prompt use?", fields({text("context")}), "user_context");
        if (!answer) return Result::error(answer.error().message);
        return Result::ok("Use this context: " +
                          (answer->value ? answer->value->at("context").get<std::string>() : ""));
      }));
}

/// The hooks the stateless scenario calls to see list_changed reach a subscriptions/listen stream: each
/// call adds one more tool or prompt to the registry it serves.
void add_change_triggers(ptc::ToolRegistry& registry) {
  auto added = std::make_shared<std::atomic<int>>(0);
  auto handler = [](const nlohmann::json&, ptc::ToolContext&) { return Result::ok("added"); };
  registry.add(ptc::make_tool("test_trigger_tool_change", "Adds a tool.", "() -> :string",
                              [&registry, added, handler](const nlohmann::json&, ptc::ToolContext&) {
                                registry.add(ptc::make_tool("added_tool_" + std::to_string(++*added), "Added.",
                                                            "() -> :string", handler));
                                return Result::ok("a tool was added");
                              }));
  registry.add(ptc::make_tool("test_trigger_prompt_change", "Adds a prompt.", "() -> :string",
                              [&registry, added, handler](const nlohmann::json&, ptc::ToolContext&) {
                                registry.add_prompt(ptc::make_prompt("added_prompt_" + std::to_string(++*added),
                                                                     "Added.", "() -> :string", handler));
                                return Result::ok("a prompt was added");
                              }));
}

}  // namespace

int main(int argc, char** argv) {
  ptc::ToolRegistry registry;
  add_resources_and_prompts(registry);
  add_client_request_tools(registry);
  add_round_trip_tools(registry);
  add_change_triggers(registry);
  registry.add(ptc::make_tool("test_simple_text", "Returns a simple text response.", "() -> :string",
                              [](const nlohmann::json&, ptc::ToolContext&) {
                                return Result::ok("This is a simple text response for testing.");
                              }));
  registry.add(ptc::make_tool("test_error_handling", "Always fails, to test error results.", "() -> :string",
                              [](const nlohmann::json&, ptc::ToolContext&) {
                                return Result::error("This tool intentionally returns an error for testing");
                              }));
  registry.add(ptc::make_tool("test_tool_with_progress", "Reports progress three times, then completes.",
                              "() -> :string", [](const nlohmann::json&, ptc::ToolContext& context) {
                                for (int step = 0; step <= 100; step += 50) {
                                  context.report_progress(step, 100, "step " + std::to_string(step / 50 + 1));
                                  // Progress sent in the same read as the response is dropped by
                                  // clients that hand notifications on a turn later.
                                  std::this_thread::sleep_for(std::chrono::milliseconds(50));
                                }
                                return Result::ok("Progress complete");
                              }));
  registry.add(with_content("test_image_content", "Returns an image.", "A red pixel.",
                            [](ptc::ToolContext& c) { c.attach(ptc::Content::image(kPng, "image/png")); }));
  registry.add(with_content("test_audio_content", "Returns a sound.", "Silence.",
                            [](ptc::ToolContext& c) { c.attach(ptc::Content::audio(kWav, "audio/wav")); }));
  registry.add(with_content("test_embedded_resource", "Returns an embedded resource.", "A resource.",
                            [](ptc::ToolContext& c) { c.attach(embedded()); }));
  registry.add(with_content("test_multiple_content_types", "Returns text, an image and a resource.",
                            "Multiple content types test:", [](ptc::ToolContext& c) {
                              c.attach(ptc::Content::image(kPng, "image/png"));
                              c.attach(embedded());
                            }));
  ptc::cli::Options options;
  options.server.name = "ptc-conformance";
  options.server.version = "1.0.0";
  return ptc::cli::run(registry, argc, argv, options);
}
