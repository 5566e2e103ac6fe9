# cmake -DOUTPUT=<file.cpp> -DTEMPLATES=<a.mustache;b.mustache> -P embed_templates.cmake
# Writes a .cpp defining ptcgen::emit::templates::<name>() for each template, its text in a raw string.
# The output is rewritten only when its content changes.

set(body "// Generated from generator/emit/templates/*.mustache by generator/emit/embed_templates.cmake. Do not edit.\n\n")
string(APPEND body "#include \"emit/templates.hpp\"\n\nnamespace ptcgen::emit::templates {\n")
foreach(path IN LISTS TEMPLATES)
  get_filename_component(name ${path} NAME_WE)
  file(READ ${path} text)
  # A raw string ends at )delim" - pick a delimiter the text does not contain.
  set(delim "tmpl")
  while(text MATCHES "\\)${delim}\"")
    string(APPEND delim "_")
  endwhile()
  string(APPEND body "\nstd::string_view ${name}() {\n  return R\"${delim}(${text})${delim}\";\n}\n")
endforeach()
string(APPEND body "\n}  // namespace ptcgen::emit::templates\n")

if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
  if(old STREQUAL body)
    return()
  endif()
endif()
file(WRITE ${OUTPUT} "${body}")
