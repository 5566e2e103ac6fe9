#include "wire/body_writer.hpp"

#include <ptc/json_text.hpp>

#include "text.hpp"

namespace ptc::agent::detail::wire {

void BodyWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (empty_.empty()) return;
  if (!empty_.back()) out_ += ',';
  empty_.back() = false;
}

void BodyWriter::begin_object() {
  separate();
  out_ += '{';
  empty_.push_back(true);
}

void BodyWriter::end_object() {
  out_ += '}';
  empty_.pop_back();
}

void BodyWriter::begin_array() {
  separate();
  out_ += '[';
  empty_.push_back(true);
}

void BodyWriter::end_array() {
  out_ += ']';
  empty_.pop_back();
}

void BodyWriter::key(std::string_view k) {
  separate();
  text::append_json_string(out_, k);
  out_ += ':';
  after_key_ = true;
}

void BodyWriter::string(std::string_view s) {
  separate();
  text::append_json_string(out_, s);
}

void BodyWriter::boolean(bool b) {
  separate();
  out_ += b ? "true" : "false";
}

void BodyWriter::unsigned_integer(std::uint64_t u) { json(OrderedJson(u)); }

void BodyWriter::number(double d) { json(OrderedJson(d)); }

void BodyWriter::null() {
  separate();
  out_ += "null";
}

void BodyWriter::json(const OrderedJson& j) {
  separate();
  append_compact_text(j, out_);
}

void BodyWriter::json(const nlohmann::json& j) {
  separate();
  append_compact_text(j, out_);
}

void BodyWriter::raw(std::string_view text) {
  separate();
  out_ += text;
}

RoleGroups::RoleGroups(BodyWriter& out, std::string_view items_key) : out_(out), items_key_(items_key) {
  out_.begin_array();
}

BodyWriter& RoleGroups::item(std::string_view role) {
  if (role == open_) return out_;
  close();
  out_.begin_object();
  out_.member("role", role);
  out_.key(items_key_);
  out_.begin_array();
  open_ = role;
  return out_;
}

void RoleGroups::finish() {
  close();
  out_.end_array();
}

void RoleGroups::close() {
  if (open_.empty()) return;
  out_.end_array();
  out_.end_object();
  open_ = {};
}

}  // namespace ptc::agent::detail::wire
