// libFuzzer target: the EDN/Malli reader and both printers.
//
// Oracle: a signature read from Malli prints (to_malli(), documented as re-readable) to text that reads
// back to a signature with an equal result schema. (`[:cat ...]` parameters come back named arg0, arg1,
// ..., so only the result is compared.) Any exception escaping the reader is a bug too.

#include <cstddef>
#include <cstdint>
#include <string>

#include <ptc/signature.hpp>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ptc_fuzz::as_text(data, size);
  auto sig = ptc::Signature::from_malli(text);
  if (!sig) {
    (void)sig.error().to_string();
    return 0;
  }

  const std::string malli = sig->to_malli();
  const std::string shorthand = sig->render();
  (void)shorthand;

  auto again = ptc::Signature::from_malli(malli);
  if (!again)
    ptc_fuzz::oracle_failure("to_malli() of a read signature does not read back", "input", text, "to_malli()",
                             malli + "  -- error: " + again.error().to_string());
  if (!(again->output() == sig->output()))
    ptc_fuzz::oracle_failure("from_malli(to_malli(s)).output() != s.output()", "input", text, "to_malli()",
                             malli + "  -- re-printed: " + again->to_malli());
  return 0;
}
