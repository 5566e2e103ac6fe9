#include "model/refine.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace ptcgen::model {

namespace {

using ptc::Kind;
using ptc::Refine;
using ptc::Schema;

bool is_lower(Refine op) { return op == Refine::Ge || op == Refine::Gt; }
bool is_upper(Refine op) { return op == Refine::Le || op == Refine::Lt; }

// Whether bound `a` of operator `op` admits no value that bound `b` of the same operator excludes.
bool at_least_as_tight(Refine op, const nlohmann::json& a, const nlohmann::json& b) {
  const double x = a.get<double>();
  const double y = b.get<double>();
  return is_lower(op) ? x >= y : x <= y;
}

void add_refinement(std::vector<Schema>& parts, const Schema& r) {
  if (std::find(parts.begin() + 1, parts.end(), r) != parts.end()) return;
  if (r.kind() == Kind::Refinement && (is_lower(r.op()) || is_upper(r.op()))) {
    for (auto it = parts.begin() + 1; it != parts.end(); ++it) {
      if (it->kind() != Kind::Refinement || it->op() != r.op()) continue;
      if (at_least_as_tight(r.op(), it->bound(), r.bound())) return;
      *it = r;
      return;
    }
  }
  parts.push_back(r);
}

template <class F>
std::vector<Schema> map_children(const std::vector<Schema>& xs, F&& f) {
  std::vector<Schema> out;
  out.reserve(xs.size());
  for (const auto& x : xs) out.push_back(f(x));
  return out;
}

template <class F>
std::vector<Schema> zip_children(const std::vector<Schema>& xs, const std::vector<Schema>& ys, F&& f) {
  std::vector<Schema> out;
  out.reserve(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) out.push_back(f(xs[i], ys[i]));
  return out;
}

}  // namespace

bool is_refined(const Schema& s) {
  if (s.kind() != Kind::And) return false;
  const auto& parts = s.children();
  return std::all_of(parts.begin() + 1, parts.end(), [](const Schema& p) { return p.kind() == Kind::Refinement; });
}

const Schema& unrefined(const Schema& s) { return is_refined(s) ? s.children().front() : s; }

std::vector<Schema> refinements_of(const Schema& s) {
  if (!is_refined(s)) return {};
  return {s.children().begin() + 1, s.children().end()};
}

Schema refine(const Schema& base, const std::vector<Schema>& added) {
  std::vector<Schema> parts{unrefined(base)};
  for (const auto& r : refinements_of(base)) add_refinement(parts, r);
  for (const auto& r : added) add_refinement(parts, r);
  if (parts.size() == 1) return parts.front();
  return Schema::all_of(std::move(parts));
}

Schema shape_of(const Schema& s) {
  switch (s.kind()) {
    case Kind::Vector: return Schema::vector(shape_of(s.item()));  // a length is a constraint, like a refinement
    case Kind::Sequential: return Schema::sequential(shape_of(s.item()));
    case Kind::Set: return Schema::set(shape_of(s.item()));
    case Kind::Maybe: return Schema::maybe(shape_of(s.item()));
    case Kind::MapOf: return Schema::map_of(shape_of(s.key()), shape_of(s.value()));
    case Kind::Tuple: return Schema::tuple(map_children(s.children(), shape_of));
    case Kind::Or: return Schema::one_of(map_children(s.children(), shape_of));
    case Kind::And:
      if (is_refined(s)) return shape_of(unrefined(s));
      return Schema::all_of(map_children(s.children(), shape_of));
    case Kind::Map: {
      std::vector<ptc::MapEntry> entries;
      for (const auto& e : s.entries()) entries.emplace_back(e.name, shape_of(e.schema), e.optional);
      return Schema::map(std::move(entries));
    }
    case Kind::String: return Schema::string();  // a format is an annotation, like a doc
    default: return s;
  }
}

Schema overlay(const Schema& over, const Schema& under) {
  if (is_refined(over) || is_refined(under)) {
    auto refinements = refinements_of(under);
    for (auto& r : refinements_of(over)) refinements.push_back(std::move(r));
    return refine(overlay(unrefined(over), unrefined(under)), refinements);
  }
  switch (over.kind()) {
    case Kind::Vector: {
      const auto length = over.length() ? over.length() : under.length();
      Schema item = overlay(over.item(), under.item());
      return length ? Schema::vector(std::move(item), *length) : Schema::vector(std::move(item));
    }
    case Kind::Sequential: return Schema::sequential(overlay(over.item(), under.item()));
    case Kind::Set: return Schema::set(overlay(over.item(), under.item()));
    case Kind::Maybe: return Schema::maybe(overlay(over.item(), under.item()));
    case Kind::MapOf: return Schema::map_of(overlay(over.key(), under.key()), overlay(over.value(), under.value()));
    case Kind::Tuple: return Schema::tuple(zip_children(over.children(), under.children(), overlay));
    case Kind::Or: return Schema::one_of(zip_children(over.children(), under.children(), overlay));
    case Kind::And: return Schema::all_of(zip_children(over.children(), under.children(), overlay));
    case Kind::Map: {
      std::vector<ptc::MapEntry> entries;
      for (std::size_t i = 0; i < over.entries().size(); ++i) {
        const auto& o = over.entries()[i];
        const auto& u = under.entries()[i];
        ptc::MapEntry e(o.name, overlay(o.schema, u.schema), o.optional);
        e.doc = o.doc.empty() ? u.doc : o.doc;
        e.default_value = o.default_value ? o.default_value : u.default_value;
        entries.push_back(std::move(e));
      }
      return Schema::map(std::move(entries));
    }
    case Kind::String: return over.format().empty() ? under : over;
    default: return over;
  }
}

}  // namespace ptcgen::model
