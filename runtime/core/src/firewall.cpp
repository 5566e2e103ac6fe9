#include <ptc/firewall.hpp>

#include <ptc/validate.hpp>

namespace ptc {
namespace {

void hide(const Schema& s, nlohmann::json& v) {
  switch (s.kind()) {
    case Kind::Map:
      if (!v.is_object()) return;
      for (const auto& e : s.entries()) {
        auto it = v.find(e.name);
        if (it == v.end()) continue;
        if (e.firewalled()) {
          *it = kFirewalled;
        } else {
          hide(e.schema, *it);
        }
      }
      return;
    case Kind::Vector:
    case Kind::Sequential:
    case Kind::Set:
      if (!v.is_array()) return;
      for (auto& item : v) hide(s.item(), item);
      return;
    case Kind::Tuple:
      if (!v.is_array()) return;
      for (std::size_t i = 0; i < v.size() && i < s.children().size(); ++i) hide(s.children()[i], v[i]);
      return;
    case Kind::MapOf:
      if (!v.is_object()) return;
      for (auto& [k, item] : v.items()) hide(s.value(), item);
      return;
    case Kind::Maybe:
      if (!v.is_null()) hide(s.item(), v);
      return;
    case Kind::And: hide(s.children().front(), v); return;
    case Kind::Or:
      // Hide through the alternative the value actually matches.
      for (const auto& alt : s.children()) {
        if (validate(alt, v, {Direction::Output, Mode::Enabled}).ok) {
          hide(alt, v);
          return;
        }
      }
      return;
    default: return;
  }
}

}  // namespace

nlohmann::json firewall(const Schema& schema, const nlohmann::json& value) {
  nlohmann::json copy = value;
  hide(schema, copy);
  return copy;
}

}  // namespace ptc
