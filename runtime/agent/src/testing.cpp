#include <ptc/agent/testing.hpp>

#include <stdexcept>
#include <string>
#include <utility>

namespace ptc::agent {

ScriptedModel::Turn ScriptedModel::answer(std::string text) {
  Turn t;
  t.text = std::move(text);
  return t;
}

ScriptedModel::Turn ScriptedModel::call(std::string name, nlohmann::json arguments, std::string id) {
  return calls({ToolCall{std::move(id), std::move(name), std::move(arguments)}});
}

ScriptedModel::Turn ScriptedModel::calls(std::vector<ToolCall> list) {
  Turn t;
  t.calls = std::move(list);
  return t;
}

ScriptedModel::Turn ScriptedModel::failure(std::string message) {
  Turn t;
  t.error = std::move(message);
  return t;
}

ScriptedModel::ScriptedModel(std::vector<Turn> turns) : turns_(turns.begin(), turns.end()) {}

void ScriptedModel::add(Turn turn) {
  std::lock_guard lock(mutex_);
  turns_.push_back(std::move(turn));
}

Result<ModelResponse> ScriptedModel::complete(const ModelRequest& request) {
  std::lock_guard lock(mutex_);
  Seen seen;
  if (request.conversation) seen.conversation = *request.conversation;
  if (request.tool_calls_allowed)
    for (const Tool* t : request.tools) seen.tools.push_back(t->name());
  seen.output_requested = request.output != nullptr;
  seen_.push_back(std::move(seen));
  if (turns_.empty()) return Error{"ScriptedModel: no turn left for request " + std::to_string(seen_.size())};
  Turn turn = std::move(turns_.front());
  turns_.pop_front();
  if (turn.error) return Error{*turn.error};
  ModelResponse response;
  response.message.role = Role::assistant;
  response.message.text = std::move(turn.text);
  response.message.usage = turn.usage;
  for (auto& c : turn.calls) {
    // Ids as providers give them: unique within the conversation when the script leaves them out.
    if (c.id.empty()) c.id = "call_" + std::to_string(next_id_++);
    response.message.tool_calls.push_back(std::move(c));
  }
  response.stop_reason = response.message.tool_calls.empty() ? "stop" : "tool_calls";
  if (request.on_event && !response.message.text.empty())
    request.on_event(StreamEvent{StreamEvent::Kind::text_delta, response.message.text, 0, {}, {}});
  return response;
}

std::vector<ScriptedModel::Seen> ScriptedModel::requests() const {
  std::lock_guard lock(mutex_);
  return seen_;
}

void ScriptedModel::assert_complete() const {
  std::lock_guard lock(mutex_);
  if (turns_.empty()) return;
  throw std::logic_error("ScriptedModel: " + std::to_string(turns_.size()) + " scripted turn(s) were not used (" +
                         std::to_string(seen_.size()) + " request(s) made)");
}

namespace {

nlohmann::json refined(const Schema& schema) {
  // [:and T [:> n] ...]: the base type's example moved inside the bounds.
  nlohmann::json value = example_value(schema.children().front());
  for (std::size_t i = 1; i < schema.children().size(); ++i) {
    const Schema& r = schema.children()[i];
    if (r.kind() != Kind::Refinement || !value.is_number() || !r.bound().is_number()) continue;
    const bool integral = value.is_number_integer();
    const double bound = r.bound().get<double>();
    const double v = value.get<double>();
    double next = v;
    if (r.op() == Refine::Gt && !(v > bound)) next = integral ? bound + 1 : bound + 0.5;
    if (r.op() == Refine::Ge && !(v >= bound)) next = bound;
    if (r.op() == Refine::Lt && !(v < bound)) next = integral ? bound - 1 : bound - 0.5;
    if (r.op() == Refine::Le && !(v <= bound)) next = bound;
    value = integral ? nlohmann::json(static_cast<std::int64_t>(next)) : nlohmann::json(next);
  }
  return value;
}

}  // namespace

nlohmann::json example_value(const Schema& schema) {
  switch (schema.kind()) {
    case Kind::String:
      if (schema.format() == "date-time") return "2026-01-01T00:00:00Z";
      if (schema.format() == "date") return "2026-01-01";
      return "a";
    case Kind::Int: return 0;
    case Kind::Float: return 0.5;
    case Kind::Bool: return false;
    case Kind::Keyword: return "a";
    case Kind::Any:
    case Kind::Nil: return nullptr;
    case Kind::Vector:
    case Kind::Sequential:
    case Kind::Set: {
      nlohmann::json out = nlohmann::json::array();
      const std::size_t n = schema.kind() == Kind::Vector ? schema.length().value_or(1) : 1;
      for (std::size_t i = 0; i < n; ++i) out.push_back(example_value(schema.item()));
      return out;
    }
    case Kind::Map: {
      nlohmann::json out = nlohmann::json::object();
      for (const auto& e : schema.entries()) {
        if (e.has_default()) {
          out[e.name] = *e.default_value;
        } else if (!e.optional) {
          out[e.name] = example_value(e.schema);
        }
      }
      return out;
    }
    case Kind::MapOf: return nlohmann::json::object();
    case Kind::Tuple: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& c : schema.children()) out.push_back(example_value(c));
      return out;
    }
    case Kind::Enum: return schema.values().empty() ? nlohmann::json(nullptr) : schema.values().front();
    case Kind::Or:
      return schema.children().empty() ? nlohmann::json(nullptr) : example_value(schema.children().front());
    case Kind::And: return schema.children().empty() ? nlohmann::json(nullptr) : refined(schema);
    case Kind::Maybe: return example_value(schema.item());
    case Kind::Refinement: return nullptr;
  }
  return nullptr;
}

Result<ModelResponse> TestModel::complete(const ModelRequest& request) {
  ModelResponse response;
  response.message.role = Role::assistant;
  response.message.usage = Usage{1, 0, 0, 0, 0};
  const auto& messages = request.conversation->messages;
  const bool answered_tools = !messages.empty() && messages.back().role == Role::tool;
  if (!answered_tools && request.tool_calls_allowed && !request.tools.empty()) {
    std::size_t n = 0;
    for (const Tool* t : request.tools)
      response.message.tool_calls.push_back(ToolCall{"test_call_" + std::to_string(n++), t->name(),
                                                     example_value(t->signature().input())});
    response.stop_reason = "tool_calls";
    return response;
  }
  if (request.output) {
    response.message.text = example_value(request.output->schema).dump();
  } else {
    nlohmann::json results = nlohmann::json::array();
    if (answered_tools)
      for (const auto& r : messages.back().tool_results) results.push_back(r.content);
    response.message.text = results.dump();
  }
  response.stop_reason = "stop";
  return response;
}

}  // namespace ptc::agent
