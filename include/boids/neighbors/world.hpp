// boids/neighbors/world.hpp - the space boids live in, and how offsets are measured.
#pragma once
#include <array>
#include <cmath>
#include <limits>
#include <cstddef>
#include "../detail/motion.hpp"
#include "../vector.hpp"

namespace boids {

enum class edges {
    open,     // unbounded: no box at all
    bounded,  // a box [0, size): positions are kept inside, velocities reflected at walls
    wrap,     // positions wrap around, but neighbours are not seen across the edge (the lesson)
    toroidal  // positions wrap and neighbours are seen across it (minimum-image offsets)
};

// A world of dimension D over scalar S: the box [0, size) and what its edges do.
template <class S, std::size_t D>
struct world {
    edges kind = edges::open;
    std::array<S, D> size{};

    [[nodiscard]] static constexpr world unbounded() noexcept { return world{}; }
    [[nodiscard]] static constexpr world box(edges k, std::array<S, D> sz) noexcept { return world{k, sz}; }

    [[nodiscard]] constexpr bool has_box() const noexcept { return kind != edges::open; }
    [[nodiscard]] constexpr bool wraps() const noexcept { return kind == edges::wrap || kind == edges::toroidal; }

    [[nodiscard]] validation validate() const noexcept {
        if (!has_box()) return {};
        for (std::size_t i = 0; i < D; ++i)
            if (!(std::isfinite(size[i]) && size[i] > 0))
                return detail::fail("world.size", "must be finite and > 0 for a box");
        return {};
    }

    // The offset component b - a along axis i, by the minimum image when toroidal.
    // Positions outside the box are wrapped into it first (exactly, by fmod), so a
    // far-away coordinate gives the same answer as its image in the box.
    [[nodiscard]] S offset_component(S a, S b, std::size_t i) const noexcept {
        if (kind != edges::toroidal) return b - a;
        const S w = size[i];
        if (!(a >= S(0) && a < w)) a = wrap_scalar(a, w);
        if (!(b >= S(0) && b < w)) b = wrap_scalar(b, w);
        return minimum_image(b - a, w);
    }

    // The minimum image of an offset d between two points inside [0, w) (packs of
    // offsets: pack::minimum_image, the same arithmetic).
    [[nodiscard]] static S minimum_image(S d, S w) noexcept {
        const S half = w * S(0.5);
        if (d > half) return d - w;
        if (d < -half) return d + w;
        return d;
    }

    // x wrapped into [0, w): the result is never w itself, even after rounding.
    // A value that is not finite stays not finite (NaN), so it is never seen.
    [[nodiscard]] static S wrap_scalar(S x, S w) noexcept {
        if (x >= S(0) && x < w) return x;
        if (!std::isfinite(x)) return std::numeric_limits<S>::quiet_NaN();
        S r = std::fmod(x, w);
        if (r < S(0)) r += w;
        if (!(r < w)) r = S(0);  // -tiny + w rounds to w
        return r;
    }
};

// The offset from a to b as seen in world w (minimum image when toroidal).
template <class V>
[[nodiscard]] V offset(const world<scalar_t<V>, dimension_v<V>>& w, const V& a, const V& b) noexcept {
    return boids::generate<V>([&](std::size_t i) { return w.offset_component(boids::get(a, i), boids::get(b, i), i); });
}

// Puts a position back into the world after a move: wrap for wrapping worlds;
// clamp and reflect the velocity for bounded ones; nothing for open worlds.
template <class V>
void confine(const world<scalar_t<V>, dimension_v<V>>& w, V& position, V& velocity) noexcept {
    using S = scalar_t<V>;
    if (w.kind == edges::open) return;
    if (w.wraps()) {
        position = boids::generate<V>([&](std::size_t i) {
            const S x = boids::get(position, i);
            return std::isfinite(x) ? world<S, dimension_v<V>>::wrap_scalar(x, w.size[i]) : x;
        });
        return;
    }
    constexpr std::size_t D = dimension_v<V>;
    S p[D], v[D];
    for (std::size_t i = 0; i < D; ++i) {
        p[i] = boids::get(position, i);
        v[i] = boids::get(velocity, i);
    }
    detail::motion::bounce<detail::one_lane<S>, D>(p, v, w.size.data());  // the flock's batched walls too
    position = boids::generate<V>([&](std::size_t i) { return p[i]; });
    velocity = boids::generate<V>([&](std::size_t i) { return v[i]; });
}

template <class V>
using world_for = world<scalar_t<V>, dimension_v<V>>;

}  // namespace boids
