#pragma once
// bench_instructions' dispatch_firewalled case, in a translation unit of its own (firewalled_case.cpp),
// so that compiling a second tool's generated code does not change how the orders cases are inlined.

namespace bench {

/// Dispatches `find_customers` `n` times, each call to an OpenAI message: ten customers, each email
/// firewalled.
void dispatch_firewalled(long n);

}  // namespace bench
