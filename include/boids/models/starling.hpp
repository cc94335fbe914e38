// boids/models/starling.hpp - the starling model of "The physics of a flock" (3D,
// y up, metres and seconds), built from the library's parts: the k nearest of the
// 24 nearest candidates (uniform_grid), linear separation (flock/rules.hpp), the
// banking flight model (flight.hpp), and the model's own terms (starling_terms.hpp:
// roost, altitude band, correlated noise and disturbance waves that spread bird to
// bird) with its parameters (starling_params.hpp).
//
// The pieces are free functions and small structs; starling::flock assembles them
// into one step over the user's position and velocity arrays. The source's starting
// cloud is starling_cloud.hpp; the field studies' measures, starling_measures.hpp;
// the roost and free scenes, examples/lab/starlings.hpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>
#include "../executor.hpp"
#include "../flight.hpp"
#include "../flock/rules.hpp"
#include "../neighbors/uniform_grid.hpp"
#include "../random.hpp"
#include "../snapshot.hpp"
#include "../vector.hpp"
#include "starling_params.hpp"
#include "starling_state.hpp"
#include "starling_terms.hpp"
#include "detail/starling_look.hpp"
#include "starling_cloud.hpp"

namespace boids {
namespace starling {

// The model's per-bird state beyond positions and velocities, and its step.
//
// Each step: (1) a disturbance may start on an edge patch; (2) the birds whose turn
// it is to look (every P steps, staggered by index) find their neighbours in the
// old state, advance their noise and decide whether to copy a manoeuvre; copies
// are applied only after every bird has looked, so a copy made in this pass cannot
// spread before it starts; (3) every bird flies: social terms from its last look,
// roost, altitude, noise and disturbance into the banking flight model, then
// x += v dt. Random numbers come from per-bird streams: the result is the same for
// any executor.
template <class V>
class flock {
public:
    using S = scalar_t<V>;
    static_assert(dimension_v<V> == 3, "starling::flock: 3D only (y up)");

    flock() = default;
    flock(const params<S>& p, std::size_t birds) { reset(p, birds); }

    // Starts over with `birds` birds: level flight, no noise, nothing seen yet.
    // Invalid parameters are refused in every build: the flock is left with no birds
    // (so step() moves nothing) and the returned validation names the field.
    validation reset(const params<S>& p, std::size_t birds) {
        const validation valid = p.validate();
        BOIDS_ASSERT(valid, "starling::flock: invalid parameters (call params::validate() for the reason)");
        if (!valid) {
            *this = flock{};
            return valid;
        }
        st_.settings = p;
        st_.n = birds;
        st_.step = 0;
        st_.time = 0;
        st_.size_scale = static_cast<S>(starling::size_scale(static_cast<double>(birds)));
        st_.roost_radius = static_cast<S>(starling::roost_radius(static_cast<double>(birds)));
        st_.resize_birds(birds);
        std::fill(st_.flight.begin(), st_.flight.end(), flight_state<V>::level(p.flight.gravity));
        for (std::size_t i = 0; i < birds; ++i) st_.rng[i] = random_stream(hash_combine(p.seed, i));
        st_.scene_rng = random_stream(hash_combine(p.seed, 0xD157u));
        st_.next_disturbance = static_cast<double>(p.disturbance_first);
        st_.records.clear();
        st_.records.reserve(64);  // a disturbance every 16-28 s: half an hour before it grows
        // The grid's cells start at about the candidates' reach in a cloud of size E,
        // then follow it: they affect speed only, never which neighbours are found.
        st_.cell = static_cast<S>(std::max(0.05, 0.8 * static_cast<double>(st_.size_scale) *
                                                     std::cbrt(static_cast<double>(p.candidates) /
                                                               static_cast<double>(std::max<std::size_t>(birds, 1)))));
        st_.grid = uniform_grid<V>(world_for<V>{}, st_.cell);
        return valid;
    }

    [[nodiscard]] const params<S>& parameters() const noexcept { return st_.settings; }
    // Parameters that may change between steps (gains, speeds, the flight model).
    // Changing k, candidates or the seed needs reset().
    params<S>& tune() noexcept { return st_.settings; }

    [[nodiscard]] double time() const noexcept { return st_.time; }
    [[nodiscard]] std::size_t steps() const noexcept { return st_.step; }
    [[nodiscard]] S size_scale() const noexcept { return st_.size_scale; }
    [[nodiscard]] S roost_radius() const noexcept { return st_.roost_radius; }
    [[nodiscard]] V roost_centre() const noexcept {
        return boids::generate<V>([&](std::size_t i) {
            return i == 0 ? st_.settings.roost_x : (i == 1 ? st_.settings.roost_y : st_.settings.roost_z);
        });
    }
    [[nodiscard]] span<const disturbance_record> disturbances() const noexcept {
        return {st_.records.data(), st_.records.size()};
    }
    [[nodiscard]] span<const maneuver> maneuvers() const noexcept {
        return {st_.maneuvers.data(), st_.maneuvers.size()};
    }
    [[nodiscard]] span<const flight_state<V>> flight() const noexcept { return {st_.flight.data(), st_.flight.size()}; }
    // The distance to each bird's nearest neighbour when it last looked (inf: never, or alone).
    [[nodiscard]] span<const S> nearest_distances() const noexcept { return {st_.nearest.data(), st_.nearest.size()}; }
    [[nodiscard]] bool is_returning(std::size_t i) const noexcept { return st_.returning[i] != 0; }

    // The whole state, parameters included, appended to `out` as a snapshot
    // (snapshot.hpp). A flock loaded from it and stepped over the same positions and
    // velocities gives the same bits as this one. (A plain copy does too.)
    void save(std::vector<unsigned char>& out) const { save_state(st_, out); }
    // The same with the birds' positions and velocities, in one snapshot: a run saved
    // whole (load it with the overload that fills them back).
    void save(std::vector<unsigned char>& out, span<const V> positions, span<const V> velocities) const {
        BOIDS_ASSERT(positions.size() == st_.n && velocities.size() == st_.n,
                     "starling::flock::save: one position and one velocity per bird");
        if (positions.size() != st_.n || velocities.size() != st_.n) return;
        save_state(st_, out, true, positions.data(), velocities.data());
    }
    // Replaces this flock by the one saved in `bytes`. A wrong, truncated or corrupt
    // buffer (or one holding invalid parameters) is refused with a validation that
    // names what is wrong, and this flock is left as it was. With `used`, `bytes` may
    // hold more snapshots after this one: *used receives the bytes this one took, so
    // the next starts there.
    validation load(span<const unsigned char> bytes, std::size_t* used = nullptr) {
        return load_state(st_, bytes, {}, used);
    }
    // The same from a snapshot saved with the birds, which fill `positions` and
    // `velocities` (left as they were when it is refused).
    validation load(span<const unsigned char> bytes, std::vector<V>& positions, std::vector<V>& velocities,
                    std::size_t* used = nullptr) {
        return load_state(st_, bytes, {&positions, &velocities}, used);
    }

    // Starts a turn on one bird now, the way a disturbance starts on its patch: bird
    // `bird` turns to its left (side +1) or right (-1) with the pulse a sin(pi t / T)
    // (amplitude a in [0, 1], duration T > 0 s), and its neighbours copy it by the copy
    // rule. Returns the disturbance's number (disturbances()[number - 1]), or 0 when the
    // bird does not exist or the pulse is invalid.
    std::uint32_t start_turn(std::size_t bird, int side = 1, double amplitude = 1.0, double duration = 3.2) {
        if (bird >= st_.n || !(amplitude >= 0 && amplitude <= 1) || !(duration > 0 && std::isfinite(duration)))
            return 0;
        maneuver m;
        m.disturbance = static_cast<std::uint32_t>(st_.records.size() + 1);
        m.start = st_.time;
        m.amplitude = amplitude;
        m.duration = duration;
        m.turn = side >= 0 ? 1 : -1;
        st_.maneuvers[bird] = m;
        disturbance_record rec;
        rec.t = st_.time;
        rec.seeded = rec.reached = 1;
        st_.records.push_back(rec);
        return m.disturbance;
    }

    template <class Executor = sequential>
    void step(span<V> positions, span<V> velocities, Executor&& executor = {}) {
        BOIDS_ASSERT(positions.size() == st_.n && velocities.size() == st_.n,
                     "starling::flock::step: arrays must hold as many birds as reset() was given");
        if (positions.size() != st_.n || velocities.size() != st_.n) return;  // not this flock's arrays: nothing moves
        const std::size_t n = st_.n;
        const double t = st_.time;
        const span<const V> pos(positions.data(), n);
        const span<const V> vel(velocities.data(), n);
        start_disturbance(pos, vel, t);

        const std::size_t every = st_.settings.perception_every;
        st_.noise_factors = ou_noise<V>{st_.settings.noise_time, st_.settings.noise}.factors_for(st_.settings.dt *
                                                                                                 static_cast<S>(every));
        // Who is manoeuvring now, a byte per bird, so a look reads little.
        // and whose state is finite (the others are not seen), a byte per bird.
        st_.any_active = false;
        for (std::size_t i = 0; i < n; ++i) {
            st_.active[i] = st_.maneuvers[i].active(t) ? 1 : 0;
            st_.any_active = st_.any_active || st_.active[i] != 0;
            st_.finite[i] = boids::is_finite(pos[i]) && boids::is_finite(vel[i]) ? 1 : 0;
        }
        st_.grid.build(pos);
        const std::size_t tasks = detail::task_count(n, 512, executor);
        st_.buffers.resize(tasks * st_.settings.candidates);
        const auto order = st_.grid.order();
        executor(tasks, [&](std::size_t task) {  // look, in cell order, at the old state
            const detail::index_range range = detail::task_range(n, task, tasks);
            const std::size_t b = range.begin, e = range.end;
            span<neighbor<S, 3>> buf(st_.buffers.data() + task * st_.settings.candidates, st_.settings.candidates);
            S reach = 0;  // the last look's farthest candidate: its neighbour's is alike
            for (std::size_t s = b; s < e; ++s) {
                const std::size_t i = order[s];
                if ((st_.step + i) % every != 0) continue;
                look(i, s, pos, vel, buf, t, reach);
            }
        });
        // Copies take effect now that everyone has looked; count who was reached.
        double reach_sum = 0;
        std::size_t reach_count = 0;
        for (std::size_t s = 0; s < n; ++s) {
            if (st_.seen_by_slot[s].farthest > S(0) && (st_.step + order[s]) % every == 0) {
                reach_sum += static_cast<double>(st_.seen_by_slot[s].farthest);
                ++reach_count;
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (st_.copies[i].disturbance == 0) continue;
            st_.maneuvers[i] = st_.copies[i];
            if (st_.copies[i].disturbance <= st_.records.size()) ++st_.records[st_.copies[i].disturbance - 1].reached;
            st_.copies[i].disturbance = 0;
        }
        if (reach_count > 0) {  // cells a little wider than the candidates' mean reach: fewest rows per query
            const double cell = 1.2 * reach_sum / static_cast<double>(reach_count);
            if (std::isfinite(cell) && cell > 1e-3) st_.grid.set_cell_size(static_cast<S>(cell));
        }
        const auto factors = st_.settings.flight.factors_for(st_.settings.dt);
        executor(tasks, [&](std::size_t task) {  // then every bird flies
            const detail::index_range range = detail::task_range(n, task, tasks);
            const std::size_t b = range.begin, e = range.end;
            for (std::size_t i = b; i < e; ++i) {
                if ((st_.step + i) % every == 0 && boids::is_finite(positions[i]) && boids::is_finite(velocities[i])) {
                    // What it saw (stored by slot, written in order), and new noise.
                    st_.social[i] = st_.seen_by_slot[st_.grid.slot_of(i)];
                    st_.nearest[i] = st_.social[i].nearest;
                    st_.looked[i] = 1;
                    ou_noise<V>{st_.settings.noise_time, st_.settings.noise}.advance(st_.noise[i], st_.rng[i],
                                                                                     st_.noise_factors);
                }
                fly(i, positions[i], velocities[i], t, factors);
            }
        });
        ++st_.step;
        st_.time = static_cast<double>(st_.step) * static_cast<double>(st_.settings.dt);
    }

private:
    using seen = typename flock_state<V>::seen;  // what a look found

    void start_disturbance(span<const V> pos, span<const V> vel, double t) {
        if (st_.n == 0 || !st_.settings.scheduled_disturbances || t < st_.next_disturbance) return;
        st_.next_disturbance = t + st_.scene_rng.uniform(static_cast<double>(st_.settings.disturbance_min_gap),
                                                         static_cast<double>(st_.settings.disturbance_max_gap));
        // The edge patch: the bird farthest out along a random horizontal direction,
        // and every bird within max(2 m, 0.42 E) of it.
        const double angle = 2.0 * pi<double> * st_.scene_rng.uniform();
        const double dx = std::cos(angle), dz = std::sin(angle);
        double cx = 0, cz = 0;
        std::size_t finite = 0;
        for (std::size_t i = 0; i < st_.n; ++i)
            if (boids::is_finite(pos[i])) {
                cx += static_cast<double>(boids::get(pos[i], 0));
                cz += static_cast<double>(boids::get(pos[i], 2));
                ++finite;
            }
        maneuver m;
        m.disturbance = static_cast<std::uint32_t>(st_.records.size() + 1);
        m.start = t;
        m.amplitude = st_.scene_rng.uniform(static_cast<double>(st_.settings.pulse_min),
                                            static_cast<double>(st_.settings.pulse_max));
        m.duration = st_.scene_rng.uniform(static_cast<double>(st_.settings.pulse_min_time),
                                           static_cast<double>(st_.settings.pulse_max_time));
        m.turn = st_.scene_rng.uniform() < 0.5 ? 1 : -1;
        m.dive = st_.scene_rng.uniform() < static_cast<double>(st_.settings.dive_chance);
        disturbance_record rec;
        rec.t = t;
        if (finite > 0) {
            cx /= static_cast<double>(finite);
            cz /= static_cast<double>(finite);
            std::size_t edge = st_.n;
            double best = -std::numeric_limits<double>::infinity();
            for (std::size_t i = 0; i < st_.n; ++i) {
                if (!boids::is_finite(pos[i]) || !boids::is_finite(vel[i])) continue;
                const double along = (static_cast<double>(boids::get(pos[i], 0)) - cx) * dx +
                                     (static_cast<double>(boids::get(pos[i], 2)) - cz) * dz;
                if (along > best) {
                    best = along;
                    edge = i;
                }
            }
            const S radius = std::max(st_.settings.patch_min_radius, st_.settings.patch_scale * st_.size_scale);
            for (std::size_t i = 0; edge < st_.n && i < st_.n; ++i) {
                if (boids::distance_squared(pos[i], pos[edge]) <= radius * radius) {
                    st_.maneuvers[i] = m;
                    ++rec.seeded;
                }
            }
        }
        rec.reached = rec.seeded;
        st_.records.push_back(rec);
    }

    // What a look found, kept by slot (the look walks the grid in slot order).

    void look(std::size_t i, std::size_t slot, span<const V> pos, span<const V> vel, span<neighbor<S, 3>> buf, double t,
              S& reach) {
        if (!boids::is_finite(pos[i]) || !boids::is_finite(vel[i])) {
            st_.seen_by_slot[slot] = seen{};  // saw nothing: no stale look is left in the slot
            return;
        }
        k_nearest<S, 3> knn(buf, st_.settings.candidates);
        // The previous look's farthest candidate, a little wider, as the radius to try first.
        st_.grid.nearest_in_slot(slot, knn, std::numeric_limits<S>::infinity(), reach * S(1.08));
        const auto found = knn.result();
        const std::size_t k = st_.settings.k, fade = st_.settings.social_fade;
        const std::size_t social = std::min(k, found.size());
        V vsum = boids::zero<V>(), osum = boids::zero<V>(), push = boids::zero<V>(), coincident = boids::zero<V>();
        bool any_coincident = false;
        const separation<V> sep{st_.settings.separation_radius, separation_falloff::linear, st_.settings.separation,
                                st_.settings.seed};
        const S ahead = st_.settings.separation_ahead;
        const bool blind = st_.settings.rear_blind_angle > S(0);
        const V heading = ahead == S(1) && !blind ? boids::zero<V>() : boids::normalized_or_zero(vel[i]);
        // Behind the bird, within half the blind angle of straight back, nobody is seen.
        const S blind_cos = std::cos(st_.settings.rear_blind_angle * S(0.5));
        S weights = 0;
        std::size_t seen_count = 0;  // social neighbours outside the blind sector so far
        for (std::size_t j = 0; j < found.size(); ++j) {
            const auto& nb = found[j];
            if (st_.finite[nb.index] == 0) continue;
            std::size_t rank = j;
            if (blind) {  // ranked among the candidates outside the blind sector instead
                rank = boids::detail::starling_behind(nb, heading, blind_cos) ? k + fade : seen_count;
                seen_count += rank < k + fade ? 1 : 0;
            }
            const S w = boids::detail::starling_social_weight<S>(rank, k, fade);
            if (w > S(0)) {
                vsum = boids::add_scaled(vsum, vel[nb.index], w);
                osum = boids::add_scaled(osum, detail::to_vector<V>(nb.offset), w);
                weights += w;
            }
            if (ahead == S(1) || nb.distance_squared == S(0)) sep.add(i, nb, push, coincident, any_coincident);
            else boids::detail::starling_push_ahead(nb, heading, ahead, st_.settings.separation_radius, push);
        }
        seen& out = st_.seen_by_slot[slot];
        out.mean_velocity = weights > S(0) ? boids::scale(vsum, S(1) / weights) : vel[i];
        out.cohesion = weights > S(0) ? boids::scale(osum, S(1) / weights) : boids::zero<V>();
        if (st_.settings.border_cohesion > S(0) && !found.empty())
            out.cohesion = boids::scale(
                out.cohesion, S(1) + st_.settings.border_cohesion * boids::detail::starling_border_side<V>(found));
        out.separation = boids::scale(boids::add(push, coincident), st_.settings.separation);
        out.nearest = found.empty() ? std::numeric_limits<S>::infinity() : std::sqrt(found[0].distance_squared);
        out.farthest = found.empty() ? S(0) : std::sqrt(found[found.size() - 1].distance_squared);
        reach = out.farthest;
        // Copy the strongest active manoeuvre among the social neighbours (reading a
        // byte per neighbour first: most of the time nobody is manoeuvring).
        if (!st_.any_active) return;
        bool near_active = false;
        for (std::size_t j = 0; j < social; ++j) near_active = near_active || st_.active[found[j].index] != 0;
        if (!near_active) return;
        const auto near = found.subspan(0, social);
        const maneuver* src = copy_rule::strongest_active(
            near, [&](const neighbor<S, 3>& nb) -> const maneuver& { return st_.maneuvers[nb.index]; }, t);
        if (src != nullptr && st_.settings.copying.may_copy(st_.maneuvers[i], src->disturbance, t)) {
            const double delay = st_.rng[i].uniform(st_.settings.copying.min_delay, st_.settings.copying.max_delay);
            st_.copies[i] = st_.settings.copying.copy_of(*src, t, delay);
        }
    }

    void fly(std::size_t i, V& x, V& v, double t, const typename banking_flight<S>::factors& f) {
        if (!boids::is_finite(x) || !boids::is_finite(v)) return;
        const maneuver& m = st_.maneuvers[i];
        const S e = static_cast<S>(m.level(t));
        V target = boids::zero<V>(), reflex = boids::zero<V>();
        if (st_.looked[i]) {
            const seen& o = st_.social[i];
            const S w = S(1) - st_.settings.social_drop * e;
            const V social = boids::add(boids::scale(boids::sub(o.mean_velocity, v), st_.settings.alignment),
                                        boids::scale(o.cohesion, st_.settings.cohesion));
            target = boids::scale(social, w);
            if (st_.settings.separation_reflex) reflex = o.separation;
            else target = boids::add(target, o.separation);
        }
        const V roost = roost_centre();
        const S dxr = boids::get(x, 0) - boids::get(roost, 0), dzr = boids::get(x, 2) - boids::get(roost, 2);
        const bool back =
            starling::returning(st_.returning[i] != 0, static_cast<double>(std::sqrt(dxr * dxr + dzr * dzr)),
                                static_cast<double>(st_.roost_radius));
        st_.returning[i] = back ? 1 : 0;
        const int tie = (hash_combine(st_.settings.seed ^ 0x7135u, i) & 1u) != 0 ? 1 : -1;
        target = boids::add(target, roost_turn(x, v, roost, st_.settings.roost_gain, back, tie));
        target = boids::add_scaled(
            target, boids::unit_axis<V>(1),
            static_cast<S>(altitude_acceleration(static_cast<double>(boids::get(x, 1)),
                                                 static_cast<double>(boids::get(v, 1)), st_.settings.altitude_pull)));
        target = boids::add(target, st_.noise[i]);
        target = boids::add(target, disturbance_acceleration(m, t, v, st_.settings.lateral, st_.settings.dive));
        st_.settings.flight.advance(v, target, st_.flight[i], f, reflex);
        x = boids::add_scaled(x, v, st_.settings.dt);
    }

    flock_state<V> st_;
};

}  // namespace starling
}  // namespace boids
