#include <ptc/command_dispatcher.hpp>

#include <variant>

#include <ptc/command_run.hpp>
#include <ptc/uuid.hpp>

#include "text.hpp"
#include "json_keys.hpp"

namespace ptc {

using nlohmann::json;

namespace {

struct Rejected {
  std::string error;
  std::string name;
  std::string invocation_id;
};

struct Payload {
  std::string name;
  json params;
  json context;
  std::string invocation_id;
};

// The payload rules, in order; a failure still names the command and invocation as well as it can.
std::variant<Payload, Rejected> check_payload(const Signal& signal) {
  const json& data = signal.data;
  auto signal_id = text::trim(signal.id);
  std::string invocation_id = signal_id.empty() ? make_uuid() : std::string(signal_id);
  auto reject = [&](std::string rule, std::string name = "<invalid>") {
    return Rejected{"invalid command.invoke payload: " + rule, std::move(name), invocation_id};
  };
  if (!data.is_object()) return reject("data must be an object");
  if (auto id = commands::non_blank_string(commands::find_key(data, "invocation_id"))) invocation_id = *id;
  std::string name = commands::non_blank_string(commands::find_key(data, "name")).value_or("<invalid>");

  if (auto conflict = commands::find_conflicting_keys(data, "")) return reject(*conflict, name);
  for (const auto& [key, _] : data.items()) {
    auto k = commands::normalized_key(key);
    if (k != "name" && k != "params" && k != "context" && k != "invocation_id")
      return reject("unknown key " + text::quote(key) + "; expected name, params, context or invocation_id", name);
  }
  const json* raw_name = commands::find_key(data, "name");
  if (!raw_name) return reject("name is required");
  if (name == "<invalid>") return reject("name must be a non-empty string");
  const json* params = commands::find_key(data, "params");
  if (!params) return reject("params is required", name);
  if (!params->is_object()) return reject("params must be an object", name);
  const json* context = commands::find_key(data, "context");
  if (context && !context->is_object()) return reject("context must be an object when given", name);
  const json* id = commands::find_key(data, "invocation_id");
  if (id && !commands::non_blank_string(id)) return reject("invocation_id must be a non-empty string when given", name);
  return Payload{name, *params, context ? *context : json::object(), invocation_id};
}

}  // namespace

CommandDispatcher::CommandDispatcher(SignalBus& bus, const CommandRegistry& registry, const CommandExecutors& executors,
                                     CommandDispatcherOptions options)
    : bus_(bus), registry_(registry), executors_(executors), options_(std::move(options)) {
  if (options_.max_concurrent == 0) options_.max_concurrent = 1;
  subscription_ = bus_.subscribe("command.invoke", [this](const Signal& s) { on_invoke(s); });
}

CommandDispatcher::~CommandDispatcher() {
  bus_.unsubscribe(subscription_);
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void CommandDispatcher::on_invoke(const Signal& signal) {
  auto checked = check_payload(signal);
  if (auto* rejected = std::get_if<Rejected>(&checked)) {
    publish("command.failed",
            {{"name", rejected->name}, {"invocation_id", rejected->invocation_id}, {"error", rejected->error}});
    return;
  }
  auto& payload = std::get<Payload>(checked);
  std::lock_guard lock(mutex_);
  queue_.push_back(Job{std::move(payload.name), std::move(payload.params), std::move(payload.context),
                       std::move(payload.invocation_id)});
  // More queued jobs than waiting workers: one more worker, up to the limit.
  if (queue_.size() > waiting_workers_ && workers_.size() < options_.max_concurrent)
    workers_.emplace_back([this] { work(); });
  work_ready_.notify_one();
}

void CommandDispatcher::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    ++waiting_workers_;
    work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    --waiting_workers_;
    if (queue_.empty()) return;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    execute(job);
    lock.lock();
    --running_;
    if (running_ == 0 && queue_.empty()) idle_.notify_all();
  }
}

void CommandDispatcher::execute(const Job& job) {
  auto failed = [&](const std::string& error) {
    publish("command.failed", {{"name", job.name}, {"invocation_id", job.invocation_id}, {"error", error}});
  };
  try {
    auto command = registry_.find(job.name);
    if (!command) return failed("unknown command '" + job.name + "'");
    ExecutionContext context{job.context, job.invocation_id, options_.permissions, &bus_};
    auto result = run_command(*command, job.params, context, executors_);
    if (!result) return failed(result.error().message);
    publish("command.completed", {{"name", job.name}, {"invocation_id", job.invocation_id}, {"result", *result}});
  } catch (const std::exception& e) {
    failed(std::string("command failed: ") + e.what());
  } catch (...) {
    failed("command failed: unknown exception");
  }
}

void CommandDispatcher::publish(const std::string& type, json data) {
  bus_.publish(Signal::make(type, "/dispatcher", std::move(data)));
}

void CommandDispatcher::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && running_ == 0; });
}

std::size_t CommandDispatcher::running() const {
  std::lock_guard lock(mutex_);
  return running_;
}

std::size_t CommandDispatcher::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

}  // namespace ptc
