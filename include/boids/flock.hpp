// boids/flock.hpp - a ready-made flock step over flat arrays.
//
//   1. finder.build(positions)                 (all_pairs: nothing; grids: counting sort)
//   2. every boid looks at the same old state: neighbours -> rules -> acceleration
//   3. then all move: semi-implicit Euler in the speed band, and the world's edges
//
// (A dense grid's metric step fuses 2 and 3: it reads only copies of the old state,
// so a boid can move as soon as its acceleration is known, into the workspace; the
// new states reach your arrays once all have moved. The result is the same.)
//
// Users may call flock_step or write the same loop from the same parts
// (examples/own_loop.cpp). The workspace owns every buffer: after the first step of
// a given flock size, a step allocates nothing (thread_count's threads aside).
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>
#include "behaviors/seek_flee_arrive.hpp"
#include "executor.hpp"
#include "detail/flock_finish.hpp"
#include "detail/flock_kernel.hpp"
#include "detail/prefetch.hpp"
#include "flocking.hpp"
#include "neighbors/auto_finder.hpp"
#include "neighbors/world.hpp"
#include "steer.hpp"
#include "strided.hpp"
#include "summary.hpp"

namespace boids {

// The order in which a boid's neighbours are summed.
enum class neighbor_order {
    // The finder's own order. Grids scan cells with a vectorised kernel: fastest.
    // Bit-identical for any thread count; differs from all_pairs in the last bits.
    finder,
    // By boid index: every finder gives the same bits (slower: a sort per boid).
    by_index
};

enum class neighborhood_kind {
    metric,      // every boid within the view radius (and the cone)
    topological  // the k nearest (within the view radius)
};

template <class V>
struct flock_config {
    using S = scalar_t<V>;
    world_for<V> world{};
    steering_limits<S> limits{};
    neighborhood_kind neighbors = neighborhood_kind::metric;
    S view_radius = S(1);
    S view_angle = S(360);  // degrees; a full circle means no cone
    std::size_t k = 7;      // topological: how many
    std::size_t max_neighbors = 256;  // metric: the nearest this many count (0: none)
    neighbor_order order = neighbor_order::finder;

    separation<V> separate{S(1)};
    alignment<V> align{};
    cohesion<V> cohere{};
    bool use_separation = true, use_alignment = true, use_cohesion = true;
    S separation_weight = S(1), alignment_weight = S(1), cohesion_weight = S(1);

    bool has_predator = false;
    V predator{};
    S panic_radius = S(0);
    S flee_weight = S(1);

    [[nodiscard]] validation validate() const noexcept {
        if (auto v = limits.validate(); !v) return v;
        if (auto v = world.validate(); !v) return v;
        if (!(std::isfinite(view_radius) && view_radius > 0)) return detail::fail("view_radius", "must be finite and > 0");
        if (!(view_radius * view_radius >= std::numeric_limits<S>::min() &&
              view_radius * view_radius <= std::numeric_limits<S>::max()))
            return detail::fail("view_radius", "its square must be a normal number (about 1e-154 to 1e154 in double)");
        if (!(view_angle >= 0 && view_angle <= S(360))) return detail::fail("view_angle", "must be in [0, 360] degrees");
        if (neighbors == neighborhood_kind::topological && k == 0) return detail::fail("k", "must be >= 1");
        if (!(std::isfinite(separate.radius) && separate.radius >= 0)) return detail::fail("separation.radius", "must be finite and >= 0");
        if (!(std::isfinite(separate.strength) && separate.strength >= 0)) return detail::fail("separation.strength", "must be finite and >= 0");
        for (S w : {separation_weight, alignment_weight, cohesion_weight, flee_weight})
            if (!(std::isfinite(w) && w >= 0)) return detail::fail("weights", "must be finite and >= 0");
        if (has_predator && !(std::isfinite(panic_radius) && panic_radius >= 0)) return detail::fail("panic_radius", "must be finite and >= 0");
        if (has_predator && !boids::is_finite(predator)) return detail::fail("predator", "must be finite");
        return {};
    }
};

namespace detail {
// A boid's new state, kept by slot until every boid has looked. Position and
// velocity side by side: the last pass, which copies them to the caller's arrays in
// index order, reads one place per boid, not two (at a million boids, random lines).
template <class V>
struct moved_boid {
    V position, velocity;
};
} // namespace detail

// Which way flock_step went for its last step, and why (flock_workspace::report).
enum class flock_path {
    none,          // no step yet
    fused_kernel,  // metric neighbours over a dense grid: the vectorised kernel, boid by boid in cell order
    per_boid       // a query per boid through the finder, then the same sums
};
struct flock_step_report {
    flock_path path = flock_path::none;
    const char* reason = "";            // why this path
    std::size_t boids_off_kernel = 0;   // on the kernel's path: boids it handed to the per-boid path
                                        // (boids on one spot, crowded boids in a cone, over-full cells)
};

// Scratch space for flock_step: accelerations and one neighbour buffer per task.
template <class V>
struct flock_workspace {
    using S = scalar_t<V>;
    std::vector<V> accelerations;
    std::vector<neighbor<S, dimension_v<V>>> neighbors;  // tasks * capacity
    std::vector<S> sorted_velocities;                    // per axis, in the grid's cell order
    std::vector<detail::moved_boid<V>> finished_states;  // new states by slot (the fused step: every boid's)
    std::vector<unsigned char> finished;                 // by slot: the new state above is ready
    std::vector<unsigned char> task_ok;                  // per task: its boids suit the fused kernel
    std::vector<S> blocks;                               // per task: a cell's candidates (see block_for)
    std::vector<S> crowd_distances;                      // per task: a crowded boid's distances (heeded_radius_squared)
    std::vector<std::size_t> off_kernel;                 // per task: boids handed from the kernel to the per-boid path
    std::vector<V> gathered_positions, gathered_velocities;  // a strided step's copies of your members
    std::size_t capacity = 0;
    std::size_t tasks = 0;
    flock_step_report report{};                          // the last step's path and why

    // A cell's candidates beyond this many take the general path; the block stays
    // small enough for the first-level cache.
    static constexpr std::size_t block_capacity = 1024;
    static_assert(block_capacity <= detail::block_capacity_limit, "counts in the kernel must stay exact");
    static constexpr std::size_t block_stride = block_capacity + 16;  // + lanes read past the end
    static constexpr std::size_t block_rows = 3 * dimension_v<V> + 1;  // positions, velocities, shifts per axis; zeros
    static constexpr std::size_t crowd_stride = block_capacity + detail::distance_padding<S>;

    [[nodiscard]] detail::candidate_block<S, dimension_v<V>> block_for(std::size_t task) noexcept {
        constexpr std::size_t D = dimension_v<V>;
        detail::candidate_block<S, D> b;
        S* base = blocks.data() + task * block_rows * block_stride;
        for (std::size_t d = 0; d < D; ++d) {
            b.pos[d] = base + d * block_stride;
            b.vel[d] = base + (D + d) * block_stride;
            b.shift[d] = b.shift_row[d] = base + (2 * D + d) * block_stride;
        }
        b.no_shift = base + 3 * D * block_stride;  // zeros, never written
        b.capacity = block_capacity;
        return b;
    }

    void prepare(std::size_t n, std::size_t task_count, std::size_t per_boid) {
        if (accelerations.size() != n) accelerations.resize(n);
        if (tasks != task_count || capacity != per_boid) {
            tasks = task_count;
            capacity = per_boid;
            neighbors.resize(tasks * capacity);
            task_ok.resize(tasks);
            off_kernel.resize(tasks);
            // Zeros, so lanes read past a block's end are finite on the first fill.
            blocks.assign(tasks * block_rows * block_stride, S(0));
            crowd_distances.assign(tasks * crowd_stride, S(0));
        }
    }
};

// The blend of the rules from a neighbourhood's sums (see flocking.hpp's finish()
// functions), clamped to the maximum force. Never returns a non-finite value.
template <class V>
[[nodiscard]] V flock_acceleration_from_sums(const V& p, const V& v, std::size_t count, const V& push,
                                             const V& coincident, bool any_coincident, const V& offset_sum,
                                             const V& velocity_sum, const flock_config<V>& cfg) noexcept {
    V sum = boids::zero<V>();
    if (cfg.use_separation)
        sum = boids::add_scaled(sum, cfg.separate.finish(push, coincident, any_coincident, v, cfg.limits),
                                cfg.separation_weight);
    if (cfg.use_alignment)
        sum = boids::add_scaled(sum, cfg.align.finish(velocity_sum, count, v, cfg.limits), cfg.alignment_weight);
    if (cfg.use_cohesion)
        sum = boids::add_scaled(sum, cfg.cohere.finish(offset_sum, count, v, cfg.limits), cfg.cohesion_weight);
    if (cfg.has_predator) {
        // Flee with no force outside the panic radius, the offset measured as the world
        // measures it: the boid sits at `away` from a predator at the origin.
        const V away = boids::offset(cfg.world, cfg.predator, p);
        const flee<V> from_predator{boids::zero<V>(), cfg.panic_radius, cfg.limits, flee_outside::ignore};
        sum = boids::add_scaled(sum, from_predator(away, v), cfg.flee_weight);
    }
    const V a = boids::clamp_magnitude(sum, cfg.limits.max_force);
    return boids::is_finite(a) ? a : boids::zero<V>();
}

// The summary of boid i's neighbours (as a finder reported them), summed in the
// order given, with `sep`'s push: what flock_step hands a blend.
template <class V>
[[nodiscard]] neighborhood_summary<V> summarize(std::size_t i, span<const V> velocities, neighborhood<V> nbrs,
                                                const separation<V>& sep) noexcept {
    neighborhood_summary<V> s;
    bool any_coincident = false;
    const scalar_t<V> sep_r2 = sep.radius * sep.radius;
    for (const auto& n : nbrs) {
        s.offset_sum = boids::add(s.offset_sum, detail::to_vector<V>(n.offset));
        s.velocity_sum = boids::add(s.velocity_sum, velocities[n.index]);
        sep.add(i, n, s.push, s.coincident_push, any_coincident);
        if (n.distance_squared == scalar_t<V>(0) && n.distance_squared < sep_r2) ++s.coincident;
        if (n.distance_squared < s.nearest_distance_squared) s.nearest_distance_squared = n.distance_squared;
    }
    s.count = nbrs.size();
    return s;
}

// The ready-made blend: flock_config's separation, alignment and cohesion, weighted,
// and flight from its predator, clamped to the maximum force. flock_step(..., cfg,
// ...) without a blend of your own runs this one.
template <class V>
struct flock_rules {
    const flock_config<V>* config;

    explicit flock_rules(const flock_config<V>& cfg) noexcept : config(&cfg) {}
    [[nodiscard]] V operator()(const boid_view<V>& b, const neighborhood_summary<V>& s) const noexcept {
        return flock_acceleration_from_sums(b.position, b.velocity, s.count, s.push, s.coincident_push, s.coincident > 0,
                                            s.offset_sum, s.velocity_sum, *config);
    }
};

// The flock rules as parts of a blend of your own (blend.hpp): each reads a boid's
// summary, with the limits its steering is held to.
template <class V>
struct separation_rule {
    separation<V> rule;
    steering_limits<scalar_t<V>> limits;
    [[nodiscard]] V operator()(const boid_view<V>& b, const neighborhood_summary<V>& s) const noexcept {
        return rule.finish(s.push, s.coincident_push, s.coincident > 0, b.velocity, limits);
    }
};
namespace detail {
// A rule that reads one of the summary's sums with the count (alignment, cohesion).
template <class V, class Rule, V neighborhood_summary<V>::*Sum>
struct summed_rule {
    Rule rule;
    steering_limits<scalar_t<V>> limits;
    [[nodiscard]] V operator()(const boid_view<V>& b, const neighborhood_summary<V>& s) const noexcept {
        return rule.finish(s.*Sum, s.count, b.velocity, limits);
    }
};
} // namespace detail
template <class V>
using alignment_rule = detail::summed_rule<V, alignment<V>, &neighborhood_summary<V>::velocity_sum>;
template <class V>
using cohesion_rule = detail::summed_rule<V, cohesion<V>, &neighborhood_summary<V>::offset_sum>;

// The acceleration of boid i from the neighbours found for it, summed in the
// order given. Boids whose own state is not finite get none.
template <class V>
[[nodiscard]] V flock_acceleration(std::size_t i, span<const V> positions, span<const V> velocities,
                                   neighborhood<V> nbrs, const flock_config<V>& cfg) noexcept {
    const V& p = positions[i];
    const V& v = velocities[i];
    if (!boids::is_finite(p) || !boids::is_finite(v)) return boids::zero<V>();
    return flock_rules<V>(cfg)(boid_view<V>{i, p, v}, boids::summarize(i, velocities, nbrs, cfg.separate));
}

namespace detail {
template <class V>
struct is_ready_made_blend : std::false_type {};
template <class V>
struct is_ready_made_blend<flock_rules<V>> : std::true_type {};

// A blend's answer, or zero where it is not finite.
template <class V, class Blend>
[[nodiscard]] V blend_at(const Blend& blend, std::size_t i, const V& p, const V& v, const neighborhood_summary<V>& s) {
    const V a = blend(boid_view<V>{i, p, v}, s);
    return boids::is_finite(a) ? a : boids::zero<V>();
}
} // namespace detail

namespace detail {
// The first `count` neighbours in `buffer`, less those whose velocity is not finite
// (not seen; positions were checked by the finder), in the configured order.
template <class V>
[[nodiscard]] neighborhood<V> seen_neighbors(span<neighbor<scalar_t<V>, dimension_v<V>>> buffer, std::size_t count,
                                             span<const V> velocities, const flock_config<V>& cfg) {
    std::size_t kept = 0;
    for (std::size_t k = 0; k < count; ++k)
        if (boids::is_finite(velocities[buffer[k].index])) buffer[kept++] = buffer[k];
    if (cfg.order == neighbor_order::by_index)
        std::sort(buffer.begin(), buffer.begin() + kept, [](const auto& a, const auto& b) { return a.index < b.index; });
    return {buffer.data(), kept};
}
} // namespace detail

// Finds boid i's neighbours with `finder` into `buffer` (capacity >= 1) and
// returns them sorted by index.
template <class V, class Finder>
[[nodiscard]] neighborhood<V> find_neighbors(std::size_t i, const Finder& finder, span<const V> velocities,
                                             const flock_config<V>& cfg,
                                             span<neighbor<scalar_t<V>, dimension_v<V>>> buffer) {
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    std::size_t count = 0;
    if (cfg.neighbors == neighborhood_kind::topological) {
        k_nearest<S, D> knn(buffer, std::min(cfg.k, buffer.size()));
        finder.nearest(i, knn, cfg.view_radius);
        count = knn.size();
    } else {
        const auto cone = vision_cone<S, D>::from(velocities[i], cfg.view_angle);
        buffer_sink<S, D> all{buffer};
        finder.for_each_within(i, cfg.view_radius, cone, all);
        count = all.size;
        if (all.dropped > 0) {  // more than fit: keep the nearest (ties by index)
            k_nearest<S, D> keep(buffer, buffer.size());
            finder.for_each_within(i, cfg.view_radius, cone, keep);
            count = keep.size();
        }
    }
    return detail::seen_neighbors(buffer, count, velocities, cfg);
}

namespace detail {
// One boid's move: semi-implicit Euler in the speed band, then the world's edges.
template <class V>
void move_boid(V& position, V& velocity, const V& acceleration, scalar_t<V> dt, const flock_config<V>& cfg) noexcept {
    boids::integrate(position, velocity, acceleration, dt, cfg.limits);
    boids::confine(cfg.world, position, velocity);
}

template <class F, class = void>
struct has_contiguous_runs : std::false_type {};
template <class F>
struct has_contiguous_runs<F, std::enable_if_t<F::has_contiguous_runs>> : std::true_type {};

template <class Finder>
std::size_t slot_of(const Finder& finder, std::size_t i) {
    if constexpr (has_contiguous_runs<Finder>::value) return finder.slot_of(i);
    else return i;
}

// Finishes the boids waiting in `batch` (flock_finish.hpp) and hands each one's slot
// and new state to done(slot, p, v). A lane marked for a rarer branch of the per-boid
// functions is redone by them.
template <class V, class Done>
void finish_waiting_boids(bool avx, finish_batch<scalar_t<V>, dimension_v<V>>& batch, const flock_config<V>& cfg,
                          scalar_t<V> dt, Done&& done) {
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    finish_batch_lanes(avx, batch, cfg, dt);
    for (std::size_t k = 0; k < batch.size; ++k) {
        V p = boids::generate<V>([&](std::size_t d) { return batch.new_p[d][k]; });
        V v = boids::generate<V>([&](std::size_t d) { return batch.new_v[d][k]; });
        if (batch.redo[k]) {
            auto lane = [&](const S (&a)[D][finish_batch<S, D>::stride]) {
                return boids::generate<V>([&](std::size_t d) { return a[d][k]; });
            };
            p = lane(batch.p);
            v = lane(batch.v);
            const V a = flock_acceleration_from_sums(p, v, static_cast<std::size_t>(batch.count[k]), lane(batch.push),
                                                     boids::zero<V>(), false, lane(batch.offset), lane(batch.velocity), cfg);
            move_boid(p, v, a, dt, cfg);
        }
        done(batch.slot[k], p, v);
    }
    batch.size = 0;
}

// A blend of the user's over a batch: the boids waiting in `batch` (their own state,
// with their summaries and indices beside it) are asked of the blend one after
// another, which lets the processor overlap them, and moved pack-wide; a lane marked
// for a rarer branch of the move is redone by move_boid. done(slot, p, v) as above.
template <class V, class Blend, class Done>
void move_waiting_boids(bool avx, finish_batch<scalar_t<V>, dimension_v<V>>& batch, const neighborhood_summary<V>* summaries,
                        const std::size_t* index, const Blend& blend, const flock_config<V>& cfg, scalar_t<V> dt,
                        Done&& done) {
    constexpr std::size_t D = dimension_v<V>;
    for (std::size_t k = 0; k < batch.size; ++k) {
        const V p = boids::generate<V>([&](std::size_t d) { return batch.p[d][k]; });
        const V v = boids::generate<V>([&](std::size_t d) { return batch.v[d][k]; });
        const V a = blend_at(blend, index[k], p, v, summaries[k]);
        for (std::size_t d = 0; d < D; ++d) batch.accel[d][k] = boids::get(a, d);
    }
    finish_batch_lanes<true>(avx, batch, cfg, dt);
    for (std::size_t k = 0; k < batch.size; ++k) {
        V p = boids::generate<V>([&](std::size_t d) { return batch.new_p[d][k]; });
        V v = boids::generate<V>([&](std::size_t d) { return batch.new_v[d][k]; });
        if (batch.redo[k]) {
            p = boids::generate<V>([&](std::size_t d) { return batch.p[d][k]; });
            v = boids::generate<V>([&](std::size_t d) { return batch.v[d][k]; });
            move_boid(p, v, boids::generate<V>([&](std::size_t d) { return batch.accel[d][k]; }), dt, cfg);
        }
        done(batch.slot[k], p, v);
    }
    batch.size = 0;
}

// The fused metric step over a dense grid: gathers velocities into cell order, then,
// cell by cell, copies the cell's candidates into a block, computes each of its
// boids' sums over it (flock_kernel.hpp) and moves the boid at once, into the
// workspace by slot; a last pass copies the new states to the caller's arrays. A boid
// with more neighbours than max_neighbors runs the kernel again within the radius of
// its nearest ones (heeded_radius_squared); one that follows such a boid is counted
// from its distances before the kernel runs at all. Every boid sees the old state: the kernel
// reads only the grid's copies, and the rare boid that takes the general path (boids
// on one spot, a tie in distance, a crowded boid with a cone) reads the caller's
// arrays, which are not written until every boid has moved. Returns false (having
// changed nothing, and saying why) when this step cannot use it: a state that is not
// finite, a coordinate beyond a quarter of the largest float, or a toroidal position
// outside the box (keep positions in [0, size), as confine() does).
template <class V, class Grid, class Blend, class Executor>
const char* fused_metric_step(span<V> positions, span<V> velocities, const flock_config<V>& cfg, const Grid& grid,
                              flock_workspace<V>& ws, scalar_t<V> dt, const Blend& blend, std::size_t tasks,
                              Executor& executor) {
    const span<const V> pos(positions.data(), positions.size());
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    const std::size_t n = pos.size();
    // Lane indices are floating-point numbers in the kernel: exact below 2^mantissa.
    if (static_cast<double>(n) >= std::ldexp(1.0, std::numeric_limits<S>::digits - 1))
        return "more boids than the kernel's lane indices count exactly (2^23 in float)";
    const bool toroidal = cfg.world.kind == edges::toroidal;
    const auto order = grid.order();
    if (ws.sorted_velocities.size() != n * D + Grid::padding) ws.sorted_velocities.assign(n * D + Grid::padding, S(0));
    if (ws.finished_states.size() != n) ws.finished_states.resize(n);
    // Every position in the box: found by the grid's build while it sorted (in the
    // same box: a grid of another world takes the general path).
    if (toroidal && !(grid.all_in_box() && grid.world().size == cfg.world.size))
        return "a toroidal position outside the box [0, size) (or a grid over another world)";
    const S* axes = grid.sorted_axis(0).data();  // positions per axis, n apart, in cell order
    constexpr std::size_t gather_ahead = 24;  // slots: about a memory latency of this loop
    executor(tasks, [&](std::size_t t) {  // gather, in parallel: every task checks its slots
        const std::size_t b = n * t / tasks, e = n * (t + 1) / tasks;
        bool ok = true;
        for (std::size_t s = b; s < e; ++s) {
            if (s + gather_ahead < e) prefetch<prefetch_for::reading>(velocities.data() + order[s + gather_ahead]);
            const V& v = velocities[order[s]];
            ok = ok && boids::is_finite(v);
            for (std::size_t d = 0; d < D; ++d) {
                const S x = axes[d * n + s];  // positions[order[s]], read in order
                if (!(std::fabs(x) < position_limit<S>)) ok = false;  // finite, and far from the kernel's sentinels
                ws.sorted_velocities[d * n + s] = boids::get(v, d);
            }
        }
        ws.task_ok[t] = ok ? 1 : 0;
    });
    for (std::size_t t = 0; t < tasks; ++t)
        if (ws.task_ok[t] == 0) return "a position or velocity that is not finite, or a coordinate beyond a quarter of the largest scalar";
    const bool cone = cfg.view_angle < S(360);
    const S cos_half = vision_cone<S, D>::cos_half_of(cfg.view_angle);  // once per step, not per boid
    const bool linear = cfg.separate.falloff == separation_falloff::linear;
    auto plan = grid.plan_for(cfg.view_radius);
    // A grid a few cells across, whose every block would hold the whole flock: one
    // block of every slot in order, filled once per task (not once per cell), with
    // the minimum image lane by lane.
    bool whole = true;
    for (std::size_t d = 0; d < D; ++d) whole = whole && grid.cells_per_axis()[d] <= 2 * plan.reach + 1;
    if (whole) plan.scan_all = true;
    const bool one_image = toroidal && grid.runs_have_one_image(plan);
    const bool avx = avx_at_run_time();
    executor(tasks, [&](std::size_t t) {
        const std::size_t b = n * t / tasks, e = n * (t + 1) / tasks;
        span<neighbor<S, D>> buf(ws.neighbors.data() + t * ws.capacity, ws.capacity);
        const S* vels = ws.sorted_velocities.data();
        const span<const V> old_vel(velocities.data(), n);  // unchanged until every boid has moved
        candidate_block<S, D> block = ws.block_for(t);
        kernel_query<S, D> q{};
        for (std::size_t d = 0; d < D; ++d) {
            q.size[d] = cfg.world.size[d];
            q.half[d] = cfg.world.size[d] * S(0.5);
        }
        q.r2 = cfg.view_radius * cfg.view_radius;
        q.sep_radius = cfg.separate.radius;
        q.sep_r2 = cfg.separate.radius * cfg.separate.radius;
        // Boids whose sums are known wait here for their last stage, done pack-wide.
        finish_batch<S, D> batch{};  // zeros: the lanes past its size compute on finite leftovers
        constexpr bool ready_made = is_ready_made_blend<Blend>::value;
        const bool batched = ready_made && batch_finish_supported(cfg);
        std::size_t off_kernel = 0;
        // A blend of the user's: its boids wait with their summaries, then are asked
        // and moved together (move_waiting_boids).
        neighborhood_summary<V> waiting[ready_made ? 1 : finish_batch<S, D>::capacity];
        std::size_t waiting_index[ready_made ? 1 : finish_batch<S, D>::capacity];
        auto finish_waiting = [&] {
            auto store = [&](std::size_t slot, const V& p, const V& v) { ws.finished_states[slot] = {p, v}; };
            if constexpr (ready_made) finish_waiting_boids(avx, batch, cfg, dt, store);
            else move_waiting_boids(avx, batch, waiting, waiting_index, blend, cfg, dt, store);
        };
        std::size_t cell_end = b;  // the block holds the candidates of slots up to here
        bool filled = false;
        // Crowded boids (more neighbours than they heed) come in runs, in cell order.
        bool last_crowded = false;  // the boid before was crowded
        const std::size_t heed = cfg.max_neighbors;
        const bool per_lane = toroidal && !one_image;
        const bool crowd_on_kernel = heed > 0 && !per_lane;  // and no cone: see below
        S* const crowd_scratch = ws.crowd_distances.data() + t * ws.crowd_stride;
        const S full_r2 = q.r2;
        for (std::size_t s = b; s < e; ++s) {
            if (s >= cell_end) {
                cell_end = plan.scan_all ? e : grid.cell_end_of(s);
                filled = fill_block(grid, plan, one_image, s, axes, vels, n, block);
            }
            const std::size_t i = order[s];
            // This boid's own state from the cell-ordered copies: sequential reads.
            const V p_i = boids::generate<V>([&](std::size_t d) { return axes[d * n + s]; });
            const V v_i = boids::generate<V>([&](std::size_t d) { return vels[d * n + s]; });
            neighborhood_sums<S, D> sums;
            if (filled) {
                for (std::size_t d = 0; d < D; ++d) q.p[d] = axes[d * n + s];
                bool use_cone = false;
                if (cone) {
                    const auto vc = vision_cone<S, D>::from(v_i, cfg.view_angle, cos_half);
                    q.heading = vc.heading;
                    q.cos_half = vc.cos_half_angle;
                    use_cone = !vc.all_around;
                }
                // One instantiation per case, so each inner loop is free of these branches.
                auto with = [&](auto wrap) {
                    constexpr wrap_mode W = decltype(wrap)::value;
                    constexpr bool N = !ready_made;  // the nearest distance, for a blend of the user's
                    if (use_cone) linear ? block_sums<W, true, true, N>(avx, q, block, sums) : block_sums<W, true, false, N>(avx, q, block, sums);
                    else linear ? block_sums<W, false, true, N>(avx, q, block, sums) : block_sums<W, false, false, N>(avx, q, block, sums);
                };
                auto run = [&] {
                    if (per_lane) with(std::integral_constant<wrap_mode, wrap_mode::per_lane>{});
                    else if (block.shifted) with(std::integral_constant<wrap_mode, wrap_mode::per_shift>{});
                    else with(std::integral_constant<wrap_mode, wrap_mode::none>{});
                };
                if (last_crowded && crowd_on_kernel && !use_cone) {
                    // Likely crowded too: counted from the distances rather than by a first
                    // run of the kernel. Not crowded after all: q.r2 comes back as it was.
                    q.r2 = heeded_radius_squared(avx, block, q, heed, neighbours_unknown, crowd_scratch);
                    run();
                    last_crowded = q.r2 < full_r2 || sums.count > heed;
                    q.r2 = full_r2;
                } else {
                    run();
                    last_crowded = sums.count > heed;
                    if (last_crowded && crowd_on_kernel && !use_cone && sums.coincident == 0) {
                        // Crowded: it heeds its max_neighbors nearest, summed by the kernel with
                        // its radius cut to the last of them (a tie there: the general path below).
                        q.r2 = heeded_radius_squared(avx, block, q, heed, sums.count, crowd_scratch);
                        run();
                        q.r2 = full_r2;
                    }
                }
            }
            V a;
            if (!filled || sums.coincident > 0 || sums.count > cfg.max_neighbors) {  // rare: the exact general path
                ++off_kernel;
                a = blend_at(blend, i, p_i, v_i, boids::summarize(i, old_vel, find_neighbors(i, grid, old_vel, cfg, buf), cfg.separate));
            } else if (batched) {
                if (batch.add(s, sums.count, p_i, v_i, to_vector<V>(sums.push), to_vector<V>(sums.offset),
                              to_vector<V>(sums.velocity)))
                    finish_waiting();
                continue;
            } else if constexpr (!ready_made) {
                neighborhood_summary<V>& summary = waiting[batch.size];
                summary = neighborhood_summary<V>{};
                summary.count = sums.count;
                summary.offset_sum = to_vector<V>(sums.offset);
                summary.velocity_sum = to_vector<V>(sums.velocity);
                summary.push = to_vector<V>(sums.push);
                summary.nearest_distance_squared = sums.nearest_squared;
                waiting_index[batch.size] = i;
                if (batch.add_state(s, p_i, v_i)) finish_waiting();
                continue;
            } else {
                neighborhood_summary<V> summary;
                summary.count = sums.count;
                summary.offset_sum = to_vector<V>(sums.offset);
                summary.velocity_sum = to_vector<V>(sums.velocity);
                summary.push = to_vector<V>(sums.push);
                summary.nearest_distance_squared = sums.nearest_squared;
                a = blend_at(blend, i, p_i, v_i, summary);
            }
            // Move (as flock_step's move pass would): p_i and v_i are boid i's state, bit for bit.
            V p = p_i, v = v_i;
            move_boid(p, v, a, dt, cfg);
            ws.finished_states[s] = {p, v};
        }
        finish_waiting();
        ws.off_kernel[t] = off_kernel;
    });
    // The new state goes to the caller's arrays in index order: random reads of the
    // copies by slot, which overlap, where writing each boid as it moved made random
    // stores, which beyond the caches wait for their lines one after another.
    constexpr std::size_t copy_ahead = 16;
    executor(tasks, [&](std::size_t t) {
        const std::size_t b = n * t / tasks, e = n * (t + 1) / tasks;
        for (std::size_t i = b; i < e; ++i) {
            if (i + copy_ahead < e) {
                prefetch<prefetch_for::reading>(ws.finished_states.data() + grid.slot_of(i + copy_ahead));
            }
            const auto& moved = ws.finished_states[grid.slot_of(i)];
            positions[i] = moved.position;
            velocities[i] = moved.velocity;
        }
    });
    return nullptr;
}
} // namespace detail

namespace detail {
template <class T>
struct identity {
    using type = T;
};
// A parameter that takes part in no deduction: flock_step's V comes from the config,
// so a std::vector or std::array of V converts to the span.
template <class T>
using identity_t = typename identity<T>::type;

template <class Blend, class V>
inline constexpr bool is_blend_v = std::is_invocable_r_v<V, const Blend&, const boid_view<V>&, const neighborhood_summary<V>&>;
} // namespace detail

// One step of the whole flock, in four stages: build the finder's index; sum every
// boid's neighbourhood in the old state (cfg says which neighbours: metric or
// topological, radius, cone, k, separation's falloff); ask `blend` for each boid's
// acceleration from its summary; move every boid (semi-implicit Euler in cfg's speed
// band, then the world's edges). positions and velocities are updated in place.
// `blend(const boid_view<V>&, const neighborhood_summary<V>&) -> V` is any callable;
// an answer that is not finite counts as zero. ws.report says which path ran and why.
// Arrays of different sizes (an assert where asserts are on) step the boids that
// have both; a negative or NaN dt steps as dt = 0.
template <class V, class Finder, class Blend, class Executor = sequential,
          class = std::enable_if_t<detail::is_blend_v<Blend, V>>>
void flock_step(detail::identity_t<span<V>> positions, detail::identity_t<span<V>> velocities, const flock_config<V>& cfg,
                Finder& finder, flock_workspace<V>& ws, scalar_t<V> dt, const Blend& blend, Executor&& executor = {}) {
    BOIDS_ASSERT(positions.size() == velocities.size(), "flock_step: positions and velocities differ in size");
    BOIDS_ASSERT(dt >= 0, "flock_step: dt must be >= 0");
    if (!(dt >= 0)) dt = 0;
    const std::size_t n = std::min(positions.size(), velocities.size());
    positions = positions.subspan(0, n);
    velocities = velocities.subspan(0, n);
    const std::size_t per_boid = std::max<std::size_t>(
        1, cfg.neighbors == neighborhood_kind::topological ? cfg.k : cfg.max_neighbors);
    const std::size_t tasks = detail::task_count(n, 256, executor);
    ws.prepare(n, tasks, per_boid);
    const span<const V> pos(positions.data(), n);
    const span<const V> vel(velocities.data(), n);
    if constexpr (detail::has_contiguous_runs<std::remove_cv_t<Finder>>::value)
        finder.build(pos, executor, detail::concurrency_of(executor));  // a dense grid: built in parallel
    else
        finder.build(pos);

    auto range = [n, tasks](std::size_t t, std::size_t& b, std::size_t& e) {
        b = n * t / tasks;
        e = n * (t + 1) / tasks;
    };
    ws.report = flock_step_report{flock_path::per_boid, "", 0};
    if constexpr (detail::has_contiguous_runs<std::remove_cv_t<Finder>>::value) {
        if (cfg.neighbors != neighborhood_kind::metric) {
            ws.report.reason = "topological neighbours: the grid's batched k-nearest query per cell";
        } else if (cfg.order != neighbor_order::finder) {
            ws.report.reason = "neighbor_order::by_index: every boid's neighbours sorted by index";
        } else if (const char* why = detail::fused_metric_step(positions, velocities, cfg, finder, ws, dt, blend, tasks, executor)) {
            ws.report.reason = why;
        } else {
            std::size_t off = 0;
            for (std::size_t t = 0; t < tasks; ++t) off += ws.off_kernel[t];
            ws.report = flock_step_report{flock_path::fused_kernel, "metric neighbours over a dense grid", off};
            return;  // looked and moved
        }
    } else {
        ws.report.reason = "the finder is not a dense grid (all_pairs, hashed_grid): a query per boid";
    }
    // Otherwise boid by boid; over a dense grid in its cell order (slots), where
    // consecutive queries share cells in cache. The order of the loop changes no result.
    constexpr bool in_slots = detail::has_contiguous_runs<std::remove_cv_t<Finder>>::value;
    using S = scalar_t<V>;
    constexpr std::size_t D = dimension_v<V>;
    // Boids whose sums are known wait for their last stage, done pack-wide
    // (flock_finish.hpp: the per-boid functions' bits); their new state is kept by
    // slot until every boid has looked. The others get an acceleration, moved below.
    const bool batched = detail::is_ready_made_blend<Blend>::value && detail::batch_finish_supported(cfg);
    const bool avx = detail::avx_at_run_time();
    if (batched && ws.finished.size() != n) {
        ws.finished_states.resize(n);
        ws.finished.resize(n);
    }
    executor(tasks, [&](std::size_t t) {  // look
        std::size_t b, e;
        range(t, b, e);
        span<neighbor<S, D>> buf(ws.neighbors.data() + t * ws.capacity, ws.capacity);
        // (zeros: lanes past its size compute on finite leftovers; only where it is used)
        std::optional<detail::finish_batch<S, D>> batch;
        if (batched) batch.emplace();
        auto finish_waiting = [&] {
            if (!batched) return;
            detail::finish_waiting_boids(avx, *batch, cfg, dt, [&](std::size_t slot, const V& p, const V& v) {
                ws.finished_states[slot] = {p, v};
                ws.finished[slot] = 1;
            });
        };
        // Boid i, in slot s, with the neighbours it sees.
        auto look = [&](std::size_t s, std::size_t i, neighborhood<V> nbrs) {
            if (batched) ws.finished[s] = 0;
            if (!boids::is_finite(pos[i]) || !boids::is_finite(vel[i])) {  // not seen, and gets no steering
                ws.accelerations[s] = boids::zero<V>();
                return;
            }
            const auto summary = boids::summarize(i, vel, nbrs, cfg.separate);
            if (!batched || summary.coincident > 0) {  // the blend boid by boid (the batch leaves coincident boids to it)
                ws.accelerations[s] = detail::blend_at(blend, i, pos[i], vel[i], summary);
                return;
            }
            if (batch->add(s, summary.count, pos[i], vel[i], summary.push, summary.offset_sum, summary.velocity_sum))
                finish_waiting();
        };
        if constexpr (in_slots) {
            if (cfg.neighbors == neighborhood_kind::topological) {  // the grid's batch: a block of candidates per cell
                k_nearest<S, D> knn(buf, std::min(cfg.k, buf.size()));
                finder.nearest_in_slots(b, e, knn, cfg.view_radius, [&](std::size_t s, const auto& found) {
                    look(s, finder.order()[s], detail::seen_neighbors(buf, found.size(), vel, cfg));
                });
                finish_waiting();
                return;
            }
        }
        for (std::size_t k = b; k < e; ++k) {
            std::size_t i = k;
            if constexpr (in_slots) i = finder.order()[k];
            look(k, i, find_neighbors(i, finder, vel, cfg, buf));
        }
        finish_waiting();
    });
    executor(tasks, [&](std::size_t t) {  // then move
        std::size_t b, e;
        range(t, b, e);
        for (std::size_t i = b; i < e; ++i) {
            const std::size_t at = in_slots ? detail::slot_of(finder, i) : i;
            if (batched && ws.finished[at] != 0) {  // moved by the batch above
                positions[i] = ws.finished_states[at].position;
                velocities[i] = ws.finished_states[at].velocity;
                continue;
            }
            if (!boids::is_finite(positions[i]) || !boids::is_finite(velocities[i])) continue;
            detail::move_boid(positions[i], velocities[i], ws.accelerations[at], dt, cfg);
        }
    });
}

// With an auto_finder, the step runs on the finder it chooses for this flock size,
// with that finder's own fast path (the grid's fused kernel above the crossover).
template <class V, class Blend, class Executor = sequential, class = std::enable_if_t<detail::is_blend_v<Blend, V>>>
void flock_step(detail::identity_t<span<V>> positions, detail::identity_t<span<V>> velocities, const flock_config<V>& cfg,
                auto_finder<V>& finder, flock_workspace<V>& ws, scalar_t<V> dt, const Blend& blend, Executor&& executor = {}) {
    finder.with_chosen(positions.size(), [&](auto& chosen) {
        flock_step<V>(positions, velocities, cfg, chosen, ws, dt, blend, executor);
    });
}

// The step with the ready-made blend (flock_rules: cfg's three rules and its predator).
template <class V, class Finder, class Executor = sequential,
          class = std::enable_if_t<!detail::is_blend_v<std::decay_t<Executor>, V>>>
void flock_step(detail::identity_t<span<V>> positions, detail::identity_t<span<V>> velocities, const flock_config<V>& cfg,
                Finder& finder, flock_workspace<V>& ws, scalar_t<V> dt, Executor&& executor = {}) {
    flock_step<V>(positions, velocities, cfg, finder, ws, dt, flock_rules<V>(cfg), executor);
}

// The step over vectors inside your own structs (strided.hpp): gathered into the
// workspace, stepped as above, and written back to those members only.
template <class V, class Finder, class Blend, class Executor = sequential,
          class = std::enable_if_t<detail::is_blend_v<Blend, V>>>
void flock_step(strided_span<V> positions, strided_span<V> velocities, const flock_config<V>& cfg, Finder& finder,
                flock_workspace<V>& ws, scalar_t<V> dt, const Blend& blend, Executor&& executor = {}) {
    const std::size_t n = std::min(positions.size(), velocities.size());
    ws.gathered_positions.resize(n);
    ws.gathered_velocities.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        ws.gathered_positions[i] = positions[i];
        ws.gathered_velocities[i] = velocities[i];
    }
    flock_step<V>(span<V>(ws.gathered_positions), span<V>(ws.gathered_velocities), cfg, finder, ws, dt, blend, executor);
    for (std::size_t i = 0; i < n; ++i) {
        positions[i] = ws.gathered_positions[i];
        velocities[i] = ws.gathered_velocities[i];
    }
}
template <class V, class Finder, class Executor = sequential,
          class = std::enable_if_t<!detail::is_blend_v<std::decay_t<Executor>, V>>>
void flock_step(strided_span<V> positions, strided_span<V> velocities, const flock_config<V>& cfg, Finder& finder,
                flock_workspace<V>& ws, scalar_t<V> dt, Executor&& executor = {}) {
    flock_step(positions, velocities, cfg, finder, ws, dt, flock_rules<V>(cfg), executor);
}

} // namespace boids
