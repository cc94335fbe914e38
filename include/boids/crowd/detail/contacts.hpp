// boids/crowd/detail/contacts.hpp - the crowd step's last stage: agents still
// closer than the sum of their radii after the move are pushed apart, and those of a
// jam the pushes cannot loosen go back to where they stood.
//
// The pairs near contact are found once on a grid of cells about two radii (the
// step's own finder has cells of the neighbour distance, far too coarse for this),
// with a margin; the pushes then walk that list. A list stays exact while no agent
// has moved more than half the margin since it was made; past that it is made anew.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>
#include "../../neighbors/uniform_grid.hpp"
#include "../../span.hpp"
#include "../../vector.hpp"

namespace boids::detail {

template <class V>
struct contact_list {
    using S = scalar_t<V>;
    struct pair {
        std::uint32_t i, j;
        S combined;
    };
    uniform_grid<V> grid{world_for<V>{}, S(1)};
    std::vector<pair> pairs;
    std::vector<V> anchor;  // where each agent stood when the list was made
    S margin = S(0);

    // Every pair i < j of finite agents closer than their combined radius and the
    // margin. radius_of(i): agent i's radius.
    template <class Radius>
    void make(span<const V> position, S widest, Radius&& radius_of) {
        margin = S(0.5) * widest;
        grid.set_cell_size(S(2) * widest + margin);
        grid.build(position);
        pairs.clear();
        anchor.assign(position.begin(), position.end());
        for (std::size_t i = 0; i < position.size(); ++i) {
            if (!boids::is_finite(position[i])) continue;
            const S ri = radius_of(i);
            grid.for_each_within(i, ri + widest + margin, [&](const neighbor<S, dimension_v<V>>& nb) {
                const std::size_t j = nb.index;
                if (j <= i || !boids::is_finite(position[j])) return;
                const S combined = ri + radius_of(j);
                const S reach = combined + margin;
                if (nb.distance_squared < reach * reach)
                    pairs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j), combined});
            });
        }
    }
    // Whether the list still holds every pair that can touch.
    [[nodiscard]] bool still_exact(span<const V> position) const noexcept {
        const S limit2 = S(0.25) * margin * margin;
        for (std::size_t i = 0; i < position.size(); ++i)
            if (boids::is_finite(position[i]) && boids::length_squared(boids::sub(position[i], anchor[i])) > limit2)
                return false;
        return true;
    }
    // Calls f(i, j, unit, dist, combined) for every listed pair closer than `combined`
    // less `slack` of it (unit: from i towards j, as they stand). Returns how many.
    template <class F>
    std::size_t for_each_overlap(span<const V> position, S slack, F&& f) const {
        std::size_t count = 0;
        for (const pair& p : pairs) {
            const V d = boids::sub(position[p.j], position[p.i]);
            const S dist = boids::length(d);
            if (!(dist < p.combined - slack * p.combined)) continue;
            ++count;
            f(std::size_t{p.i}, std::size_t{p.j}, dist > S(0) ? boids::scale(d, S(1) / dist) : boids::unit_axis<V>(0),
              dist, p.combined);
        }
        return count;
    }
};

}  // namespace boids::detail
