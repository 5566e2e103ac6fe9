# ptcgen_core: the model -> schema mapping and the emitters, plus the templates embedded as text.
# Paths are taken from this file's place, not from the including directory.

get_filename_component(PTCGEN_DIR ${CMAKE_CURRENT_LIST_DIR} DIRECTORY)   # generator/
get_filename_component(PTCGEN_TEMPLATE_DIR ${PTCGEN_DIR}/../templates ABSOLUTE)
set(PTCGEN_TEMPLATES
  ${PTCGEN_TEMPLATE_DIR}/ptc_hpp.mustache
  ${PTCGEN_TEMPLATE_DIR}/ptc_cpp.mustache
)
set(PTCGEN_TEMPLATES_CPP ${CMAKE_CURRENT_BINARY_DIR}/emit/templates_embedded.cpp)
# The script rewrites its output only when the text changed, so a touched template that says the same
# thing recompiles nothing.
add_custom_command(
  OUTPUT ${PTCGEN_TEMPLATES_CPP}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${PTCGEN_TEMPLATES_CPP} "-DTEMPLATES=${PTCGEN_TEMPLATES}"
          -P ${CMAKE_CURRENT_LIST_DIR}/embed_templates.cmake
  DEPENDS ${PTCGEN_TEMPLATES} ${CMAKE_CURRENT_LIST_DIR}/embed_templates.cmake
  COMMENT "Embedding ptc-gen templates"
  VERBATIM)

set(PTCGEN_CORE_SOURCES
  ${PTCGEN_DIR}/model/model.cpp
  ${PTCGEN_DIR}/model/schema.cpp
  ${PTCGEN_DIR}/model/refine.cpp
  ${PTCGEN_DIR}/model/explicit_signature.cpp
  ${PTCGEN_DIR}/emit/code_writer.cpp
  ${PTCGEN_DIR}/emit/cpp_text.cpp
  ${PTCGEN_DIR}/emit/plan.cpp
  ${PTCGEN_DIR}/emit/tool_docs.cpp
  ${PTCGEN_DIR}/emit/codec_traits.cpp
  ${PTCGEN_DIR}/emit/registration.cpp
  ${PTCGEN_DIR}/emit/emit.cpp
  ${PTCGEN_TEMPLATES_CPP}
)
