#pragma once
// A count of the process's allocations, for bench/callgrind.sh's allocations per call. Linking
// bench/allocations.cpp replaces the global operator new to keep it.

namespace bench {

/// How many times operator new has run in this process.
long allocations();

}  // namespace bench
