#pragma once
// The mustache skeletons of templates/, embedded into ptc-gen at build time (emit/embed_templates.cmake),
// so the tool needs no files beside it at run time.

#include <string_view>

namespace ptcgen::emit::templates {

std::string_view ptc_hpp();  ///< templates/ptc_hpp.mustache
std::string_view ptc_cpp();  ///< templates/ptc_cpp.mustache

}  // namespace ptcgen::emit::templates
