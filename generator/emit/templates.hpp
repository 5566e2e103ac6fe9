#pragma once
// The mustache skeletons of emit/templates/, embedded into ptc-gen at build time (emit/embed_templates.cmake),
// so the tool needs no files beside it at run time.

#include <string_view>

namespace ptcgen::emit::templates {

std::string_view ptc_hpp();  ///< emit/templates/ptc_hpp.mustache
std::string_view ptc_cpp();  ///< emit/templates/ptc_cpp.mustache

}  // namespace ptcgen::emit::templates
