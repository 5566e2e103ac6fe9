#include <nlohmann/json.hpp>

#include <ptc/signature.hpp>

#include "text.hpp"

namespace ptc {
namespace {

void write(std::string& out, const Schema& s);

// Whether a field prints as `name T` / `name T?` and reads back the same. Docs are presentation and
// are left to JSON Schema; a default, or optionality that differs from nullability, is not.
bool shorthand_entry(const MapEntry& e) {
  return text::is_identifier(e.name) && !e.default_value && e.optional == (e.schema.kind() == Kind::Maybe);
}

// `:int[>0]`, `:float[0.0..1.0]`: only what the shorthand parser reads back (integer bounds on
// :int, a non-empty range).
bool shorthand_refinements(const Schema& s) {
  const auto& c = s.children();
  if (c.empty() || (c[0].kind() != Kind::Int && c[0].kind() != Kind::Float)) return false;
  auto bound_ok = [&](const Schema& r) {
    return r.kind() == Kind::Refinement && r.op() != Refine::Re &&
           (c[0].kind() == Kind::Float || r.bound().is_number_integer());
  };
  if (c.size() == 2) return bound_ok(c[1]);
  return c.size() == 3 && bound_ok(c[1]) && bound_ok(c[2]) && c[1].op() == Refine::Ge && c[2].op() == Refine::Le &&
         c[1].bound().get<double>() <= c[2].bound().get<double>();
}

bool all_strings(const std::vector<nlohmann::json>& values) {
  for (const auto& v : values)
    if (!v.is_string()) return false;
  return true;
}

void write_entry(std::string& out, const MapEntry& e) {
  out += e.name;
  out += ' ';
  if ((e.optional || e.default_value) && e.schema.kind() != Kind::Maybe) {
    // Only parameters get here (fields fall back to Malli): the `?` tells the LLM it may leave the
    // parameter out (a default fills it), which is what it needs to know.
    write(out, Schema::maybe(e.schema));
  } else {
    write(out, e.schema);
  }
}

bool write_map(std::string& out, const Schema& s) {
  for (const auto& e : s.entries())
    if (!shorthand_entry(e)) return false;
  out += '{';
  bool first = true;
  for (const auto& e : s.entries()) {
    if (!first) out += ", ";
    first = false;
    write_entry(out, e);
  }
  out += '}';
  return true;
}

bool write_maybe(std::string& out, const Schema& s) {
  if (s.item().kind() == Kind::Maybe) return false;
  if (s.item().kind() == Kind::Or) {
    out += to_malli(s.item());  // `A|B?` would bind `?` to B
  } else {
    write(out, s.item());
  }
  out += '?';
  return true;
}

bool write_or(std::string& out, const Schema& s) {
  if (s.children().size() < 2) return false;
  for (std::size_t i = 0; i < s.children().size(); ++i) {
    if (i) out += '|';
    const Schema& c = s.children()[i];
    if (c.kind() == Kind::Or) {
      out += to_malli(c);
    } else {
      write(out, c);
    }
  }
  return true;
}

bool write_enum(std::string& out, const Schema& s) {
  if (!all_strings(s.values())) return false;
  out += ":enum[";
  for (std::size_t i = 0; i < s.values().size(); ++i) {
    if (i) out += ' ';
    out += text::quote(s.values()[i].get_ref<const std::string&>());
  }
  out += ']';
  return true;
}

bool write_refined(std::string& out, const Schema& s) {
  if (!shorthand_refinements(s)) return false;
  const auto& c = s.children();
  write(out, c[0]);
  out += '[';
  if (c.size() == 3) {
    out += text::number(c[1].bound()) + ".." + text::number(c[2].bound());
  } else {
    out += refine_symbol(c[1].op());
    out += text::number(c[1].bound());
  }
  out += ']';
  return true;
}

// Writes `s` in shorthand and returns true, or writes nothing and returns false when shorthand cannot
// say it (then the caller writes Malli, which can).
bool write_shorthand(std::string& out, const Schema& s) {
  switch (s.kind()) {
    case Kind::String: out += ":string"; return true;
    case Kind::Int: out += ":int"; return true;
    case Kind::Float: out += ":float"; return true;
    case Kind::Bool: out += ":bool"; return true;
    case Kind::Keyword: out += ":keyword"; return true;
    case Kind::Any: out += ":any"; return true;
    case Kind::Nil: out += ":nil"; return true;
    case Kind::Vector:
      if (s.length()) return false;  // [:vector {:min N :max N} T] in Malli
      out += '[';
      write(out, s.item());
      out += ']';
      return true;
    case Kind::MapOf:
      if (s.key().kind() == Kind::Keyword && s.value().kind() == Kind::Any) {
        out += ":map";
        return true;
      }
      return false;
    case Kind::Map: return write_map(out, s);
    case Kind::Maybe: return write_maybe(out, s);
    case Kind::Or: return write_or(out, s);
    case Kind::Enum: return write_enum(out, s);
    case Kind::And: return write_refined(out, s);
    case Kind::Sequential:
    case Kind::Set:
    case Kind::Tuple:
    case Kind::Refinement: return false;
  }
  return false;
}

void write(std::string& out, const Schema& s) {
  if (!write_shorthand(out, s)) out += to_malli(s);
}

}  // namespace

std::string render(const Schema& schema) {
  std::string out;
  write(out, schema);
  return out;
}

std::string Signature::render() const {
  std::string out = "(";
  for (std::size_t i = 0; i < params_.size(); ++i) {
    if (i) out += ", ";
    write_entry(out, params_[i]);
  }
  out += ") -> ";
  write(out, output_);
  return out;
}

}  // namespace ptc
