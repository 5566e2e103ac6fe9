// A stand-in for a model provider, for the demo and for trying `PROGRAM agent` without a key: it serves
// OpenAI's Chat Completions on loopback and answers each request with the next assistant message of a
// script (a JSON array of messages in OpenAI's shape), then exits when its input closes.
//   scripted_provider SCRIPT.json     prints "http://127.0.0.1:PORT/v1", one line, when it listens
#include <atomic>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "provider_double.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: scripted_provider SCRIPT.json\n";
    return 2;
  }
  std::ifstream file(argv[1]);
  std::ostringstream text;
  text << file.rdbuf();
  const nlohmann::json script = nlohmann::json::parse(text.str(), nullptr, false);
  if (!file || !script.is_array()) {
    std::cerr << "scripted_provider: " << argv[1] << " is not a JSON array of assistant messages\n";
    return 2;
  }
  ptc_test::ProviderDouble provider;
  std::atomic<std::size_t> next{0};
  provider.set_handler([&](const ptc_test::RecordedRequest&) {
    const std::size_t turn = next++;
    if (turn >= script.size())
      return ptc_test::Reply::json(400, R"({"error":{"message":"the script has no more turns"}})");
    const nlohmann::json& message = script[turn];
    const bool calls = message.contains("tool_calls");
    return ptc_test::Reply::json(
        200, nlohmann::json{{"id", "chatcmpl-demo-" + std::to_string(turn)},
                            {"object", "chat.completion"},
                            {"created", 0},
                            {"model", "scripted"},
                            {"choices",
                             {{{"index", 0}, {"message", message}, {"finish_reason", calls ? "tool_calls" : "stop"}}}},
                            {"usage", {{"prompt_tokens", 0}, {"completion_tokens", 0}, {"total_tokens", 0}}}}
                 .dump());
  });
  std::cout << provider.base_url() << "/v1" << std::endl;
  // Serves until whoever started it closes our input.
  std::string ignored;
  while (std::getline(std::cin, ignored)) {
  }
  return 0;
}
