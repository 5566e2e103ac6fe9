#pragma once
// A request body written as text in one pass, members in the order they are written: what each wire
// format writes instead of building a tree and printing it (building, printing and freeing the tree
// were a quarter of a turn's work). Keys and strings are escaped by text::append_json_string, the one
// home of that rule; a value that comes as a tree (a schema, a turn kept as the provider sent it) is
// written by compact_text. Internal to src/wire.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/json_schema.hpp>

namespace ptc::agent::detail::wire {

class BodyWriter {
 public:
  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  /// The next member's key; its value follows.
  void key(std::string_view k);

  void string(std::string_view s);
  void boolean(bool b);
  void unsigned_integer(std::uint64_t u);
  void number(double d);  ///< as nlohmann::json::dump writes it
  void null();
  void json(const OrderedJson& j);
  void json(const nlohmann::json& j);
  /// Compact JSON text, written as it is (a rendering kept from an earlier request).
  void raw(std::string_view text);

  void member(std::string_view k, std::string_view s) { key(k), string(s); }
  void member(std::string_view k, const char* s) { key(k), string(s); }
  void member(std::string_view k, bool b) { key(k), boolean(b); }

  /// The text written, which must be one whole value.
  std::string take() { return std::move(out_); }

 private:
  void separate();

  std::string out_;
  std::vector<bool> empty_;  // for each open container: nothing written in it yet
  bool after_key_ = false;
};

/// The list of role-tagged entries Anthropic (`{"role", "content": [blocks]}`) and Gemini (`{"role",
/// "parts": [parts]}`) take, where a role may not repeat in consecutive entries and an entry may not be
/// empty: an entry is opened by its first item, and items join the open entry while the role stays the
/// same (tool results, then the user's next words, are one user entry).
class RoleGroups {
 public:
  /// Opens the list; `items_key` names each entry's list of items.
  RoleGroups(BodyWriter& out, std::string_view items_key);
  /// Opens an entry of `role` unless the open one has that role; the writer, for the item.
  BodyWriter& item(std::string_view role);
  /// Closes the list.
  void finish();

 private:
  void close();

  BodyWriter& out_;
  std::string_view items_key_;
  std::string_view open_;  // the open entry's role, empty when none is open
};

}  // namespace ptc::agent::detail::wire
