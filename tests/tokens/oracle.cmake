# The fixture of the token tests: gpt-tokenizer's rank tables exported to OUT, checked against the
# sha256 tiktoken expects of OpenAI's published files (tiktoken_ext/openai_public.py), and the oracle's
# answers for the corpus (OUT/oracle.json).
#   cmake -DNODE=<node> -DNODE_DIR=<tests/tokens/node> -DCORPUS=<corpus.json> -DOUT=<dir> -P oracle.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var NODE NODE_DIR CORPUS OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "oracle.cmake: ${var} is not set")
  endif()
endforeach()

function(run_node)
  execute_process(COMMAND "${NODE}" ${ARGN} WORKING_DIRECTORY "${NODE_DIR}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "node ${ARGN} failed (${rc}):\n${out}${err}")
  endif()
  message(STATUS "${out}")
endfunction()

file(REMOVE_RECURSE "${OUT}")
run_node(export_ranks.mjs "${OUT}")

# OpenAI's files, as https://openaipublic.blob.core.windows.net/encodings/<name>.tiktoken serves them.
set(expected_o200k_base 446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d)
set(expected_cl100k_base 223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7)
foreach(name IN ITEMS o200k_base cl100k_base)
  file(SHA256 "${OUT}/${name}.tiktoken" actual)
  if(NOT actual STREQUAL expected_${name})
    message(FATAL_ERROR "${OUT}/${name}.tiktoken has sha256 ${actual}, not ${expected_${name}} (OpenAI's "
                        "published file): gpt-tokenizer's table is not OpenAI's")
  endif()
endforeach()

run_node(oracle.mjs "${CORPUS}" "${OUT}/oracle.json")
