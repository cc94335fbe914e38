// boids/crowd/detail/contacts.hpp - the crowd step's last stage: agents still
// closer than the sum of their radii after the move are pushed apart, and those of a
// jam the pushes cannot loosen go back to where they stood.
//
// The pairs near contact are found once, with a margin, on a grid of cells about two
// radii; the pushes then walk that list. Where the step kept each agent's nearest
// (listed_neighbours) and they reach far enough, an agent's candidates come from
// that list instead of the grid's cells, which in an open world may be much wider
// than two radii. Either way the pairs are the same, in the same order. A list stays
// exact while no agent has moved more than half the margin since it was made; past
// that it is made anew.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>
#include "../../neighbors/uniform_grid.hpp"
#include "../../span.hpp"
#include "../../vector.hpp"

namespace boids::detail {

// No lists: every agent's candidates from the grid.
struct no_lists {
    template <class P>
    void begin(const P&) const noexcept {}
    template <class P, class S, class F>
    bool operator()(std::size_t, const P&, S, F&&) const noexcept {
        return false;
    }
};

// An agent with no list (listed_neighbours::count).
inline constexpr std::uint32_t no_list = 0xFFFFFFFFu;

// A step's lists of each agent's k nearest within `radius` (found, k apart, count[i]
// of them, or no_list), taken where the agents stood (`before`), as candidates for
// contact now: complete for agent i where they reach past its reach plus its own move
// and the farthest any agent has moved since.
template <class V>
struct listed_neighbours {
    using S = scalar_t<V>;
    span<const neighbor<S, dimension_v<V>>> found;
    span<const std::uint32_t> count;
    std::size_t k = 0;
    S radius = S(0);
    span<const V> before;
    S farthest = S(0);

    void begin(span<const V> position) noexcept {
        farthest = S(0);
        for (std::size_t i = 0; i < position.size(); ++i)
            if (boids::is_finite(position[i]) && boids::is_finite(before[i]))
                farthest = std::max(farthest, boids::length(boids::sub(position[i], before[i])));
    }
    template <class F>
    bool operator()(std::size_t i, span<const V> position, S reach, F&& each) const {
        if (k == 0 || !boids::is_finite(before[i])) return false;
        const std::uint32_t c = count[i];
        if (c > k) return false;  // no_list
        const neighbor<S, dimension_v<V>>* list = found.data() + i * k;
        // Everyone within `covered` of i stood in its list (ties at the k-th distance aside).
        const S covered = c < k ? radius : std::sqrt(list[k - 1].distance_squared);
        const S moved = boids::length(boids::sub(position[i], before[i]));
        if (!((reach + moved + farthest) * S(1.001) < covered)) return false;  // with room for rounding
        for (std::uint32_t r = 0; r < c; ++r) each(list[r].index);
        return true;
    }
};

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
    // margin, for each i in the order of the grid's slots. radius_of(i): agent i's
    // radius. near (optional): near.begin(position), then near(i, position, reach,
    // each) calls each(j) for every agent that may lie within reach of i and returns
    // true, or returns false where it cannot vouch for that (the grid's cells then).
    template <class Radius, class Near = no_lists>
    void make(span<const V> position, S widest, Radius&& radius_of, Near&& near = Near{}) {
        margin = S(0.5) * widest;
        grid.set_cell_size(S(2) * widest + margin);
        grid.build(position);
        pairs.clear();
        anchor.assign(position.begin(), position.end());
        near.begin(position);
        for (std::size_t i = 0; i < position.size(); ++i) {
            if (!boids::is_finite(position[i])) continue;
            const S ri = radius_of(i), reach_i = ri + widest + margin, r2 = reach_i * reach_i;
            auto offer = [&](std::size_t j, S d2) {
                if (j <= i || !boids::is_finite(position[j]) || !(d2 <= r2)) return;
                const S combined = ri + radius_of(j);
                const S reach = combined + margin;
                if (d2 < reach * reach)
                    pairs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j), combined});
            };
            const std::size_t first = pairs.size();
            // (The squared distance in the grid query's arithmetic: the offsets' squares summed in axis order.)
            const bool listed = near(i, position, reach_i, [&](std::size_t j) {
                offer(j, boids::distance_squared(position[i], position[j]));
            });
            if (listed) {
                std::sort(pairs.begin() + static_cast<std::ptrdiff_t>(first), pairs.end(), query_order(reach_i));
                continue;
            }
            grid.for_each_within(i, reach_i,
                                 [&](const neighbor<S, dimension_v<V>>& nb) { offer(nb.index, nb.distance_squared); });
        }
    }
    // The order in which the grid's query of `reach` meets candidates j (an open
    // world's dense grid): one run of slots per row of cells, the rows by their
    // indices along the axes after the first (the last fastest), or every slot in
    // order where the query scans them all.
    [[nodiscard]] auto query_order(S reach) const noexcept {
        const auto runs = grid.runs();
        const bool scan_all = runs.plan_for(reach).scan_all;
        return [runs, scan_all](const pair& a, const pair& b) {
            const std::size_t sa = runs.slot_of(a.j), sb = runs.slot_of(b.j);
            if (!scan_all) {
                const auto &ca = runs.cell_of(sa), &cb = runs.cell_of(sb);
                for (std::size_t d = 1; d < dimension_v<V>; ++d)
                    if (ca[d] != cb[d]) return ca[d] < cb[d];
            }
            return sa < sb;
        };
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
