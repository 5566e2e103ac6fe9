// SseReader: the event-stream interpretation of the WHATWG HTML standard (9.2.6), minus `id:` and
// `retry:`, which a one-shot model stream has no use for (ptc never reconnects a turn).
#include <utility>

#include "transport/http_transport.hpp"

namespace ptc::agent::detail {

bool SseReader::feed(std::string_view bytes, const std::function<bool(const Event&)>& on_event) {
  std::size_t at = 0;
  // A \r\n split between two pieces: the \r already ended the line.
  if (after_cr_ && !bytes.empty()) {
    after_cr_ = false;
    if (bytes.front() == '\n') at = 1;
  }
  while (at < bytes.size()) {
    const std::size_t end = bytes.find_first_of("\r\n", at);
    const std::size_t stop = end == std::string_view::npos ? bytes.size() : end;
    if (line_.size() + (stop - at) > max_event_bytes) return false;
    line_.append(bytes.substr(at, stop - at));
    if (end == std::string_view::npos) return true;
    at = end + 1;
    if (bytes[end] == '\r') {
      if (at == bytes.size()) {
        after_cr_ = true;
      } else if (bytes[at] == '\n') {
        ++at;
      }
    }
    if (!end_line(on_event)) return false;
  }
  return true;
}

bool SseReader::end_line(const std::function<bool(const Event&)>& on_event) {
  const std::string line = std::exchange(line_, std::string());
  if (line.empty()) {
    // An event without data is not dispatched, and its type does not carry over to the next one.
    if (!has_pending_) {
      pending_.event.clear();
      return true;
    }
    const Event event = std::exchange(pending_, Event{});
    has_pending_ = false;
    return on_event(event);
  }
  if (line.front() == ':') return true;
  const std::size_t colon = line.find(':');
  const std::string_view field = std::string_view(line).substr(0, colon);
  std::string_view value;
  if (colon != std::string::npos) {
    value = std::string_view(line).substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (has_pending_) pending_.data += '\n';
    pending_.data.append(value);
    has_pending_ = true;
  } else if (field == "event") {
    pending_.event.assign(value);
  }
  return pending_.data.size() + pending_.event.size() <= max_event_bytes;
}

std::optional<SseReader::Event> SseReader::finish() {
  // The last line may lack its line break as well as the blank line after it.
  const bool within_bounds = line_.empty() || end_line([](const Event&) { return true; });
  after_cr_ = false;
  line_.clear();
  if (!has_pending_ || !within_bounds) {
    has_pending_ = false;
    pending_ = Event{};
    return std::nullopt;
  }
  has_pending_ = false;
  return std::exchange(pending_, Event{});
}

}  // namespace ptc::agent::detail
