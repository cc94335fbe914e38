// boids/vector.hpp - the vector policy: the one place the library reads a vector.
//
// Every algorithm reads and builds vectors only through boids::vector_traits<V>,
// so an engine keeps its own type. A specialization provides:
//
//   using scalar = float;                          // float or double
//   static constexpr std::size_t dimension = 2;    // 2 or 3
//   static constexpr scalar get(const V&, std::size_t i);
//   static constexpr V make(scalar x, scalar y);   // (x, y, z) when dimension == 3
//
// For a plain struct, one line at global scope does it:
//   BOIDS_REGISTER_VECTOR2(Vector2, float, x, y)
//   BOIDS_REGISTER_VECTOR3(Vector3, float, x, y, z)
// GLM's vec2/vec3 are registered by <boids/glm.hpp>.
//
// The math below (dot, length, normalized_or_zero, clamp_magnitude, ...) is written
// once on top of the traits. Call it qualified (boids::dot) so it never competes
// with an engine's own overloads through argument-dependent lookup.
#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include "config.hpp"

namespace boids {

// Primary template: deliberately empty. Specialize it (or use the macros) for your type.
template <class V, class Enable = void>
struct vector_traits {};

namespace detail {
template <class V, class = void>
struct has_vector_traits : std::false_type {};
template <class V>
struct has_vector_traits<V, std::void_t<decltype(vector_traits<V>::dimension), typename vector_traits<V>::scalar>>
    : std::true_type {};
}  // namespace detail

// True when V has been registered with the vector policy.
template <class V>
inline constexpr bool is_vector_v = detail::has_vector_traits<std::remove_cv_t<V>>::value;

namespace detail {
template <class V>
struct checked_traits {
    static_assert(is_vector_v<V>,
                  "boids: this vector type is not registered. At global scope write "
                  "BOIDS_REGISTER_VECTOR2(Type, float, x, y) or "
                  "BOIDS_REGISTER_VECTOR3(Type, float, x, y, z), specialize "
                  "boids::vector_traits<Type>, or include <boids/glm.hpp> for GLM types.");
    using type = vector_traits<V>;
};
}  // namespace detail

template <class V>
using traits_of = typename detail::checked_traits<std::remove_cv_t<V>>::type;
template <class V>
using scalar_t = typename traits_of<V>::scalar;
template <class V>
inline constexpr std::size_t dimension_v = traits_of<V>::dimension;

namespace detail {
template <class V>
constexpr void check_supported() noexcept {
    static_assert(dimension_v<V> == 2 || dimension_v<V> == 3, "boids: vectors must have dimension 2 or 3");
    static_assert(std::is_floating_point_v<scalar_t<V>>, "boids: the vector's scalar must be float or double");
}
}  // namespace detail

// Component i of v.
template <class V>
[[nodiscard]] constexpr scalar_t<V> get(const V& v, std::size_t i) noexcept {
    return traits_of<V>::get(v, i);
}

// Builds a V whose component i is f(i), calling f(0), f(1) (, f(2)) in that order:
// f may draw from a random stream. (Called as the arguments of make(), the order
// would be the compiler's choice, and g++ and clang++ choose differently.)
template <class V, class F>
[[nodiscard]] constexpr V generate(F&& f) noexcept {
    detail::check_supported<V>();
    const auto x = f(std::size_t{0});
    const auto y = f(std::size_t{1});
    if constexpr (dimension_v<V> == 2) {
        return traits_of<V>::make(x, y);
    } else {
        const auto z = f(std::size_t{2});
        return traits_of<V>::make(x, y, z);
    }
}

template <class V>
[[nodiscard]] constexpr V zero() noexcept {
    return boids::generate<V>([](std::size_t) { return scalar_t<V>(0); });
}
// The unit vector along axis `axis` (the "defined direction" used when none exists).
template <class V>
[[nodiscard]] constexpr V unit_axis(std::size_t axis = 0) noexcept {
    return boids::generate<V>([axis](std::size_t i) { return scalar_t<V>(i == axis ? 1 : 0); });
}
template <class V>
[[nodiscard]] constexpr V add(const V& a, const V& b) noexcept {
    return boids::generate<V>([&](std::size_t i) { return boids::get(a, i) + boids::get(b, i); });
}
template <class V>
[[nodiscard]] constexpr V sub(const V& a, const V& b) noexcept {
    return boids::generate<V>([&](std::size_t i) { return boids::get(a, i) - boids::get(b, i); });
}
template <class V>
[[nodiscard]] constexpr V scale(const V& a, scalar_t<V> s) noexcept {
    return boids::generate<V>([&](std::size_t i) { return boids::get(a, i) * s; });
}
// a + b * s, the integrator's and the blender's workhorse.
template <class V>
[[nodiscard]] constexpr V add_scaled(const V& a, const V& b, scalar_t<V> s) noexcept {
    return boids::generate<V>([&](std::size_t i) { return boids::get(a, i) + boids::get(b, i) * s; });
}
template <class V>
[[nodiscard]] constexpr V negate(const V& a) noexcept {
    return boids::generate<V>([&](std::size_t i) { return -boids::get(a, i); });
}
template <class V>
[[nodiscard]] constexpr scalar_t<V> dot(const V& a, const V& b) noexcept {
    scalar_t<V> s = boids::get(a, 0) * boids::get(b, 0) + boids::get(a, 1) * boids::get(b, 1);
    if constexpr (dimension_v<V> == 3) s += boids::get(a, 2) * boids::get(b, 2);
    return s;
}
// The cross product of two 3D vectors.
template <class V>
[[nodiscard]] constexpr V cross(const V& a, const V& b) noexcept {
    static_assert(dimension_v<V> == 3, "boids::cross is for 3D vectors");
    return traits_of<V>::make(boids::get(a, 1) * boids::get(b, 2) - boids::get(a, 2) * boids::get(b, 1),
                              boids::get(a, 2) * boids::get(b, 0) - boids::get(a, 0) * boids::get(b, 2),
                              boids::get(a, 0) * boids::get(b, 1) - boids::get(a, 1) * boids::get(b, 0));
}

template <class V>
[[nodiscard]] constexpr scalar_t<V> length_squared(const V& a) noexcept {
    return boids::dot(a, a);
}
template <class V>
[[nodiscard]] constexpr bool is_zero(const V& a) noexcept {
    for (std::size_t i = 0; i < dimension_v<V>; ++i)
        if (boids::get(a, i) != scalar_t<V>(0)) return false;
    return true;
}
template <class V>
[[nodiscard]] bool is_finite(const V& a) noexcept {
    for (std::size_t i = 0; i < dimension_v<V>; ++i)
        if (!std::isfinite(boids::get(a, i))) return false;
    return true;
}

namespace detail {
// a scaled by 2^-e, where 2^e is about its largest component: exact (powers of two),
// and it brings any finite non-zero vector into a range where squaring is safe.
// Returns false for zero or non-finite vectors.
template <class V>
[[nodiscard]] bool rescaled(const V& a, V& out, int& e) noexcept {
    using S = scalar_t<V>;
    S m = 0;
    for (std::size_t i = 0; i < dimension_v<V>; ++i) {
        const S c = std::fabs(boids::get(a, i));
        if (!(c <= std::numeric_limits<S>::max())) return false;  // inf or NaN
        m = c > m ? c : m;
    }
    if (m == S(0)) return false;
    e = std::ilogb(m);
    out = boids::generate<V>([&](std::size_t i) { return std::ldexp(boids::get(a, i), -e); });
    return true;
}
// |a| without overflow or underflow (squared length outside the normal range:
// components beyond 1e154 in double or 1e19 in float, or below 1e-154 / 1e-19).
template <class V>
[[nodiscard]] scalar_t<V> robust_length(const V& a) noexcept {
    using S = scalar_t<V>;
    V w{};
    int e = 0;
    if (!rescaled(a, w, e)) {
        for (std::size_t i = 0; i < dimension_v<V>; ++i)
            if (std::isnan(boids::get(a, i))) return std::numeric_limits<S>::quiet_NaN();
        for (std::size_t i = 0; i < dimension_v<V>; ++i)
            if (std::isinf(boids::get(a, i))) return std::numeric_limits<S>::infinity();
        return S(0);
    }
    return std::ldexp(std::sqrt(boids::dot(w, w)), e);
}
template <class S>
[[nodiscard]] constexpr bool normal_range(S l2) noexcept {
    return l2 >= std::numeric_limits<S>::min() && l2 <= std::numeric_limits<S>::max();
}
}  // namespace detail

template <class V>
[[nodiscard]] scalar_t<V> length(const V& a) noexcept {
    const auto l2 = boids::length_squared(a);
    if (detail::normal_range(l2)) return std::sqrt(l2);
    return detail::robust_length(a);
}
template <class V>
[[nodiscard]] scalar_t<V> distance(const V& a, const V& b) noexcept {
    return boids::length(boids::sub(b, a));
}
template <class V>
[[nodiscard]] constexpr scalar_t<V> distance_squared(const V& a, const V& b) noexcept {
    return boids::length_squared(boids::sub(b, a));
}

// a / |a|, or the zero vector when a is zero (or not finite). Never NaN for finite a.
template <class V>
[[nodiscard]] BOIDS_DETAIL_HOT V normalized_or_zero(const V& a) noexcept {
    using S = scalar_t<V>;
    const S l2 = boids::length_squared(a);
    if (detail::normal_range(l2)) return boids::scale(a, S(1) / std::sqrt(l2));
    V w{};
    int e = 0;
    if (!detail::rescaled(a, w, e)) return boids::zero<V>();
    return boids::scale(w, S(1) / std::sqrt(boids::dot(w, w)));
}

// a with its length limited to max_length (max_length >= 0). Direction is kept. A
// negative or NaN max_length (an assert where asserts are on) gives zero, never a
// vector turned round.
template <class V>
[[nodiscard]] BOIDS_DETAIL_HOT V clamp_magnitude(const V& a, scalar_t<V> max_length) noexcept {
    BOIDS_ASSERT(max_length >= 0, "clamp_magnitude: max_length must be >= 0");
    using S = scalar_t<V>;
    if (!(max_length >= S(0))) return boids::zero<V>();
    const S l2 = boids::length_squared(a);
    if (l2 <= max_length * max_length) {
        if (l2 <= std::numeric_limits<S>::max()) return a;
    }
    // What normalized_or_zero(a) computes, without finding l2 again.
    if (detail::normal_range(l2)) return boids::scale(boids::scale(a, S(1) / std::sqrt(l2)), max_length);
    return boids::scale(boids::normalized_or_zero(a), max_length);
}

// a with its length moved into [min_length, max_length]. A zero vector has no
// direction and stays zero: callers that need one (integrate's speed band) pick it.
template <class V>
[[nodiscard]] BOIDS_DETAIL_HOT V clamp_magnitude(const V& a, scalar_t<V> min_length, scalar_t<V> max_length) noexcept {
    BOIDS_ASSERT(min_length >= 0 && min_length <= max_length, "clamp_magnitude: need 0 <= min_length <= max_length");
    using S = scalar_t<V>;
    const S l2 = boids::length_squared(a);
    if (detail::normal_range(l2)) {  // the usual case: one square root (the same bits as below)
        const S l = std::sqrt(l2);
        if (l > max_length) return boids::scale(boids::scale(a, S(1) / l), max_length);
        if (l < min_length) return boids::scale(boids::scale(a, S(1) / l), min_length);
        return a;
    }
    const auto l = boids::length(a);
    if (l > max_length) return boids::scale(boids::normalized_or_zero(a), max_length);
    if (l < min_length && l > 0) return boids::scale(boids::normalized_or_zero(a), min_length);
    return a;
}

}  // namespace boids

// Registration for plain structs with public fields (raylib's Vector2, a C struct).
// Use at global scope. The type needs no operators and no constructor beyond Type{}.
#define BOIDS_REGISTER_VECTOR2(Type, Scalar, X, Y) \
  BOIDS_DETAIL_REGISTER_VECTOR(Type, Scalar, 2, (i == 0 ? v.X : v.Y), (scalar x, scalar y), (v.X = x, v.Y = y))
#define BOIDS_REGISTER_VECTOR3(Type, Scalar, X, Y, Z)                                                                  \
  BOIDS_DETAIL_REGISTER_VECTOR(Type, Scalar, 3, (i == 0 ? v.X : (i == 1 ? v.Y : v.Z)), (scalar x, scalar y, scalar z), \
                               (v.X = x, v.Y = y, v.Z = z))

// What both write: traits whose get(v, i) is `Get` and whose make(Params) sets `Set`.
#define BOIDS_DETAIL_REGISTER_VECTOR(Type, Scalar, Dim, Get, Params, Set)              \
  namespace boids {                                                                    \
  template <>                                                                          \
  struct vector_traits<Type> {                                                         \
    using scalar = Scalar;                                                             \
    static constexpr std::size_t dimension = Dim;                                      \
    static constexpr scalar get(const Type& v, std::size_t i) noexcept { return Get; } \
    static constexpr Type make Params noexcept {                                       \
      Type v{};                                                                        \
      static_cast<void>(Set);                                                          \
      return v;                                                                        \
    }                                                                                  \
  };                                                                                   \
  }
