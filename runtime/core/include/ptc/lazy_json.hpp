#pragma once
// ptc::LazyJson — a JSON value that may exist only as its text, or only as the means to write its text,
// until somebody reads it. Generated tools hand dispatch their coerced arguments and their results this
// way: building a JSON tree of them costs more than the whole decode, and on the usual call nobody (no
// policy, no subscriber) looks at the tree. Copies share one value.

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace ptc {

class LazyJson {
 public:
  /// null
  LazyJson() = default;
  LazyJson(nlohmann::json value);  // NOLINT(google-explicit-constructor): a JSON value is a LazyJson
  /// A value known by its compact JSON text, as ptc's encoders write it (nlohmann::json::dump's form).
  /// The text must be one valid JSON value; it is parsed on the first read of json().
  static LazyJson from_text(std::string text);
  /// A value whose text `write` returns (the same form as from_text's) the first time the text or the
  /// value is needed. `write` runs at most once, on whichever thread asks first, and is then released.
  static LazyJson deferred(std::function<std::string()> write);
  /// The same with `write(source.get())` as the writer, and `source` released once it ran. A plain
  /// function and a shared pointer need no allocation of their own, where a std::function holding the
  /// pointer does (the generated invokers' path, once per call).
  static LazyJson deferred(std::shared_ptr<const void> source, std::string (*write)(const void* source));

  /// The value; the first call on a value made from text parses it. Thread-safe.
  const nlohmann::json& json() const;
  const nlohmann::json& operator*() const { return json(); }
  const nlohmann::json* operator->() const { return &json(); }
  operator const nlohmann::json&() const { return json(); }  // NOLINT(google-explicit-constructor)

  /// The compact text: the text it was made from (or wrote), or the value's dump (invalid UTF-8
  /// replaced).
  std::string dump() const;
  /// The text it was made from (written now if deferred), or nullptr when it was made from a value.
  const std::string* text() const;
  /// Whether json() has been built (for tests of the paths that must not build it).
  bool materialized() const;

  friend bool operator==(const LazyJson& a, const LazyJson& b) { return a.json() == b.json(); }
  friend bool operator==(const LazyJson& a, const nlohmann::json& b) { return a.json() == b; }
  friend std::ostream& operator<<(std::ostream& out, const LazyJson& value);

 private:
  struct State;
  std::shared_ptr<State> state_;  // null: the JSON null
};

}  // namespace ptc
