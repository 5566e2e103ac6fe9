#include <cstdlib>
#include <memory>

#include <cxxabi.h>

#include <ptc/resources.hpp>

namespace ptc::detail {

std::string type_display_name(const std::type_info& type) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(type.name());
}

}  // namespace ptc::detail
