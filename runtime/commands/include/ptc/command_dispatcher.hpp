#pragma once
// ptc::CommandDispatcher — runs the commands that `command.invoke` signals ask for, on worker threads,
// at most `max_concurrent` at a time, and answers each with `command.completed` or `command.failed`.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/command_executor.hpp>
#include <ptc/command_registry.hpp>
#include <ptc/command_settings.hpp>
#include <ptc/signal_bus.hpp>

namespace ptc {

struct CommandDispatcherOptions {
  /// Every command dispatched runs with these (normalized settings permissions), whatever the
  /// payload's context says.
  Permissions permissions{};
  std::size_t max_concurrent = 5;  ///< 0 counts as 1
};

/// Subscribes to `command.invoke` on construction. A payload that breaks a rule is answered with
/// `command.failed` at once (`invalid command.invoke payload: ...`); a valid one waits in a FIFO queue
/// for one of at most `max_concurrent` worker threads. The bus, registry and executors must outlive the
/// dispatcher; its destructor stops listening, lets the queue run empty and joins the workers.
class CommandDispatcher {
 public:
  CommandDispatcher(SignalBus& bus, const CommandRegistry& registry, const CommandExecutors& executors,
                    CommandDispatcherOptions options = {});
  CommandDispatcher(const CommandDispatcher&) = delete;
  CommandDispatcher& operator=(const CommandDispatcher&) = delete;
  ~CommandDispatcher();

  /// Blocks until nothing is queued or running.
  void wait_idle();
  std::size_t running() const;
  std::size_t queued() const;

 private:
  struct Job {
    std::string name;
    nlohmann::json params;
    nlohmann::json context;
    std::string invocation_id;
  };
  void on_invoke(const Signal& signal);
  void work();
  void execute(const Job& job);
  void publish(const std::string& type, nlohmann::json data);

  SignalBus& bus_;
  const CommandRegistry& registry_;
  const CommandExecutors& executors_;
  CommandDispatcherOptions options_;

  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable idle_;
  std::deque<Job> queue_;
  std::size_t running_ = 0;
  std::size_t waiting_workers_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
  SignalBus::SubscriptionId subscription_ = 0;
};

}  // namespace ptc
