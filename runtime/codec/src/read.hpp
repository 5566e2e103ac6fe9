#pragma once
// Reading simdjson values on the codecs' slow paths, shared by the files of runtime/codec/src/.

#include <nlohmann/json.hpp>

#include <ptc/codec/decoder.hpp>

namespace ptc::codec::detail {

/// The value as the validator would see it for a message: scalars as nlohmann's parser reads them,
/// lists and maps as empty ones (read to their end all the same).
nlohmann::json given(Decoder& d, Value& v);

}  // namespace ptc::codec::detail
