// boids/behaviors/formation.hpp - groups that hold a shape: slots around an anchor.
//
// A formation is a set of slots in the anchor's frame (x ahead, y to its left, z up).
// The anchor is any point the user moves (arrive, follow_path, a player's mouse);
// members are assigned to slots once (and again when members join or leave), then each
// keeps its slot with keep_slot, alone or as the preferred velocity of crowd_step.
//
// A formation wider than its max_width is laid out again as ranks that fit: the
// slots front to back (the middle first among equals), a rank of as many as fit
// abreast at a time, each rank in its slots' left-to-right order. Slot i stays slot i, so nobody is reassigned and the
// members narrow into a column at a gap and widen again after it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>
#include "../span.hpp"
#include "../steer.hpp"
#include "frame.hpp"
#include "pursue_evade.hpp"

namespace boids {

enum class formation_pattern {
    line,    // abreast, from the middle outward
    column,  // one behind another
    wedge,   // a V behind the leader, arms at 45 degrees
    circle,  // a ring around the anchor, the first slot ahead
    grid     // ranks of ceil(sqrt(n)) abreast
};

template <class S>
struct formation_shape {
    formation_pattern pattern = formation_pattern::wedge;
    S spacing = S(2);  // length: the distance between neighbouring slots
    S max_width =
        std::numeric_limits<S>::infinity();  // length: across the heading, from the leftmost slot to the rightmost
    // Slot 0 of a line, column or wedge is the anchor's own place (and a grid with an
    // odd number abreast has a slot there). With a leader standing there (the anchor is
    // the leader), leave it free: the members take the pattern's slots from the next
    // one on, and a grid stands a spacing further back. A ring never uses it.
    bool leave_anchor_free = false;

    [[nodiscard]] validation validate() const noexcept {
        if (!(std::isfinite(spacing) && spacing > 0)) return detail::fail("spacing", "must be finite and > 0");
        if (!(max_width >= 0)) return detail::fail("max_width", "must be >= 0 (infinity: no limit)");
        return {};
    }
};

// What formation_slots and assign_slots keep between calls, so that a steady step
// allocates nothing once it has grown to the formation's size.
struct formation_workspace {
    std::vector<std::size_t> order;
    std::vector<double> cost, u, v, min_to;
    std::vector<std::size_t> row_of, way;
    std::vector<char> used;
};

namespace detail {
template <class V>
[[nodiscard]] V local_point(scalar_t<V> ahead, scalar_t<V> left) noexcept {
    return boids::generate<V>([&](std::size_t d) { return d == 0 ? ahead : (d == 1 ? left : scalar_t<V>(0)); });
}
}  // namespace detail

// Lays `slots` (in the anchor's frame, front first) out again in ranks no wider than
// max_width, keeping each slot's index. Slots already narrow enough are left alone.
template <class V>
void fit_width(span<V> slots, scalar_t<V> spacing, scalar_t<V> max_width, formation_workspace& ws) {
    using S = scalar_t<V>;
    if (slots.empty() || !(spacing > 0)) return;
    S lo = boids::get(slots[0], 1), hi = lo, front = boids::get(slots[0], 0);
    for (const V& s : slots) {
        lo = std::min(lo, boids::get(s, 1));
        hi = std::max(hi, boids::get(s, 1));
        front = std::max(front, boids::get(s, 0));
    }
    if (!(hi - lo > max_width * S(1.000001))) return;
    const double room = std::isfinite(max_width) ? static_cast<double>(max_width / spacing) : 0.0;
    const std::size_t abreast = std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(room + 1e-9)) + 1);
    ws.order.resize(slots.size());
    for (std::size_t i = 0; i < slots.size(); ++i) ws.order[i] = i;
    // Front to back (ties: the middle first, so a line drops its ends back; then left,
    // then by index): the ranks.
    auto front_first = [&](std::size_t a, std::size_t b) {
        const S xa = boids::get(slots[a], 0), xb = boids::get(slots[b], 0);
        if (xa != xb) return xa > xb;
        const S ya = boids::get(slots[a], 1), yb = boids::get(slots[b], 1);
        if (std::fabs(ya) != std::fabs(yb)) return std::fabs(ya) < std::fabs(yb);
        if (ya != yb) return ya > yb;
        return a < b;
    };
    std::sort(ws.order.begin(), ws.order.end(), front_first);
    for (std::size_t first = 0, rank = 0; first < slots.size(); first += abreast, ++rank) {
        const std::size_t last = std::min(slots.size(), first + abreast);
        // Within a rank: left to right as the slots were.
        std::sort(ws.order.begin() + static_cast<std::ptrdiff_t>(first),
                  ws.order.begin() + static_cast<std::ptrdiff_t>(last), [&](std::size_t a, std::size_t b) {
                      const S ya = boids::get(slots[a], 1), yb = boids::get(slots[b], 1);
                      return ya != yb ? ya > yb : a < b;
                  });
        const S half = S(0.5) * static_cast<S>(last - first - 1);
        for (std::size_t j = first; j < last; ++j)
            slots[ws.order[j]] = detail::local_point<V>(front - static_cast<S>(rank) * spacing,
                                                        (half - static_cast<S>(j - first)) * spacing);
    }
}

// The slots of a pattern, out.size() of them, in the anchor's frame, fitted to the
// shape's max_width.
template <class V>
void formation_slots(const formation_shape<scalar_t<V>>& shape, span<V> out, formation_workspace& ws) {
    using S = scalar_t<V>;
    // With the anchor's place left free: line, column and wedge start at their slot
    // 1, a grid's ranks stand one spacing further back (a ring never uses it).
    const bool free_anchor = shape.leave_anchor_free;
    const std::size_t skip =
        free_anchor && shape.pattern != formation_pattern::circle && shape.pattern != formation_pattern::grid ? 1 : 0;
    const std::size_t n = out.size() + skip;
    const S s = shape.spacing;
    const S diag = s * S(0.7071067811865476);
    const std::size_t per_rank =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n)) - 1e-9)));
    // Neighbours on the ring a chord of one spacing apart.
    const S ring = n > 1 ? std::max(s, s / (S(2) * std::sin(pi<S> / static_cast<S>(n)))) : s;
    for (std::size_t slot = 0; slot < out.size(); ++slot) {
        const std::size_t i = slot + skip;
        const S k = static_cast<S>((i + 1) / 2);
        const S side = i % 2 == 1 ? S(1) : S(-1);  // odd slots to the left
        switch (shape.pattern) {
        case formation_pattern::line: out[slot] = detail::local_point<V>(S(0), side * k * s); break;
        case formation_pattern::column: out[slot] = detail::local_point<V>(-static_cast<S>(i) * s, S(0)); break;
        case formation_pattern::wedge: out[slot] = detail::local_point<V>(-k * diag, side * k * diag); break;
        case formation_pattern::circle: {
            const S a = S(2) * pi<S> * static_cast<S>(i) / static_cast<S>(n);
            out[slot] = detail::local_point<V>(ring * std::cos(a), ring * std::sin(a));
            break;
        }
        case formation_pattern::grid: {
            const S rank = static_cast<S>(i / per_rank + (free_anchor ? 1 : 0)), at = static_cast<S>(i % per_rank);
            out[slot] = detail::local_point<V>(-rank * s, (S(0.5) * static_cast<S>(per_rank - 1) - at) * s);
            break;
        }
        }
    }
    boids::fit_width(out, s, shape.max_width, ws);
}

// The slots in the world: the anchor's position plus each local slot turned to its
// heading (local_frame: a zero heading faces +x).
template <class V>
void place_slots(const V& anchor, const V& heading, detail::identity_t<span<const V>> local,
                 detail::identity_t<span<V>> world) noexcept {
    const local_frame<V> frame = local_frame<V>::from_heading(heading);
    const std::size_t n = std::min(local.size(), world.size());
    for (std::size_t i = 0; i < n; ++i) world[i] = boids::add(anchor, frame.to_world(local[i]));
}

// Which slot each member takes: slot_of[m] for member m, each slot at most once,
// npos for a member left over when there are more members than slots. Minimises the
// sum of squared distances (the Hungarian algorithm, O(n^2 m)) for up to
// `optimal_up_to` members; beyond that, greedily: each slot in turn, front first,
// takes the nearest free member. Returns the sum of squared distances.
inline constexpr std::size_t unassigned = static_cast<std::size_t>(-1);

template <class V>
double assign_slots(span<const V> members, span<const V> slots, span<std::size_t> slot_of, formation_workspace& ws,
                    std::size_t optimal_up_to = 300) {
    const std::size_t n = std::min(members.size(), slot_of.size()), m = slots.size();
    for (std::size_t i = 0; i < n; ++i) slot_of[i] = unassigned;
    if (n == 0 || m == 0) return 0;
    auto cost = [&](std::size_t i, std::size_t j) {
        const double d = static_cast<double>(boids::distance_squared(members[i], slots[j]));
        return std::isfinite(d) ? d : 1e300;
    };
    double total = 0;
    if (n > optimal_up_to || n > m) {
        // Greedy (also when members outnumber slots: the slots pick their members).
        ws.used.assign(n, 0);
        for (std::size_t j = 0; j < m; ++j) {
            std::size_t best = unassigned;
            double best_cost = 0;
            for (std::size_t i = 0; i < n; ++i) {
                if (ws.used[i] != 0) continue;
                const double c = cost(i, j);
                if (best == unassigned || c < best_cost) best = i, best_cost = c;
            }
            if (best == unassigned) break;
            ws.used[best] = 1;
            slot_of[best] = j;
            total += best_cost;
        }
        return total;
    }
    // Hungarian with potentials, rows = members (1..n), columns = slots (1..m), n <= m.
    const double inf = std::numeric_limits<double>::infinity();
    ws.u.assign(n + 1, 0.0);
    ws.v.assign(m + 1, 0.0);
    ws.row_of.assign(m + 1, 0);
    ws.way.assign(m + 1, 0);
    ws.min_to.assign(m + 1, inf);
    ws.used.assign(m + 1, 0);
    for (std::size_t i = 1; i <= n; ++i) {
        ws.row_of[0] = i;
        std::size_t j0 = 0;
        std::fill(ws.min_to.begin(), ws.min_to.end(), inf);
        std::fill(ws.used.begin(), ws.used.end(), char(0));
        do {
            ws.used[j0] = 1;
            const std::size_t i0 = ws.row_of[j0];
            double delta = inf;
            std::size_t j1 = 0;
            for (std::size_t j = 1; j <= m; ++j) {
                if (ws.used[j] != 0) continue;
                const double cur = cost(i0 - 1, j - 1) - ws.u[i0] - ws.v[j];
                if (cur < ws.min_to[j]) ws.min_to[j] = cur, ws.way[j] = j0;
                if (ws.min_to[j] < delta) delta = ws.min_to[j], j1 = j;
            }
            if (j1 == 0) break;  // cannot happen with finite costs; keeps a NaN from looping
            for (std::size_t j = 0; j <= m; ++j) {
                if (ws.used[j] != 0) {
                    ws.u[ws.row_of[j]] += delta;
                    ws.v[j] -= delta;
                } else {
                    ws.min_to[j] -= delta;
                }
            }
            j0 = j1;
        } while (ws.row_of[j0] != 0);
        do {
            const std::size_t j1 = ws.way[j0];
            ws.row_of[j0] = ws.row_of[j1];
            j0 = j1;
        } while (j0 != 0);
    }
    for (std::size_t j = 1; j <= m; ++j)
        if (ws.row_of[j] != 0) {
            slot_of[ws.row_of[j] - 1] = j - 1;
            total += cost(ws.row_of[j] - 1, j - 1);
        }
    return total;
}

// The same over std::vector or std::array (V is what they hold).
template <class Slots, class = detail::if_container<Slots>>
void fit_width(Slots& slots, scalar_t<std::remove_pointer_t<decltype(slots.data())>> spacing,
               scalar_t<std::remove_pointer_t<decltype(slots.data())>> max_width, formation_workspace& ws) {
    using V = std::remove_pointer_t<decltype(slots.data())>;
    boids::fit_width(span<V>(slots), spacing, max_width, ws);
}
template <class Slots, class V = std::remove_pointer_t<decltype(std::declval<Slots&>().data())>,
          class = detail::if_container<Slots>>
void formation_slots(const formation_shape<scalar_t<V>>& shape, Slots& out, formation_workspace& ws) {
    boids::formation_slots(shape, span<V>(out), ws);
}
template <class Members, class Slots, class SlotOf,
          class = std::enable_if_t<detail::is_container<Members>::value || detail::is_container<Slots>::value ||
                                   detail::is_container<std::remove_reference_t<SlotOf>>::value>>
double assign_slots(const Members& members, const Slots& slots, SlotOf&& slot_of, formation_workspace& ws,
                    std::size_t optimal_up_to = 300) {
    using V = std::remove_cv_t<std::remove_pointer_t<decltype(members.data())>>;
    return boids::assign_slots(span<const V>(members.data(), members.size()), span<const V>(slots.data(), slots.size()),
                               span<std::size_t>(slot_of.data(), slot_of.size()), ws, optimal_up_to);
}

// How fast the anchor may go, as a fraction of its own speed, when the member
// farthest from its slot is `worst_error` away: full pace within one spacing, none
// beyond three, so the anchor waits for stragglers instead of leaving them behind.
template <class S>
[[nodiscard]] S formation_pace(S worst_error, S spacing) noexcept {
    if (!(spacing > S(0)) || !std::isfinite(worst_error)) return S(0);
    return std::clamp((S(3) * spacing - worst_error) / (S(2) * spacing), S(0), S(1));
}

// Keep a moving slot: match the slot's velocity and close the distance, slowing
// within slowing_radius (0: the no-overshoot ramp, 4 reaction times at full speed).
template <class V>
struct keep_slot {
    V slot;
    V slot_velocity;
    steering_limits<scalar_t<V>> limits;
    scalar_t<V> slowing_radius = scalar_t<V>(0);

    // The velocity a member at `position` wants (crowd_step's preferred velocity).
    [[nodiscard]] V desired_velocity(const V& position) const noexcept {
        using S = scalar_t<V>;
        const S slow = std::max(slowing_radius, S(4) * limits.reaction_time * limits.max_speed);
        const V pace = boids::is_finite(slot_velocity) ? slot_velocity : boids::zero<V>();
        if (!boids::is_finite(slot) || !boids::is_finite(position))
            return boids::clamp_magnitude(pace, limits.max_speed);
        return detail::moving_target_velocity(slot, pace, slow, limits.max_speed, position);
    }
    [[nodiscard]] V operator()(const V& position, const V& velocity) const noexcept {
        return boids::steer_toward(desired_velocity(position), velocity, limits);
    }
};

}  // namespace boids
