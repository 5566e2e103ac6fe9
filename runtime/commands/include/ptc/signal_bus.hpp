#pragma once
// ptc::SignalBus — an in-process publish/subscribe bus for Signals. Subscribers choose signals by a
// type pattern; middleware sees every signal before the subscribers do.

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <ptc/signal.hpp>

namespace ptc {

enum class LogLevel { Debug, Info, Warning, Error };

/// "debug", "info", "warning", "error".
std::string_view log_level_name(LogLevel level);
/// Also accepts "warn" for Warning.
std::optional<LogLevel> log_level_from_name(std::string_view name);

/// Where log lines go. The bus never decides what is shown; the sink does.
using LogSink = std::function<void(LogLevel level, const std::string& line)>;
/// Writes `[level] line` to standard error for levels at or above `threshold`.
LogSink stderr_log_sink(LogLevel threshold = LogLevel::Info);

/// Runs on the publishing thread for each signal, before any subscriber.
class SignalMiddleware {
 public:
  virtual ~SignalMiddleware() = default;
  virtual std::string_view name() const = 0;
  virtual void before_publish(const Signal& signal) = 0;
};

/// Logs one line per signal (`signal command.completed id=... source=/dispatcher`) at a fixed level.
/// Named after the settings module string that selects it.
class LoggerMiddleware final : public SignalMiddleware {
 public:
  static constexpr std::string_view kModule = "Jido.Signal.Bus.Middleware.Logger";
  LoggerMiddleware(LogLevel level, LogSink sink) : level_(level), sink_(std::move(sink)) {}
  std::string_view name() const override { return kModule; }
  LogLevel level() const { return level_; }
  void before_publish(const Signal& signal) override;

 private:
  LogLevel level_;
  LogSink sink_;
};

/// Patterns are dot-separated like types; a `*` segment matches exactly one segment and `**` any number
/// (zero included): `command.*` matches `command.failed` but not `command.registry.reloaded`.
bool signal_pattern_matches(std::string_view pattern, std::string_view type);
/// Why `pattern` is not a pattern (empty, or an empty segment), or nullopt.
std::optional<std::string> signal_pattern_error(std::string_view pattern);

/// Thread-safe. Signals are delivered one at a time, in the order they were published, each to every
/// matching subscriber in subscription order, on the publishing thread. A signal published by a
/// subscriber (or middleware) is delivered after the current one has reached everyone, so every
/// subscriber sees the same order. While one thread delivers, other threads' publish() waits: a
/// subscriber must not wait for another thread that publishes.
class SignalBus {
 public:
  using Handler = std::function<void(const Signal&)>;
  using SubscriptionId = std::uint64_t;

  struct Options {
    std::string name = "jido_code_bus";
    std::vector<std::shared_ptr<SignalMiddleware>> middleware{};
    /// Told when a subscriber or middleware throws; the others still run. Default: a line on stderr.
    std::function<void(const Signal& signal, const std::string& error)> on_error{};
  };

  SignalBus() : SignalBus(Options{}) {}
  explicit SignalBus(Options options);
  SignalBus(const SignalBus&) = delete;
  SignalBus& operator=(const SignalBus&) = delete;

  const std::string& name() const { return options_.name; }

  /// Throws ptc::Exception when the pattern is malformed (see signal_pattern_error).
  SubscriptionId subscribe(std::string_view pattern, Handler handler);
  /// Once this returns (outside a delivery on this thread) the handler is not running and never runs
  /// again. Returns false if `id` was not subscribed.
  bool unsubscribe(SubscriptionId id);

  void publish(Signal signal);

 private:
  struct Subscription {
    SubscriptionId id;
    std::string pattern;
    Handler handler;
    std::atomic<bool> active{true};
    Subscription(SubscriptionId i, std::string p, Handler h) : id(i), pattern(std::move(p)), handler(std::move(h)) {}
  };

  void deliver(const Signal& signal);
  bool delivering_here() const { return deliverer_.load() == std::this_thread::get_id(); }

  Options options_;
  mutable std::mutex subscriptions_mutex_;
  SubscriptionId next_id_ = 1;
  std::vector<std::shared_ptr<Subscription>> subscriptions_;

  std::mutex delivery_mutex_;  // held by the thread delivering
  std::atomic<std::thread::id> deliverer_{};
  std::deque<Signal> pending_;  // published during a delivery; guarded by delivery_mutex_
};

}  // namespace ptc
