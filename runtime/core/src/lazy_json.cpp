#include <atomic>
#include <mutex>
#include <ostream>

#include <ptc/lazy_json.hpp>

namespace ptc {

struct LazyJson::State {
  bool has_text = false;  // made from text, or deferred
  std::function<std::string()> write;
  std::once_flag written;
  std::string text;
  std::once_flag parsed;
  std::atomic<bool> ready{false};
  nlohmann::json value;
};

LazyJson::LazyJson(nlohmann::json value) : state_(std::make_shared<State>()) {
  state_->value = std::move(value);
  state_->ready = true;
  std::call_once(state_->parsed, [] {});
}

LazyJson LazyJson::from_text(std::string text) {
  LazyJson out;
  out.state_ = std::make_shared<State>();
  out.state_->has_text = true;
  out.state_->text = std::move(text);
  return out;
}

LazyJson LazyJson::deferred(std::function<std::string()> write) {
  LazyJson out;
  out.state_ = std::make_shared<State>();
  out.state_->has_text = true;
  out.state_->write = std::move(write);
  return out;
}

const std::string* LazyJson::text() const {
  if (!state_ || !state_->has_text) return nullptr;
  State& s = *state_;
  std::call_once(s.written, [&s] {
    if (!s.write) return;
    s.text = s.write();
    s.write = nullptr;  // what it holds (the decoded arguments) is not needed any more
  });
  return &s.text;
}

const nlohmann::json& LazyJson::json() const {
  static const nlohmann::json null;
  if (!state_) return null;
  std::call_once(state_->parsed, [this] {
    state_->value = nlohmann::json::parse(*text());
    state_->ready = true;
  });
  return state_->value;
}

std::string LazyJson::dump() const {
  if (const std::string* t = text()) return *t;
  return json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool LazyJson::materialized() const { return !state_ || state_->ready; }

std::ostream& operator<<(std::ostream& out, const LazyJson& value) { return out << value.dump(); }

}  // namespace ptc
