#include "model/model.hpp"

#include <algorithm>

namespace ptcgen::model {

namespace {

template <class T>
const T* find_named(const std::vector<T>& items, const std::string& name) {
  auto it = std::find_if(items.begin(), items.end(), [&](const T& x) { return x.name == name; });
  return it == items.end() ? nullptr : &*it;
}

void reach(const Type& type, const HeaderModel& header, std::set<std::string>& out) {
  switch (type.kind) {
    case TypeKind::Enum: out.insert(type.name); return;
    // A recursive or cut struct is still decoded and encoded in full, through its own traits.
    case TypeKind::Struct:
    case TypeKind::Recursive:
    case TypeKind::DepthLimit: {
      if (!out.insert(type.name).second) return;
      if (const Struct* s = header.find_struct(type.name))
        for (const auto& f : s->fields) reach(f.type, header, out);
      return;
    }
    default:
      for (const auto& a : type.args) reach(a, header, out);
  }
}

}  // namespace

std::string registry_key(const Tool& tool) {
  return std::string(kind_name(tool.kind)) + " " + (tool.kind == ToolKind::Resource ? tool.uri : tool.name);
}

const char* kind_name(ToolKind kind) {
  switch (kind) {
    case ToolKind::Resource: return "resource";
    case ToolKind::Prompt: return "prompt";
    case ToolKind::Tool: break;
  }
  return "tool";
}

std::set<std::string> reached_from_answers(const HeaderModel& header) {
  std::set<std::string> out;
  for (const auto& a : header.answers) reach(a, header, out);
  return out;
}

const Struct* HeaderModel::find_struct(const std::string& name) const { return find_named(structs, name); }
const Enum* HeaderModel::find_enum(const std::string& name) const { return find_named(enums, name); }

const std::string& duration_unit(const Type& type) {
  static const std::string none;
  switch (type.kind) {
    case TypeKind::Duration: return type.unit;
    case TypeKind::Optional:
    case TypeKind::Sequence:
    case TypeKind::Array:
    case TypeKind::Set:
    case TypeKind::Map: return type.args.empty() ? none : duration_unit(type.args.front());
    default: return none;
  }
}

std::string with_unit(const std::string& doc, const std::string& unit) {
  if (unit.empty()) return doc;
  std::string out = doc;
  if (!out.empty()) out += out.back() == '.' ? " " : ". ";
  return out + "Unit: " + unit + ".";
}

}  // namespace ptcgen::model
