# A tools/call over MCP on stdio, the way a host sends it: initialize, initialized, then a call whose
# arguments the generated decoder must read (and coerce). Fails unless the reply carries the result.
#   cmake -DEXE=<weather> -DWORK_DIR=<dir> -P mcp_call.cmake
cmake_minimum_required(VERSION 3.25)
set(input "${WORK_DIR}/mcp_input.jsonl")
file(WRITE "${input}"
  [=[{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"consumer-test","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"forecast","arguments":{"city":"Oslo","days":"2"}}}
]=])
execute_process(COMMAND "${EXE}" mcp INPUT_FILE "${input}" OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "weather mcp exited with ${rc}:\n${out}\n${err}")
endif()
# ptc_generate's SERVER_NAME and SERVER_VERSION (tests/consumer/CMakeLists.txt), quote and all; main()
# names no server.
string(REGEX MATCH "[^\n]*\"id\":1[,}][^\n]*" hello "${out}")
string(FIND "${hello}" [["serverInfo":{"name":"weather \"station\"","version":"2.1.0-rc.1"}]] at)
if(at EQUAL -1)
  message(FATAL_ERROR "initialize did not name the server as ptc_generate's SERVER_NAME and SERVER_VERSION say:\n${out}")
endif()
string(REGEX MATCH "[^\n]*\"id\":2[,}][^\n]*" reply "${out}")
if(NOT reply MATCHES "\"result\":" OR NOT reply MATCHES "cloudy" OR reply MATCHES "\"isError\":true")
  message(FATAL_ERROR "the tools/call over MCP did not return the forecast:\n${out}\n${err}")
endif()
