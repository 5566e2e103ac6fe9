// A tool run by an Agent that samples (ToolContext::sample) is answered by the agent's own model, so
// the same tool runs under an Agent and under an MCP client; elicitation and roots have no one to ask.
#include <ptc/agent/agent.hpp>
#include <ptc/agent/testing.hpp>

#include <gtest/gtest.h>

#include <ptc/client_requests.hpp>

namespace {

using namespace ptc::agent;
using nlohmann::json;
using Result = ptc::ToolResult<json>;

/// A tool that asks its caller's model for a one-line summary, and one that asks the user.
void add_tools(ptc::ToolRegistry& registry) {
  registry.add(ptc::make_tool(
      "summarize", "Summarizes a text.", "(text :string) -> :string", [](const json& args, ptc::ToolContext& context) {
        ptc::SamplingRequest request{{{"user", "Summarize: " + args.at("text").get<std::string>()}}};
        request.system_prompt = "One line.";
        request.max_tokens = 30;
        request.temperature = 0.5;
        auto sample = context.sample(request);
        if (!sample) return Result::error(sample.error().message);
        return Result::ok(sample->text + " (" + sample->model + ", " + sample->stop_reason + ")");
      }));
  registry.add(ptc::make_tool("confirm", "Asks the user.", "() -> :string", [](const json&, ptc::ToolContext& context) {
    auto answer = context.ask_client({{"ok", "elicitation/create", json{{"message", "Sure?"}}}});
    if (!answer) return Result::error(answer.error().message);
    return Result::ok("asked");
  }));
}

TEST(ModelChannel, AToolsSamplingIsAnsweredByTheAgentsModel) {
  ScriptedModel model({ScriptedModel::call("summarize", json{{"text", "Saving a file loses the last edit."}}),
                       ScriptedModel::answer("Saving loses edits."),  // the tool's sampling request
                       ScriptedModel::answer("Summarized.")});
  ptc::ToolRegistry registry;
  add_tools(registry);
  AgentOptions options;
  options.settings.model = "model-7";
  Agent agent(model, registry, options);
  RunResult r = agent.run("Summarize the bug.");
  ASSERT_TRUE(r.ok()) << r.error->message;
  model.assert_complete();
  EXPECT_EQ(r.text, "Summarized.");
  const auto seen = model.requests();
  ASSERT_EQ(seen.size(), 3u);
  // The sampling request: the tool's system prompt and message, and no tools to call.
  EXPECT_EQ(seen[1].conversation.system, "One line.");
  ASSERT_EQ(seen[1].conversation.messages.size(), 1u);
  EXPECT_EQ(seen[1].conversation.messages[0].text, "Summarize: Saving a file loses the last edit.");
  EXPECT_TRUE(seen[1].tools.empty());
  // What the tool made of the answer went back to the model as its result.
  const Message& results = seen[2].conversation.messages.back();
  ASSERT_EQ(results.tool_results.size(), 1u);
  EXPECT_NE(results.tool_results[0].content.find("Saving loses edits. (model-7, "), std::string::npos)
      << results.tool_results[0].content;
}

TEST(ModelChannel, ElicitationHasNoOneToAskUnderAnAgent) {
  ScriptedModel model({ScriptedModel::call("confirm", json::object()), ScriptedModel::answer("ok")});
  ptc::ToolRegistry registry;
  add_tools(registry);
  Agent agent(model, registry);
  RunResult r = agent.run("Confirm.");
  ASSERT_TRUE(r.ok()) << r.error->message;
  const auto seen = model.requests();  // a copy: what it holds must outlive this line
  const Message& results = seen[1].conversation.messages.back();
  ASSERT_EQ(results.tool_results.size(), 1u);
  EXPECT_TRUE(results.tool_results[0].is_error);
  EXPECT_NE(results.tool_results[0].content.find(
                "The client cannot answer elicitation/create: it did not declare the 'elicitation' capability."),
            std::string::npos)
      << results.tool_results[0].content;
}

TEST(ModelChannel, AClientTheCallerBringsIsAskedInstead) {
  struct Refusing : ptc::ClientChannel {
    bool supports(std::string_view) const override { return true; }
    ptc::Result<std::map<std::string, json>> ask(const std::vector<ptc::ClientRequest>&) override {
      return ptc::Error{"the caller's client said no"};
    }
  };
  ScriptedModel model({ScriptedModel::call("summarize", json{{"text", "x"}}), ScriptedModel::answer("ok")});
  ptc::ToolRegistry registry;
  add_tools(registry);
  AgentOptions options;
  options.dispatch.environment.client = std::make_shared<Refusing>();
  Agent agent(model, registry, options);
  RunResult r = agent.run("Summarize.");
  ASSERT_TRUE(r.ok()) << r.error->message;
  model.assert_complete();             // two turns: the model was not asked to sample
  const auto seen = model.requests();  // a copy: what it holds must outlive this line
  const Message& results = seen[1].conversation.messages.back();
  EXPECT_NE(results.tool_results[0].content.find("the caller's client said no"), std::string::npos);
}

}  // namespace
