#pragma once
// Models for testing an agent without a live model: a scripted one (answers given in code, checked to
// be used up) and one that calls every tool with arguments made from its schema.

#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include <ptc/agent/model.hpp>

namespace ptc::agent {

/// Answers each request with the next scripted turn, in order, and records the requests it was sent.
/// A request past the script is an error ("ScriptedModel: no turn left for request 4").
class ScriptedModel : public Model {
 public:
  /// One scripted turn: an answer, a tool call or several, or an error the model "returns".
  struct Turn {
    std::string text;
    std::vector<ToolCall> calls;  ///< `arguments` as an object or as JSON text
    std::optional<std::string> error;
    Usage usage{1, 10, 5, 0, 0};
  };
  static Turn answer(std::string text);
  static Turn call(std::string name, nlohmann::json arguments, std::string id = {});
  static Turn calls(std::vector<ToolCall> calls);
  static Turn failure(std::string message);

  explicit ScriptedModel(std::vector<Turn> turns = {});
  void add(Turn turn);

  Result<ModelResponse> complete(const ModelRequest& request) override;
  std::string provider() const override { return "scripted"; }

  /// Copies of what each request held: the conversation and the names of the tools offered.
  struct Seen {
    Conversation conversation;
    std::vector<std::string> tools;
    bool output_requested = false;
  };
  std::vector<Seen> requests() const;
  /// Throws std::logic_error naming the unused turns when the script was not used up.
  void assert_complete() const;

 private:
  mutable std::mutex mutex_;
  std::deque<Turn> turns_;
  std::vector<Seen> seen_;
  std::size_t next_id_ = 0;
};

/// Calls every tool offered once, with arguments made from its parameter schema (the smallest value of
/// each type, the first enum value, defaults where given), all in its first turn; then answers with
/// the JSON of every result in call order, or, when an answer schema is asked for, with a value made
/// from that schema. What Pydantic AI's TestModel does, from ptc's own type model.
class TestModel : public Model {
 public:
  Result<ModelResponse> complete(const ModelRequest& request) override;
  std::string provider() const override { return "test"; }
};

/// A value that `schema` accepts, made from the schema alone (as TestModel does).
nlohmann::json example_value(const Schema& schema);

}  // namespace ptc::agent
