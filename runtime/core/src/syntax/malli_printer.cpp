#include <nlohmann/json.hpp>

#include <ptc/signature.hpp>

#include "printers.hpp"
#include "text.hpp"

namespace ptc {
namespace print {

std::string edn_value(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null: return "nil";
    case nlohmann::json::value_t::string: return text::quote(v.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      std::string out = "[";
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) out += ' ';
        out += edn_value(v[i]);
      }
      return out + "]";
    }
    case nlohmann::json::value_t::object: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, x] : v.items()) {
        if (!first) out += ' ';
        out += text::quote(k);
        out += ' ';
        out += edn_value(x);
        first = false;
      }
      return out + "}";
    }
    default: return text::number(v);  // numbers and booleans print as in JSON
  }
}

std::string malli_key(const std::string& name) {
  bool plain = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          std::string_view("*+!_?<>=.-").find(c) != std::string_view::npos))
      plain = false;
  return plain ? ":" + name : text::quote(name);
}

std::string malli_entry_options(const MapEntry& e, bool include_optional) {
  std::string opts;
  auto add = [&](const std::string& s) {
    if (!opts.empty()) opts += ' ';
    opts += s;
  };
  if (include_optional && e.optional) add(":optional true");
  if (e.default_value) add(":default " + edn_value(*e.default_value));
  if (!e.doc.empty()) add(":doc " + text::quote(e.doc));
  return opts.empty() ? "" : "{" + opts + "}";
}

}  // namespace print

namespace {

void write(std::string& out, const Schema& s);

void write_children(std::string& out, std::string_view op, const std::vector<Schema>& xs) {
  out += "[";
  out += op;
  for (const auto& x : xs) {
    out += ' ';
    write(out, x);
  }
  out += ']';
}

void write_entry(std::string& out, const MapEntry& e) {
  out += '[';
  out += print::malli_key(e.name);
  if (auto opts = print::malli_entry_options(e, true); !opts.empty()) out += ' ' + opts;
  out += ' ';
  write(out, e.schema);
  out += ']';
}

void write(std::string& out, const Schema& s) {
  switch (s.kind()) {
    case Kind::String:
      out += s.format().empty() ? ":string" : "[:string {:format " + text::quote(s.format()) + "}]";
      return;
    case Kind::Int: out += ":int"; return;
    case Kind::Float: out += ":double"; return;
    case Kind::Bool: out += ":boolean"; return;
    case Kind::Keyword: out += ":keyword"; return;
    case Kind::Any: out += ":any"; return;
    case Kind::Nil: out += ":nil"; return;
    case Kind::Vector:
      if (auto n = s.length()) {
        out += "[:vector {:min " + std::to_string(*n) + " :max " + std::to_string(*n) + "} ";
        write(out, s.item());
        out += ']';
        return;
      }
      write_children(out, ":vector", {s.item()});
      return;
    case Kind::Sequential: write_children(out, ":sequential", {s.item()}); return;
    case Kind::Set: write_children(out, ":set", {s.item()}); return;
    case Kind::Maybe: write_children(out, ":maybe", {s.item()}); return;
    case Kind::MapOf: write_children(out, ":map-of", {s.key(), s.value()}); return;
    case Kind::Tuple: write_children(out, ":tuple", s.children()); return;
    case Kind::Or: write_children(out, ":or", s.children()); return;
    case Kind::And: write_children(out, ":and", s.children()); return;
    case Kind::Map:
      out += "[:map";
      for (const auto& e : s.entries()) {
        out += ' ';
        write_entry(out, e);
      }
      out += ']';
      return;
    case Kind::Enum:
      out += "[:enum";
      for (const auto& v : s.values()) out += ' ' + print::edn_value(v);
      out += ']';
      return;
    case Kind::Refinement: {
      static constexpr std::string_view ops[] = {":>", ":<", ":>=", ":<=", ":re"};
      out += '[';
      out += ops[static_cast<int>(s.op())];
      out += ' ';
      out += print::edn_value(s.bound());
      out += ']';
      return;
    }
  }
}

// `[:cat ...]` keeps only types; a parameter whose default, doc or optionality would be lost needs
// `[:catn ...]`, which keeps names and options.
bool needs_catn(const std::vector<MapEntry>& params) {
  for (const auto& p : params)
    if (p.default_value || !p.doc.empty() || p.optional != (p.schema.kind() == Kind::Maybe)) return true;
  return false;
}

}  // namespace

std::string to_malli(const Schema& schema) {
  std::string out;
  write(out, schema);
  return out;
}

std::string Signature::to_malli() const {
  std::string out = "[:=> [";
  if (needs_catn(params_)) {
    out += ":catn";
    for (const auto& p : params_) {
      out += ' ';
      write_entry(out, p);
    }
  } else {
    out += ":cat";
    for (const auto& p : params_) {
      out += ' ';
      write(out, p.schema);
    }
  }
  out += "] ";
  write(out, output_);
  out += ']';
  return out;
}

}  // namespace ptc
