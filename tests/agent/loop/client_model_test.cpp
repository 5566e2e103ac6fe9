// ClientModel: an agent::Model over MCP sampling, asked through a ToolContext whose client answers.
#include <gtest/gtest.h>

#include <ptc/agent/agent.hpp>
#include <ptc/agent/client_model.hpp>
#include <ptc/agent/typed.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>

namespace {

using nlohmann::json;

/// A client that can sample (or not), answering each request with the next of `answers`.
class SamplingClient : public ptc::ClientChannel {
 public:
  explicit SamplingClient(std::vector<std::string> answers, bool can = true)
      : answers_(std::move(answers)), can_(can) {}
  bool supports(std::string_view capability) const override { return can_ && capability == "sampling"; }
  ptc::Result<std::map<std::string, json>> ask(const std::vector<ptc::ClientRequest>& requests) override {
    std::map<std::string, json> out;
    for (const auto& r : requests) {
      asked.push_back(r.params);
      out[r.key] = json{{"role", "assistant"},
                        {"model", "host-model"},
                        {"stopReason", "endTurn"},
                        {"content", {{"type", "text"}, {"text", answers_.at(next_++)}}}};
    }
    return out;
  }
  std::vector<json> asked;

 private:
  std::vector<std::string> answers_;
  std::size_t next_ = 0;
  bool can_;
};

ptc::agent::Conversation asking(std::string system, std::string text) {
  ptc::agent::Conversation out;
  out.system = std::move(system);
  ptc::agent::Message message;
  message.text = std::move(text);
  out.messages.push_back(std::move(message));
  return out;
}

struct Handler {
  explicit Handler(std::shared_ptr<SamplingClient> client) { environment.client = std::move(client); }
  ptc::Tool tool = ptc::make_tool("summarize", "Summarizes.", "() -> :string");
  ptc::Session session;
  ptc::CallEnvironment environment;
  ptc::ToolContext context{tool, session, environment};
};

TEST(ClientModel, AConversationBecomesOneSamplingRequest) {
  auto client = std::make_shared<SamplingClient>(std::vector<std::string>{"Saving crashes."});
  Handler handler(client);
  ptc::agent::ClientModel model(handler.context);
  auto conversation = asking("Be brief.", "Summarize PTC-1.");
  ptc::agent::ModelSettings settings;
  settings.max_output_tokens = 50;
  settings.temperature = 0.2;
  ptc::agent::ModelRequest request;
  request.conversation = &conversation;
  request.settings = &settings;
  auto response = model.complete(request);
  ASSERT_TRUE(response) << response.error().message;
  EXPECT_EQ(response->message.text, "Saving crashes.");
  EXPECT_EQ(response->message.role, ptc::agent::Role::assistant);
  EXPECT_EQ(response->stop_reason, "endTurn");
  ASSERT_EQ(client->asked.size(), 1u);
  EXPECT_EQ(client->asked[0],
            (json{{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Summarize PTC-1."}}}}}},
                  {"maxTokens", 50},
                  {"systemPrompt", "Be brief."},
                  {"temperature", 0.2}}));
}

TEST(ClientModel, ATypedRunAsksForJsonAndChecksIt) {
  // The first answer does not match the schema: the agent asks again, as with any provider.
  auto client = std::make_shared<SamplingClient>(std::vector<std::string>{"not json", R"({"line":"Saving crashes."})"});
  Handler handler(client);
  ptc::agent::ClientModel model(handler.context);
  ptc::ToolRegistry no_tools;
  ptc::agent::Agent agent(model, no_tools);
  auto result = agent.run("Summarize PTC-1.", ptc::Signature::parse("() -> {line :string}")->output());
  ASSERT_TRUE(result.ok()) << result.error->message;
  EXPECT_EQ(result.value, (json{{"line", "Saving crashes."}}));
  ASSERT_EQ(client->asked.size(), 2u);
  EXPECT_NE(client->asked[0]["systemPrompt"].get<std::string>().find("Answer with JSON only"), std::string::npos);
}

TEST(ClientModel, AClientThatCannotSampleAndToolResultsAreErrors) {
  Handler cannot(std::make_shared<SamplingClient>(std::vector<std::string>{}, false));
  ptc::agent::ClientModel model(cannot.context);
  auto conversation = asking("", "Hi");
  ptc::agent::ModelRequest request;
  request.conversation = &conversation;
  auto refused = model.complete(request);
  ASSERT_FALSE(refused);
  EXPECT_EQ(
      refused.error().message,
      "mcp-client: The client cannot answer sampling/createMessage: it did not declare the 'sampling' capability.");
  Handler can(std::make_shared<SamplingClient>(std::vector<std::string>{"x"}));
  ptc::agent::ClientModel able(can.context);
  ptc::agent::Message tool_turn;
  tool_turn.role = ptc::agent::Role::tool;
  conversation.messages.push_back(tool_turn);
  auto tools = able.complete(request);
  ASSERT_FALSE(tools);
  EXPECT_EQ(tools.error().message, "mcp-client: sampling carries text only, and this conversation holds tool calls");
}

}  // namespace
