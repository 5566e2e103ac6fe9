// Replaces the global operator new and delete to count allocations (bench/include/bench/allocations.hpp).
// In a file of its own, so that no caller sees these bodies when it is compiled.
#include <atomic>
#include <cstdlib>
#include <new>

#include "bench/allocations.hpp"

namespace {
std::atomic<long> count{0};
}  // namespace

void* operator new(std::size_t size) {
  count.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

long bench::allocations() { return count.load(); }
