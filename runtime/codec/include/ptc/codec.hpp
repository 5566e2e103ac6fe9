#pragma once
// ptc::codec's public API in one include: what generated code is built on (users rarely need it).

#include <ptc/codec/codec.hpp>
#include <ptc/codec/decoder.hpp>
#include <ptc/codec/elicit.hpp>
#include <ptc/codec/invoker.hpp>
#include <ptc/codec/schema_of.hpp>
#include <ptc/codec/writer.hpp>
