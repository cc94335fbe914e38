// boids/models/starling.hpp - the starling model of "The physics of a flock" (3D,
// y up, metres and seconds), built from the library's parts: the k nearest of the
// 24 nearest candidates (uniform_grid), linear separation (flocking.hpp), the
// banking flight model (flight.hpp), and the model's own terms (starling_terms.hpp:
// roost, altitude band, correlated noise and disturbance waves that spread bird to
// bird) with its parameters (starling_params.hpp).
//
// The pieces are free functions and small structs; starling::flock assembles them
// into one step over the user's position and velocity arrays. Setting up a scene
// (where the cloud starts, what to measure) is left to the caller: see
// examples/lab/starlings.hpp.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>
#include "../executor.hpp"
#include "../flight.hpp"
#include "../flocking.hpp"
#include "../neighbors/uniform_grid.hpp"
#include "../random.hpp"
#include "../snapshot.hpp"
#include "../vector.hpp"
#include "starling_params.hpp"
#include "starling_terms.hpp"

namespace boids {
namespace starling {

// A disturbance as it happened: when, how many birds it hit directly, and how many
// performed the manoeuvre in all (those hit, plus every copy).
struct disturbance_record {
    double t = 0;
    std::size_t seeded = 0;
    std::size_t reached = 0;
};

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
        params_ = p;
        n_ = birds;
        step_ = 0;
        time_ = 0;
        size_scale_ = static_cast<S>(starling::size_scale(static_cast<double>(birds)));
        roost_radius_ = static_cast<S>(starling::roost_radius(static_cast<double>(birds)));
        resize_birds(birds);
        std::fill(flight_.begin(), flight_.end(), flight_state<V>::level(p.flight.gravity));
        for (std::size_t i = 0; i < birds; ++i) rng_[i] = random_stream(hash_combine(p.seed, i));
        scene_rng_ = random_stream(hash_combine(p.seed, 0xD157u));
        next_disturbance_ = static_cast<double>(p.disturbance_first);
        records_.clear();
        records_.reserve(64);  // a disturbance every 16-28 s: half an hour before it grows
        // The grid's cells start at about the candidates' reach in a cloud of size E,
        // then follow it: they affect speed only, never which neighbours are found.
        cell_ = static_cast<S>(std::max(0.05, 0.8 * static_cast<double>(size_scale_) *
                                                  std::cbrt(static_cast<double>(p.candidates) / static_cast<double>(std::max<std::size_t>(birds, 1)))));
        grid_ = uniform_grid<V>(world_for<V>{}, cell_);
        return valid;
    }

    [[nodiscard]] const params<S>& parameters() const noexcept { return params_; }
    // Parameters that may change between steps (gains, speeds, the flight model).
    // Changing k, candidates or the seed needs reset().
    params<S>& tune() noexcept { return params_; }

    [[nodiscard]] double time() const noexcept { return time_; }
    [[nodiscard]] std::size_t steps() const noexcept { return step_; }
    [[nodiscard]] S size_scale() const noexcept { return size_scale_; }
    [[nodiscard]] S roost_radius() const noexcept { return roost_radius_; }
    [[nodiscard]] V roost_centre() const noexcept {
        return boids::generate<V>([&](std::size_t i) { return i == 0 ? params_.roost_x : (i == 1 ? params_.roost_y : params_.roost_z); });
    }
    [[nodiscard]] span<const disturbance_record> disturbances() const noexcept { return {records_.data(), records_.size()}; }
    [[nodiscard]] span<const maneuver> maneuvers() const noexcept { return {maneuvers_.data(), maneuvers_.size()}; }
    [[nodiscard]] span<const flight_state<V>> flight() const noexcept { return {flight_.data(), flight_.size()}; }
    // The distance to each bird's nearest neighbour when it last looked (inf: never, or alone).
    [[nodiscard]] span<const S> nearest_distances() const noexcept { return {nearest_.data(), nearest_.size()}; }
    [[nodiscard]] bool is_returning(std::size_t i) const noexcept { return returning_[i] != 0; }

    // The whole state, parameters included, appended to `out` as a snapshot
    // (snapshot.hpp). A flock loaded from it and stepped over the same positions and
    // velocities gives the same bits as this one. (A plain copy does too.)
    void save(std::vector<unsigned char>& out) const {
        snapshot_writer w(out);
        w.begin(snapshot_kind::starling_flock, sizeof(S), 3, n_);
        auto put = [&w](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::size_t>) w.put(static_cast<std::uint64_t>(x));
            else w.put(x);
        };
        each_param(params_, put);
        put(step_);
        put(time_);
        put(next_disturbance_);
        put(size_scale_);
        put(roost_radius_);
        put(cell_);
        put(grid_.cell_size());
        put(scene_rng_);
        for (std::size_t i = 0; i < n_; ++i) each_bird_field(*this, i, put);
        put(records_.size());
        for (const disturbance_record& r : records_) {
            put(r.t);
            put(r.seeded);
            put(r.reached);
        }
        w.finish();
    }

    // Replaces this flock by the one saved in `bytes`. A wrong, truncated or corrupt
    // buffer (or one holding invalid parameters) is refused with a validation that
    // names what is wrong, and this flock is left as it was.
    validation load(span<const unsigned char> bytes) {
        snapshot_reader r(bytes);
        std::uint64_t count = 0;
        if (const validation v = r.open(snapshot_kind::starling_flock, sizeof(S), 3, count); !v) return v;
        if (count > r.left()) return {"count", "more birds than the payload can hold"};
        flock f;
        auto get = [&r](auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::size_t>) {
                std::uint64_t u = 0;
                r.get(u);
                r.require(u <= std::numeric_limits<std::size_t>::max(), "payload", "a count too large for this machine");
                x = static_cast<std::size_t>(u);
            } else {
                r.get(x);
            }
        };
        each_param(f.params_, get);
        if (!r.ok()) return r.error();
        if (const validation v = f.params_.validate(); !v) return v;
        S grid_cell = 0;
        get(f.step_);
        get(f.time_);
        get(f.next_disturbance_);
        get(f.size_scale_);
        get(f.roost_radius_);
        get(f.cell_);
        get(grid_cell);
        get(f.scene_rng_);
        auto positive = [](S x) { return std::isfinite(x) && x > S(0); };
        r.require(std::isfinite(f.time_) && std::isfinite(f.next_disturbance_), "time", "must be finite");
        r.require(positive(f.size_scale_) && positive(f.roost_radius_), "size_scale/roost_radius", "must be finite and > 0");
        r.require(positive(f.cell_) && positive(grid_cell), "cell size", "must be finite and > 0");
        if (!r.ok()) return r.error();
        f.n_ = static_cast<std::size_t>(count);
        f.resize_birds(f.n_);
        for (std::size_t i = 0; i < f.n_ && r.ok(); ++i) {
            each_bird_field(f, i, get);
            const maneuver& m = f.maneuvers_[i];
            r.require((m.turn == 1 || m.turn == -1) && std::isfinite(m.start) && std::isfinite(m.duration) &&
                          std::isfinite(m.amplitude), "maneuver", "out of range");
            r.require(f.returning_[i] <= 1 && f.looked_[i] <= 1, "payload", "a flag that is neither 0 nor 1");
        }
        std::size_t records = 0;
        get(records);
        r.require(records <= r.left(), "disturbances", "more than the payload can hold");
        if (!r.ok()) return r.error();
        f.records_.resize(records);
        for (disturbance_record& rec : f.records_) {
            get(rec.t);
            get(rec.seeded);
            get(rec.reached);
        }
        for (std::size_t i = 0; i < f.n_ && r.ok(); ++i)
            r.require(f.maneuvers_[i].disturbance <= f.records_.size(), "maneuver", "names a disturbance that never happened");
        if (const validation v = r.done(); !v) return v;
        f.records_.reserve(std::max<std::size_t>(64, 2 * f.records_.size()));
        f.grid_ = uniform_grid<V>(world_for<V>{}, grid_cell);
        *this = std::move(f);
        return {};
    }

    template <class Executor = sequential>
    void step(span<V> positions, span<V> velocities, Executor&& executor = {}) {
        BOIDS_ASSERT(positions.size() == n_ && velocities.size() == n_, "starling::flock::step: arrays must hold as many birds as reset() was given");
        if (positions.size() != n_ || velocities.size() != n_) return;  // not this flock's arrays: nothing moves
        const std::size_t n = n_;
        const double t = time_;
        const span<const V> pos(positions.data(), n);
        const span<const V> vel(velocities.data(), n);
        start_disturbance(pos, vel, t);

        const std::size_t every = params_.perception_every;
        noise_factors_ = ou_noise<V>{params_.noise_time, params_.noise}.factors_for(params_.dt * static_cast<S>(every));
        // Who is manoeuvring now, a byte per bird, so a look reads little.
        // and whose state is finite (the others are not seen), a byte per bird.
        any_active_ = false;
        for (std::size_t i = 0; i < n; ++i) {
            active_[i] = maneuvers_[i].active(t) ? 1 : 0;
            any_active_ = any_active_ || active_[i] != 0;
            finite_[i] = boids::is_finite(pos[i]) && boids::is_finite(vel[i]) ? 1 : 0;
        }
        grid_.build(pos);
        const std::size_t tasks = detail::task_count(n, 512, executor);
        buffers_.resize(tasks * params_.candidates);
        const auto order = grid_.order();
        executor(tasks, [&](std::size_t task) {  // look, in cell order, at the old state
            const std::size_t b = n * task / tasks, e = n * (task + 1) / tasks;
            span<neighbor<S, 3>> buf(buffers_.data() + task * params_.candidates, params_.candidates);
            S reach = 0;  // the last look's farthest candidate: its neighbour's is alike
            for (std::size_t s = b; s < e; ++s) {
                const std::size_t i = order[s];
                if ((step_ + i) % every != 0) continue;
                look(i, s, pos, vel, buf, t, reach);
            }
        });
        // Copies take effect now that everyone has looked; count who was reached.
        double reach_sum = 0;
        std::size_t reach_count = 0;
        for (std::size_t s = 0; s < n; ++s) {
            if (seen_[s].farthest > S(0) && (step_ + order[s]) % every == 0) {
                reach_sum += static_cast<double>(seen_[s].farthest);
                ++reach_count;
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (copies_[i].disturbance == 0) continue;
            maneuvers_[i] = copies_[i];
            if (copies_[i].disturbance <= records_.size()) ++records_[copies_[i].disturbance - 1].reached;
            copies_[i].disturbance = 0;
        }
        if (reach_count > 0) {  // cells a little wider than the candidates' mean reach: fewest rows per query
            const double cell = 1.2 * reach_sum / static_cast<double>(reach_count);
            if (std::isfinite(cell) && cell > 1e-3) grid_.set_cell_size(static_cast<S>(cell));
        }
        const auto factors = params_.flight.factors_for(params_.dt);
        executor(tasks, [&](std::size_t task) {  // then every bird flies
            const std::size_t b = n * task / tasks, e = n * (task + 1) / tasks;
            for (std::size_t i = b; i < e; ++i) {
                if ((step_ + i) % every == 0 && boids::is_finite(positions[i]) && boids::is_finite(velocities[i])) {
                    // What it saw (stored by slot, written in order), and new noise.
                    social_[i] = seen_[grid_.slot_of(i)];
                    nearest_[i] = social_[i].nearest;
                    looked_[i] = 1;
                    ou_noise<V>{params_.noise_time, params_.noise}.advance(noise_[i], rng_[i], noise_factors_);
                }
                fly(i, positions[i], velocities[i], t, factors);
            }
        });
        ++step_;
        time_ = static_cast<double>(step_) * static_cast<double>(params_.dt);
    }

private:
    // Every per-bird array at n entries: level flight, no noise, nothing seen yet.
    void resize_birds(std::size_t n) {
        flight_.assign(n, flight_state<V>{});
        noise_.assign(n, boids::zero<V>());
        maneuvers_.assign(n, maneuver{});
        copies_.assign(n, maneuver{});
        returning_.assign(n, 0);
        active_.assign(n, 0);
        finite_.assign(n, 0);
        looked_.assign(n, 0);
        social_.assign(n, seen{});
        seen_.assign(n, seen{});
        nearest_.assign(n, std::numeric_limits<S>::infinity());
        rng_.assign(n, random_stream{});
    }

    // The parameters, field by field, in the snapshot's order (save and load).
    template <class P, class F>
    static void each_param(P& p, F&& f) {
        f(p.dt), f(p.k), f(p.candidates), f(p.perception_every), f(p.alignment), f(p.cohesion), f(p.separation);
        f(p.separation_radius), f(p.separation_reflex), f(p.noise), f(p.noise_time), f(p.roost_gain);
        f(p.roost_x), f(p.roost_y), f(p.roost_z), f(p.disturbance_first), f(p.disturbance_min_gap);
        f(p.disturbance_max_gap), f(p.patch_min_radius), f(p.patch_scale), f(p.pulse_min), f(p.pulse_max);
        f(p.pulse_min_time), f(p.pulse_max_time), f(p.dive_chance), f(p.lateral), f(p.dive), f(p.social_drop);
        f(p.copying.min_delay), f(p.copying.max_delay), f(p.copying.fraction), f(p.copying.min_amplitude);
        f(p.copying.refractory);
        auto& b = p.flight;
        f(b.preferred_speed), f(b.max_acceleration), f(b.response_time), f(b.pitch_limit), f(b.pitch_stiffness);
        f(b.max_bank), f(b.max_lift_g), f(b.roll_in_time), f(b.roll_out_time), f(b.lift_time), f(b.speed_time);
        f(b.max_speed_change), f(b.min_speed_fraction), f(b.max_speed_fraction), f(b.gravity);
        f(p.seed);
    }
    // Bird i's state that lasts from one step to the next, field by field (save and load).
    template <class Flock, class F>
    static void each_bird_field(Flock& fl, std::size_t i, F&& f) {
        auto& fs = fl.flight_[i];
        f(fs.turn), f(fs.bank), f(fs.lift), f(fl.noise_[i]);
        auto& o = fl.social_[i];
        f(o.mean_velocity), f(o.cohesion), f(o.separation), f(o.nearest), f(o.farthest);
        auto& m = fl.maneuvers_[i];
        f(m.disturbance), f(m.start), f(m.duration), f(m.amplitude), f(m.turn), f(m.dive);
        f(fl.returning_[i]), f(fl.looked_[i]), f(fl.nearest_[i]), f(fl.rng_[i]);
    }

    void start_disturbance(span<const V> pos, span<const V> vel, double t) {
        if (n_ == 0 || t < next_disturbance_) return;
        next_disturbance_ = t + scene_rng_.uniform(static_cast<double>(params_.disturbance_min_gap), static_cast<double>(params_.disturbance_max_gap));
        // The edge patch: the bird farthest out along a random horizontal direction,
        // and every bird within max(2 m, 0.42 E) of it.
        const double angle = 6.283185307179586 * scene_rng_.uniform();
        const double dx = std::cos(angle), dz = std::sin(angle);
        double cx = 0, cz = 0;
        std::size_t finite = 0;
        for (std::size_t i = 0; i < n_; ++i)
            if (boids::is_finite(pos[i])) {
                cx += static_cast<double>(boids::get(pos[i], 0));
                cz += static_cast<double>(boids::get(pos[i], 2));
                ++finite;
            }
        maneuver m;
        m.disturbance = static_cast<std::uint32_t>(records_.size() + 1);
        m.start = t;
        m.amplitude = scene_rng_.uniform(static_cast<double>(params_.pulse_min), static_cast<double>(params_.pulse_max));
        m.duration = scene_rng_.uniform(static_cast<double>(params_.pulse_min_time), static_cast<double>(params_.pulse_max_time));
        m.turn = scene_rng_.uniform() < 0.5 ? 1 : -1;
        m.dive = scene_rng_.uniform() < static_cast<double>(params_.dive_chance);
        disturbance_record rec;
        rec.t = t;
        if (finite > 0) {
            cx /= static_cast<double>(finite);
            cz /= static_cast<double>(finite);
            std::size_t edge = n_;
            double best = -std::numeric_limits<double>::infinity();
            for (std::size_t i = 0; i < n_; ++i) {
                if (!boids::is_finite(pos[i]) || !boids::is_finite(vel[i])) continue;
                const double along = (static_cast<double>(boids::get(pos[i], 0)) - cx) * dx + (static_cast<double>(boids::get(pos[i], 2)) - cz) * dz;
                if (along > best) {
                    best = along;
                    edge = i;
                }
            }
            const S radius = std::max(params_.patch_min_radius, params_.patch_scale * size_scale_);
            for (std::size_t i = 0; edge < n_ && i < n_; ++i) {
                if (boids::distance_squared(pos[i], pos[edge]) <= radius * radius) {
                    maneuvers_[i] = m;
                    ++rec.seeded;
                }
            }
        }
        rec.reached = rec.seeded;
        records_.push_back(rec);
    }

    // What a look found, kept by slot (the look walks the grid in slot order).
    struct seen {
        V mean_velocity{}, cohesion{}, separation{};
        S nearest = std::numeric_limits<S>::infinity();
        S farthest = 0;
    };

    void look(std::size_t i, std::size_t slot, span<const V> pos, span<const V> vel, span<neighbor<S, 3>> buf, double t,
              S& reach) {
        if (!boids::is_finite(pos[i]) || !boids::is_finite(vel[i])) {
            seen_[slot] = seen{};  // saw nothing: no stale look is left in the slot
            return;
        }
        k_nearest<S, 3> knn(buf, params_.candidates);
        // The previous look's farthest candidate, a little wider, as the radius to try first.
        grid_.nearest_in_slot(slot, knn, std::numeric_limits<S>::infinity(), reach * S(1.08));
        const auto found = knn.result();
        const std::size_t social = std::min(params_.k, found.size());
        V vsum = boids::zero<V>(), osum = boids::zero<V>(), push = boids::zero<V>(), coincident = boids::zero<V>();
        bool any_coincident = false;
        const separation<V> sep{params_.separation_radius, separation_falloff::linear, params_.separation, params_.seed};
        std::size_t counted = 0;
        for (std::size_t j = 0; j < found.size(); ++j) {
            const auto& nb = found[j];
            if (finite_[nb.index] == 0) continue;
            if (j < social) {
                vsum = boids::add(vsum, vel[nb.index]);
                osum = boids::add(osum, detail::to_vector<V>(nb.offset));
                ++counted;
            }
            sep.add(i, nb, push, coincident, any_coincident);
        }
        seen& out = seen_[slot];
        out.mean_velocity = counted > 0 ? boids::scale(vsum, S(1) / static_cast<S>(counted)) : vel[i];
        out.cohesion = counted > 0 ? boids::scale(osum, S(1) / static_cast<S>(counted)) : boids::zero<V>();
        out.separation = boids::scale(boids::add(push, coincident), params_.separation);
        out.nearest = found.empty() ? std::numeric_limits<S>::infinity() : std::sqrt(found[0].distance_squared);
        out.farthest = found.empty() ? S(0) : std::sqrt(found[found.size() - 1].distance_squared);
        reach = out.farthest;
        // Copy the strongest active manoeuvre among the social neighbours (reading a
        // byte per neighbour first: most of the time nobody is manoeuvring).
        if (!any_active_) return;
        bool near_active = false;
        for (std::size_t j = 0; j < social; ++j) near_active = near_active || active_[found[j].index] != 0;
        if (!near_active) return;
        const auto near = found.subspan(0, social);
        const maneuver* src = copy_rule::strongest_active(near, [&](const neighbor<S, 3>& nb) -> const maneuver& { return maneuvers_[nb.index]; }, t);
        if (src != nullptr && params_.copying.may_copy(maneuvers_[i], src->disturbance, t)) {
            const double delay = rng_[i].uniform(params_.copying.min_delay, params_.copying.max_delay);
            copies_[i] = params_.copying.copy_of(*src, t, delay);
        }
    }

    void fly(std::size_t i, V& x, V& v, double t, const typename banking_flight<S>::factors& f) {
        if (!boids::is_finite(x) || !boids::is_finite(v)) return;
        const maneuver& m = maneuvers_[i];
        const S e = static_cast<S>(m.level(t));
        V target = boids::zero<V>(), reflex = boids::zero<V>();
        if (looked_[i]) {
            const seen& o = social_[i];
            const S w = S(1) - params_.social_drop * e;
            const V social = boids::add(boids::scale(boids::sub(o.mean_velocity, v), params_.alignment),
                                        boids::scale(o.cohesion, params_.cohesion));
            target = boids::scale(social, w);
            if (params_.separation_reflex) reflex = o.separation;
            else target = boids::add(target, o.separation);
        }
        const V roost = roost_centre();
        const S dxr = boids::get(x, 0) - boids::get(roost, 0), dzr = boids::get(x, 2) - boids::get(roost, 2);
        const bool back = starling::returning(returning_[i] != 0, static_cast<double>(std::sqrt(dxr * dxr + dzr * dzr)),
                                              static_cast<double>(roost_radius_));
        returning_[i] = back ? 1 : 0;
        const int tie = (hash_combine(params_.seed ^ 0x7135u, i) & 1u) != 0 ? 1 : -1;
        target = boids::add(target, roost_turn(x, v, roost, params_.roost_gain, back, tie));
        target = boids::add_scaled(target, boids::unit_axis<V>(1),
                                   static_cast<S>(altitude_acceleration(static_cast<double>(boids::get(x, 1)), static_cast<double>(boids::get(v, 1)))));
        target = boids::add(target, noise_[i]);
        target = boids::add(target, disturbance_acceleration(m, t, v, params_.lateral, params_.dive));
        params_.flight.advance(v, target, flight_[i], f, reflex);
        x = boids::add_scaled(x, v, params_.dt);
    }

    params<S> params_{};
    std::size_t n_ = 0, step_ = 0;
    double time_ = 0, next_disturbance_ = 0;
    S size_scale_ = 0, roost_radius_ = 0;
    std::vector<flight_state<V>> flight_;
    std::vector<V> noise_;
    std::vector<seen> social_, seen_;  // by bird, and by slot as the last look wrote it
    std::vector<maneuver> maneuvers_, copies_;
    std::vector<unsigned char> returning_, looked_, active_, finite_;
    bool any_active_ = false;
    typename ou_noise<V>::factors noise_factors_{};
    std::vector<S> nearest_;
    S cell_ = S(1);
    std::vector<random_stream> rng_;
    random_stream scene_rng_{};
    std::vector<disturbance_record> records_;
    uniform_grid<V> grid_{};
    std::vector<neighbor<S, 3>> buffers_;
};

} // namespace starling
} // namespace boids
