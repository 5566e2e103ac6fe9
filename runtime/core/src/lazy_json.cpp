#include <atomic>
#include <mutex>
#include <ostream>

#include <ptc/lazy_json.hpp>

#include <ptc/json_text.hpp>

namespace ptc {

// The first reader writes the text (or parses the value) under the mutex; later readers see the flag
// set and read without locking. Not std::call_once: glibc's pthread_once makes a futex system call
// each time a flag's function completes, which is once per LazyJson, hence once per tool call.
struct LazyJson::State {
  bool has_text = false;               // made from text, or deferred
  std::shared_ptr<const void> source;  // what `write` writes the text of, until it has
  std::string (*write)(const void*) = nullptr;
  std::string text;
  std::atomic<bool> written{false};
  nlohmann::json value;
  std::atomic<bool> ready{false};
  std::mutex mutex;
};

LazyJson::LazyJson(nlohmann::json value) : state_(std::make_shared<State>()) {
  state_->value = std::move(value);
  state_->ready.store(true, std::memory_order_relaxed);  // published by the shared_ptr's hand-over
}

LazyJson LazyJson::from_text(std::string text) {
  LazyJson out;
  out.state_ = std::make_shared<State>();
  out.state_->has_text = true;
  out.state_->text = std::move(text);
  out.state_->written.store(true, std::memory_order_relaxed);
  return out;
}

LazyJson LazyJson::deferred(std::function<std::string()> write) {
  using Writer = std::function<std::string()>;
  return deferred(std::make_shared<const Writer>(std::move(write)),
                  [](const void* writer) { return (*static_cast<const Writer*>(writer))(); });
}

LazyJson LazyJson::deferred(std::shared_ptr<const void> source, std::string (*write)(const void*)) {
  LazyJson out;
  out.state_ = std::make_shared<State>();
  out.state_->has_text = true;
  out.state_->source = std::move(source);
  out.state_->write = write;
  return out;
}

const std::string* LazyJson::text() const {
  if (!state_ || !state_->has_text) return nullptr;
  State& s = *state_;
  if (!s.written.load(std::memory_order_acquire)) {
    std::lock_guard lock(s.mutex);
    if (!s.written.load(std::memory_order_relaxed)) {
      // What the writer holds (the decoded arguments) is not needed once it ran. A writer that throws
      // leaves the flag clear, so the next reader tries again.
      s.text = s.write(s.source.get());
      s.source = nullptr;
      s.write = nullptr;
      s.written.store(true, std::memory_order_release);
    }
  }
  return &s.text;
}

const nlohmann::json& LazyJson::json() const {
  static const nlohmann::json null;
  if (!state_) return null;
  State& s = *state_;
  if (!s.ready.load(std::memory_order_acquire)) {
    const std::string* t = text();  // before the lock: text() takes it too
    std::lock_guard lock(s.mutex);
    if (!s.ready.load(std::memory_order_relaxed)) {
      s.value = nlohmann::json::parse(*t);
      s.ready.store(true, std::memory_order_release);
    }
  }
  return s.value;
}

std::string LazyJson::dump() const {
  if (const std::string* t = text()) return *t;
  return compact_text(json());
}

bool LazyJson::materialized() const { return !state_ || state_->ready; }

std::ostream& operator<<(std::ostream& out, const LazyJson& value) { return out << value.dump(); }

}  // namespace ptc
