// boids/detail/prefetch.hpp - a hint to fetch a cache line ahead of a random access,
// where the compiler offers one (g++, clang++); elsewhere nothing. It never changes a
// result: the steps that read or write the caller's arrays in the grid's cell order
// (random order, beyond the caches from about 100,000 boids) ask for the line a few
// boids ahead.
#pragma once

namespace boids {
namespace detail {

enum class prefetch_for { reading = 0, writing = 1 };

template <prefetch_for For, class T>
inline void prefetch(const T* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(static_cast<const void*>(p), static_cast<int>(For), 3);
#else
    (void)p;
#endif
}

}  // namespace detail
}  // namespace boids
