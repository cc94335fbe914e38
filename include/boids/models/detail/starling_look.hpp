// boids/models/detail/starling_look.hpp - what a starling's look adds to the source's
// rules: how one-sided its candidates lie, separation with a zone stretched along
// the heading, a blind sector behind and social weights that fade with rank.
#pragma once
#include <algorithm>
#include <cmath>
#include "../../flock/rules.hpp"
#include "../../neighbors/query.hpp"
#include "../../span.hpp"
#include "../../vector.hpp"

namespace boids {
namespace detail {

// The length of the mean of the unit vectors to the candidates: about 0 inside the
// flock and 0.5 on its border.
template <class V>
[[nodiscard]] scalar_t<V> starling_border_side(span<const neighbor<scalar_t<V>, 3>> found) noexcept {
    using S = scalar_t<V>;
    if (found.empty()) return S(0);
    V sum = boids::zero<V>();
    for (const auto& nb : found)
        if (nb.distance_squared > S(0))
            sum = boids::add_scaled(sum, detail::to_vector<V>(nb.offset), S(1) / std::sqrt(nb.distance_squared));
    return boids::length(sum) / static_cast<S>(found.size());
}

// Separation from one candidate with a zone stretched `ahead` times along the unit
// heading: the linear falloff (1 - d/r0) of the distance d measured with the part
// along the heading divided by `ahead`, pushing along the true offset.
template <class V>
void starling_push_ahead(const neighbor<scalar_t<V>, 3>& nb, const V& heading, scalar_t<V> ahead, scalar_t<V> r0,
                         V& push) noexcept {
    using S = scalar_t<V>;
    const V offset = detail::to_vector<V>(nb.offset);
    const S along = boids::dot(offset, heading);
    const S scaled2 = nb.distance_squared - along * along * (S(1) - S(1) / (ahead * ahead));
    if (!(scaled2 < r0 * r0) || !(nb.distance_squared > S(0))) return;
    const S falloff = S(1) - std::sqrt(std::max(scaled2, S(0))) / r0;
    push = boids::add_scaled(push, offset, -falloff / std::sqrt(nb.distance_squared));
}

// The social weight of the neighbour of rank `rank` (0: the nearest) among k with the
// weights fading over 2 `fade` ranks (params::social_fade): 1 up to rank k - fade - 1,
// then falling linearly to nothing past rank k + fade - 1.
template <class S>
[[nodiscard]] S starling_social_weight(std::size_t rank, std::size_t k, std::size_t fade) noexcept {
    if (fade == 0) return rank < k ? S(1) : S(0);
    const double into = static_cast<double>(rank) + 0.5 + static_cast<double>(fade) - static_cast<double>(k);
    return static_cast<S>(std::clamp(1.0 - into / (2.0 * static_cast<double>(fade)), 0.0, 1.0));
}

// Whether a candidate lies in the blind sector behind: within the angle whose cosine
// is `blind_cos` of straight back.
template <class V>
[[nodiscard]] bool starling_behind(const neighbor<scalar_t<V>, 3>& nb, const V& heading,
                                   scalar_t<V> blind_cos) noexcept {
    using S = scalar_t<V>;
    if (!(nb.distance_squared > S(0))) return false;
    const S back = -boids::dot(detail::to_vector<V>(nb.offset), heading);
    return back > S(0) && back * back >= blind_cos * blind_cos * nb.distance_squared;
}

}  // namespace detail
}  // namespace boids
