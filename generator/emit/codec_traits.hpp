#pragma once
// The generated codec parts (the codec contract of ptc/codec/codec.hpp): the
// tools' Args structs, and EnumTraits / StructTraits specializations for the header's enums, structs
// and those Args.

#include <string>
#include <string_view>

#include "emit/plan.hpp"
#include "model/model.hpp"

namespace ptcgen::emit {

/// The name generated code outside the detail namespace gives a tool's Args struct.
std::string args_type(std::string_view stem, const ToolPlan& tool);

/// One struct per tool, for namespace ptc_gen::<stem>::detail; blank lines between them.
std::string args_structs(const Plan& plan);

/// For namespace ptc::codec: EnumTraits of every enum, then StructTraits of every struct (in the
/// model's order: dependencies first, since each decode_field names its fields' codecs), then of every
/// tool's Args.
std::string codec_traits(const model::HeaderModel& header, const Plan& plan);

}  // namespace ptcgen::emit
