// boids/random.hpp - small, seeded, counter-based randomness.
//
// No global or shared generator: a value is a pure function of (seed, counter...),
// so results never depend on thread count or on the order boids are visited.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>
#include "vector.hpp"

namespace boids {

// SplitMix64's finaliser: a good 64-bit mix, used as a counter-based hash.
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
[[nodiscard]] constexpr std::uint64_t hash_combine(std::uint64_t a, std::uint64_t b) noexcept {
    return mix64(a ^ (mix64(b) + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2)));
}

// A uniform double in [0, 1) from 64 random bits.
[[nodiscard]] constexpr double unit_double(std::uint64_t bits) noexcept {
    return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

// A tiny per-agent generator (SplitMix64 stream). Copyable state, 8 bytes.
struct random_stream {
    std::uint64_t state = 0;

    constexpr explicit random_stream(std::uint64_t seed = 0) noexcept : state(seed) {}
    constexpr std::uint64_t next() noexcept {
        state += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [lo, hi): a double, or a float when both bounds are floats (so that
    // `vec2{rng.uniform(0.f, w), rng.uniform(0.f, h)}` does not narrow). Drawn in double.
    constexpr double uniform() noexcept { return unit_double(next()); }
    template <class Lo, class Hi, class = std::enable_if_t<std::is_arithmetic_v<Lo> && std::is_arithmetic_v<Hi>>>
    constexpr auto uniform(Lo lo, Hi hi) noexcept {
        using R = std::conditional_t<std::is_same_v<Lo, float> && std::is_same_v<Hi, float>, float, double>;
        const double l = static_cast<double>(lo), h = static_cast<double>(hi);
        return static_cast<R>(l + (h - l) * unit_double(next()));
    }
    // Two independent standard normals from one Box-Muller draw (half the cost of
    // two normal() calls).
    void normal_pair(double& a, double& b) noexcept {
        const double u1 = 1.0 - unit_double(next());  // (0, 1]
        const double u2 = unit_double(next());
        const double r = std::sqrt(-2.0 * std::log(u1));
        a = r * std::cos(2.0 * pi<double> * u2);
        b = r * std::sin(2.0 * pi<double> * u2);
    }
    // Standard normal (Box-Muller; one value per call, deterministic).
    double normal() noexcept {
        const double u1 = 1.0 - unit_double(next());  // (0, 1]
        const double u2 = unit_double(next());
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * pi<double> * u2);
    }
};

// A unit vector in a direction fixed by `bits` (uniform on the circle or sphere).
template <class V>
[[nodiscard]] V unit_direction(std::uint64_t bits) noexcept {
    using S = scalar_t<V>;
    const double a = 2.0 * pi<double> * unit_double(mix64(bits));
    if constexpr (dimension_v<V> == 2) {
        return boids::generate<V>([&](std::size_t i) { return S(i == 0 ? std::cos(a) : std::sin(a)); });
    } else {
        const double z = 2.0 * unit_double(mix64(bits ^ 0xA5A5A5A5A5A5A5A5ull)) - 1.0;
        const double r = std::sqrt(std::fmax(0.0, 1.0 - z * z));
        return boids::generate<V>(
            [&](std::size_t i) { return S(i == 0 ? r * std::cos(a) : (i == 1 ? r * std::sin(a) : z)); });
    }
}

// A unit vector in a direction fixed by `bits`, uniform on the circle or sphere (or
// any dimension's), from +, *, / and sqrt alone: no sine or cosine, whose last bits
// differ between maths libraries, so the same bits on every platform, at under half
// of unit_direction's cost. A point drawn in the cube [-1, 1)^D until one lies in the
// unit ball (away from its centre), then scaled onto the sphere.
template <class V>
[[nodiscard]] V exact_unit_direction(std::uint64_t bits) noexcept {
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    double x[D] = {};
    for (std::uint64_t draw = 0; draw < 64; ++draw) {  // (each draw lands in the ball: 79% in 2D, 52% in 3D)
        double r2 = 0;
        for (std::size_t d = 0; d < D; ++d) {
            x[d] = 2.0 * unit_double(mix64(bits + (draw * D + d) * 0xD1B54A32D192ED03ull)) - 1.0;
            r2 += x[d] * x[d];
        }
        if (r2 >= 1.0 / 1024 && r2 <= 1.0) {
            const double inverse = 1.0 / std::sqrt(r2);
            return boids::generate<V>([&](std::size_t d) { return S(x[d] * inverse); });
        }
    }
    return boids::generate<V>([](std::size_t d) { return S(d == 0 ? 1 : 0); });  // (about 1e-20 in 3D)
}

}  // namespace boids
