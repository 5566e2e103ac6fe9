#include <ptc/signal_bus.hpp>

#include <iostream>

#include <ptc/error.hpp>

namespace ptc {

std::string_view log_level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Warning: return "warning";
    case LogLevel::Error: return "error";
  }
  return "debug";
}

std::optional<LogLevel> log_level_from_name(std::string_view name) {
  if (name == "debug") return LogLevel::Debug;
  if (name == "info") return LogLevel::Info;
  if (name == "warn" || name == "warning") return LogLevel::Warning;
  if (name == "error") return LogLevel::Error;
  return std::nullopt;
}

LogSink stderr_log_sink(LogLevel threshold) {
  return [threshold](LogLevel level, const std::string& line) {
    if (level < threshold) return;
    // One write per line, so lines from threads publishing one after another stay whole.
    // Appended, not `"[" + std::string(...)`: g++ 12 -O3 reports a false -Wrestrict on that form.
    std::string text = "[";
    text.append(log_level_name(level)).append("] ").append(line).append("\n");
    std::cerr << text << std::flush;
  };
}

void LoggerMiddleware::before_publish(const Signal& signal) {
  if (sink_) sink_(level_, "signal " + signal.type + " id=" + signal.id + " source=" + signal.source);
}

namespace {

std::vector<std::string_view> segments(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    auto dot = s.find('.', start);
    out.push_back(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) return out;
    start = dot + 1;
  }
}

bool match(const std::vector<std::string_view>& p, std::size_t pi, const std::vector<std::string_view>& t,
           std::size_t ti) {
  if (pi == p.size()) return ti == t.size();
  if (p[pi] == "**") {
    for (std::size_t k = ti; k <= t.size(); ++k)
      if (match(p, pi + 1, t, k)) return true;
    return false;
  }
  if (ti == t.size()) return false;
  return (p[pi] == "*" || p[pi] == t[ti]) && match(p, pi + 1, t, ti + 1);
}

}  // namespace

std::optional<std::string> signal_pattern_error(std::string_view pattern) {
  if (pattern.empty()) return "signal pattern must not be empty";
  for (auto segment : segments(pattern))
    if (segment.empty()) return "signal pattern '" + std::string(pattern) + "' has an empty segment";
  return std::nullopt;
}

bool signal_pattern_matches(std::string_view pattern, std::string_view type) {
  if (signal_pattern_error(pattern)) return false;
  return match(segments(pattern), 0, segments(type), 0);
}

SignalBus::SignalBus(Options options) : options_(std::move(options)) {
  if (!options_.on_error)
    options_.on_error = [](const Signal& signal, const std::string& error) {
      std::cerr << ("signal bus: while delivering " + signal.type + ": " + error + "\n") << std::flush;
    };
}

SignalBus::SubscriptionId SignalBus::subscribe(std::string_view pattern, Handler handler) {
  if (auto error = signal_pattern_error(pattern)) throw Exception(Error{*error});
  std::lock_guard lock(subscriptions_mutex_);
  auto id = next_id_++;
  subscriptions_.push_back(std::make_shared<Subscription>(id, std::string(pattern), std::move(handler)));
  return id;
}

bool SignalBus::unsubscribe(SubscriptionId id) {
  bool found = false;
  {
    std::lock_guard lock(subscriptions_mutex_);
    for (auto it = subscriptions_.begin(); it != subscriptions_.end(); ++it) {
      if ((*it)->id != id) continue;
      (*it)->active = false;
      subscriptions_.erase(it);
      found = true;
      break;
    }
  }
  // Waiting for the delivery under way (if another thread runs it) means the handler has returned.
  if (found && !delivering_here()) {
    std::lock_guard wait(delivery_mutex_);
  }
  return found;
}

void SignalBus::publish(Signal signal) {
  if (delivering_here()) {
    pending_.push_back(std::move(signal));
    return;
  }
  std::lock_guard lock(delivery_mutex_);
  deliverer_ = std::this_thread::get_id();
  struct Reset {
    SignalBus& bus;
    ~Reset() {
      bus.pending_.clear();
      bus.deliverer_ = std::thread::id{};
    }
  } reset{*this};
  deliver(signal);
  while (!pending_.empty()) {
    Signal next = std::move(pending_.front());
    pending_.pop_front();
    deliver(next);
  }
}

void SignalBus::deliver(const Signal& signal) {
  auto report = [&](const std::string& error) {
    try {
      options_.on_error(signal, error);
    } catch (...) {
      // An error reporter that fails has nowhere left to report to.
    }
  };
  auto guarded = [&](auto&& call) {
    try {
      call();
    } catch (const std::exception& e) {
      report(e.what());
    } catch (...) {
      report("unknown exception");
    }
  };
  for (const auto& m : options_.middleware) guarded([&] { m->before_publish(signal); });
  std::vector<std::shared_ptr<Subscription>> targets;
  {
    std::lock_guard lock(subscriptions_mutex_);
    for (const auto& s : subscriptions_)
      if (signal_pattern_matches(s->pattern, signal.type)) targets.push_back(s);
  }
  for (const auto& s : targets)
    if (s->active) guarded([&] { s->handler(signal); });
}

}  // namespace ptc
