#include "model/model.hpp"

#include <algorithm>

namespace ptcgen::model {

namespace {

template <class T>
const T* find_named(const std::vector<T>& items, const std::string& name) {
  auto it = std::find_if(items.begin(), items.end(), [&](const T& x) { return x.name == name; });
  return it == items.end() ? nullptr : &*it;
}

}  // namespace

const Struct* HeaderModel::find_struct(const std::string& name) const { return find_named(structs, name); }
const Enum* HeaderModel::find_enum(const std::string& name) const { return find_named(enums, name); }

}  // namespace ptcgen::model
