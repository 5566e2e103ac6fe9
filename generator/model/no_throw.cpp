#include "model/no_throw.hpp"

#include <exception>

#include <ptc/schema.hpp>

#include "model/schema.hpp"

namespace ptcgen::model::no_throw {

std::optional<std::string> pattern_error(const std::string& pattern) {
  try {
    return ptc::Schema::pattern_error(pattern);
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

std::vector<std::string> explicit_signature_errors(const model::Tool& tool, const model::HeaderModel& header) {
  try {
    return model::check_explicit_signature(tool, header);
  } catch (const std::exception& e) {
    return {e.what()};
  }
}

std::optional<std::string> signature_error(const model::Tool& tool, const model::HeaderModel& header) {
  try {
    auto signature = model::signature_of(tool, header);
    if (signature) return std::nullopt;
    return signature.error().message;
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

std::optional<std::string> schema_error(const model::Type& type, const model::HeaderModel& header) {
  try {
    (void)model::schema_of(type, header);
    return std::nullopt;
  } catch (const ptc::Exception& e) {
    return e.error().message;
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

}  // namespace ptcgen::model::no_throw
