// make_wire: the wire format of each provider (openai_chat.cpp, openai_responses.cpp, anthropic.cpp,
// gemini.cpp).

#include "wire/wire.hpp"

#include "wire/wire_common.hpp"

namespace ptc::agent::detail {

std::unique_ptr<Wire> make_wire(Provider provider) {
  switch (provider) {
    case Provider::openai: return wire::make_openai_chat();
    case Provider::openai_responses: return wire::make_openai_responses();
    case Provider::anthropic: return wire::make_anthropic();
    case Provider::gemini: return wire::make_gemini();
  }
  return nullptr;
}

}  // namespace ptc::agent::detail
