// boids/config.hpp - version, the overridable assert, small portability macros.
#pragma once

#define BOIDS_VERSION_MAJOR 0
#define BOIDS_VERSION_MINOR 1
#define BOIDS_VERSION_PATCH 0

// Programmer errors (a reaction time <= 0, k = 0, an index out of range) hit
// BOIDS_ASSERT. Define BOIDS_ASSERT(cond, msg) before including any boids header
// to route them into your engine's own assert, or define BOIDS_DISABLE_ASSERT to
// compile them out. The default uses <cassert>, so NDEBUG disables it too.
// Nothing here throws: the library works under -fno-exceptions.
#ifndef BOIDS_ASSERT
#  if defined(BOIDS_DISABLE_ASSERT)
#    define BOIDS_ASSERT(cond, msg) (static_cast<void>(0))
#  else
#    include <cassert>
#    define BOIDS_ASSERT(cond, msg) assert((cond) && msg)
#  endif
#endif

// Small vector functions that steering calls in every blend, inlined into it where
// the compiler would otherwise call them: their divisions and square roots then
// overlap with the caller's work.
#if defined(__GNUC__) || defined(__clang__)
#  define BOIDS_DETAIL_HOT inline __attribute__((always_inline))
#else
#  define BOIDS_DETAIL_HOT inline
#endif

// Unrolls the loop that follows when its trip count is a small constant (axes, lanes,
// the packs of a step). Without it g++ -O2 keeps such loops rolled and the kernel's
// partial sums in memory: the step ran 2.6x slower at -O2 than at -O3.
#if defined(__clang__)
#  define BOIDS_DETAIL_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && __GNUC__ >= 8
#  define BOIDS_DETAIL_UNROLL _Pragma("GCC unroll 16")
#else
#  define BOIDS_DETAIL_UNROLL
#endif

namespace boids {

// The result of validating a parameter block up front: which field is wrong and
// why. `ok()` is true when `field` is null. Works without exceptions.
struct validation {
    const char* field = nullptr;
    const char* reason = nullptr;
    [[nodiscard]] constexpr bool ok() const noexcept { return field == nullptr; }
    [[nodiscard]] constexpr explicit operator bool() const noexcept { return ok(); }
};

// pi in the scalar type S (float, double): the one spelling of it in the library.
template <class S>
inline constexpr S pi = static_cast<S>(3.141592653589793238462643383279502884L);

namespace detail {
// Returns the first failure of a chain of checks.
[[nodiscard]] constexpr validation fail(const char* field, const char* reason) noexcept {
    return validation{field, reason};
}
}  // namespace detail

}  // namespace boids
