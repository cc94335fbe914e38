// boids/models/starling_state.hpp - starling::flock's state, as plain data, and its
// snapshot: every field saved and read back exactly (snapshot.hpp), so a flock
// loaded from it steps on bit for bit.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>
#include "../flight.hpp"
#include "../neighbors/uniform_grid.hpp"
#include "../random.hpp"
#include "../snapshot.hpp"
#include "starling_params.hpp"
#include "starling_terms.hpp"

namespace boids {
namespace starling {

// The layout of a starling snapshot's payload (the header's layout field): bumped
// whenever the saved fields change (each_param, each_bird_field, save_state), so
// that a snapshot of another library version is refused as such.
inline constexpr std::uint32_t snapshot_layout = 1;

// A disturbance as it happened: when, how many birds it hit directly, and how many
// performed the manoeuvre in all (those hit, plus every copy).
struct disturbance_record {
    double t = 0;
    std::size_t seeded = 0;
    std::size_t reached = 0;
};

// Everything a starling::flock keeps between steps (and the scratch of a step).
template <class V>
struct flock_state {
    using S = scalar_t<V>;

    struct seen {
        V mean_velocity{}, cohesion{}, separation{};
        S nearest = std::numeric_limits<S>::infinity();
        S farthest = 0;
    };

    params<S> settings{};
    std::size_t n = 0, step = 0;
    double time = 0, next_disturbance = 0;
    S size_scale = 0, roost_radius = 0;
    std::vector<flight_state<V>> flight;
    std::vector<V> noise;
    std::vector<seen> social, seen_by_slot;  // what each bird saw, and each slot as the last look wrote it
    std::vector<maneuver> maneuvers, copies;
    std::vector<unsigned char> returning, looked, active, finite;
    bool any_active = false;
    typename ou_noise<V>::factors noise_factors{};
    std::vector<S> nearest;
    S cell = S(1);
    std::vector<random_stream> rng;
    random_stream scene_rng{};
    std::vector<disturbance_record> records;
    uniform_grid<V> grid{};
    std::vector<neighbor<S, 3>> buffers;

    // Every per-bird array at `count` entries: level flight, no noise, nothing seen yet.
    void resize_birds(std::size_t count) {
        flight.assign(count, flight_state<V>{});
        noise.assign(count, boids::zero<V>());
        maneuvers.assign(count, maneuver{});
        copies.assign(count, maneuver{});
        returning.assign(count, 0);
        active.assign(count, 0);
        finite.assign(count, 0);
        looked.assign(count, 0);
        social.assign(count, seen{});
        seen_by_slot.assign(count, seen{});
        nearest.assign(count, std::numeric_limits<S>::infinity());
        rng.assign(count, random_stream{});
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
        f(p.seed), f(p.separation_ahead), f(p.scheduled_disturbances), f(p.border_cohesion), f(p.rear_blind_angle);
        f(p.social_fade), f(p.altitude_pull);
    }
    // Bird i's state that lasts from one step to the next, field by field (save and load).
    template <class Flock, class F>
    static void each_bird_field(Flock& fl, std::size_t i, F&& f) {
        auto& fs = fl.flight[i];
        f(fs.turn), f(fs.bank), f(fs.lift), f(fl.noise[i]);
        auto& o = fl.social[i];
        f(o.mean_velocity), f(o.cohesion), f(o.separation), f(o.nearest), f(o.farthest);
        auto& m = fl.maneuvers[i];
        f(m.disturbance), f(m.start), f(m.duration), f(m.amplitude), f(m.turn), f(m.dive);
        f(fl.returning[i]), f(fl.looked[i]), f(fl.nearest[i]), f(fl.rng[i]);
    }
};

// The whole state, parameters included, appended to `out` as a snapshot (snapshot.hpp);
// with `birds`, the birds' positions and velocities too (st.n each; none for a flock of
// no birds, whose pointers may then be null), in the same snapshot.
template <class V>
void save_state(const flock_state<V>& st, std::vector<unsigned char>& out, bool birds = false,
                const V* positions = nullptr, const V* velocities = nullptr) {
    using S = scalar_t<V>;
    snapshot_writer w(out);
    w.begin(birds ? snapshot_kind::starling_flock_with_birds : snapshot_kind::starling_flock, sizeof(S), 3, st.n,
            snapshot_layout);
    auto put = [&w](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::size_t>) w.put(static_cast<std::uint64_t>(x));
        else w.put(x);
    };
    flock_state<V>::each_param(st.settings, put);
    put(st.step);
    put(st.time);
    put(st.next_disturbance);
    put(st.size_scale);
    put(st.roost_radius);
    put(st.cell);
    put(st.grid.cell_size());
    put(st.scene_rng);
    for (std::size_t i = 0; i < st.n; ++i) flock_state<V>::each_bird_field(st, i, put);
    put(st.records.size());
    for (const disturbance_record& r : st.records) {
        put(r.t);
        put(r.seeded);
        put(r.reached);
    }
    if (birds)
        for (std::size_t i = 0; i < st.n; ++i) {
            w.put(positions[i]);
            w.put(velocities[i]);
        }
    w.finish();
}

// Replaces `into` by the state saved in `bytes`, or refuses them (naming why) and
// leaves it as it was.
// With `birds` (positions and velocities to fill), the snapshot must hold them
// (save_state with the birds); they are replaced only when the whole load succeeds.
// With `used`, bytes past the snapshot are allowed (the next one of a file that holds
// several) and *used receives the bytes it took.
template <class V>
validation load_state(flock_state<V>& into, span<const unsigned char> bytes,
                      std::pair<std::vector<V>*, std::vector<V>*> birds = {}, std::size_t* used = nullptr) {
    using S = scalar_t<V>;
    const bool with_birds = birds.first != nullptr && birds.second != nullptr;
    snapshot_reader r(bytes);
    std::uint64_t count = 0;
    if (const validation v =
            r.open(with_birds ? snapshot_kind::starling_flock_with_birds : snapshot_kind::starling_flock, sizeof(S), 3,
                   count, used != nullptr);
        !v)
        return v;
    if (r.layout() != snapshot_layout)
        return {"layout", "saved by another version of the library, whose flock has other fields"};
    if (count > r.left()) return {"count", "more birds than the payload can hold"};
    flock_state<V> f;
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
    flock_state<V>::each_param(f.settings, get);
    if (!r.ok()) return r.error();
    if (const validation v = f.settings.validate(); !v) return v;
    S grid_cell = 0;
    get(f.step);
    get(f.time);
    get(f.next_disturbance);
    get(f.size_scale);
    get(f.roost_radius);
    get(f.cell);
    get(grid_cell);
    get(f.scene_rng);
    auto positive = [](S x) { return std::isfinite(x) && x > S(0); };
    r.require(std::isfinite(f.time) && std::isfinite(f.next_disturbance), "time", "must be finite");
    r.require(positive(f.size_scale) && positive(f.roost_radius), "size_scale/roost_radius", "must be finite and > 0");
    r.require(positive(f.cell) && positive(grid_cell), "cell size", "must be finite and > 0");
    if (!r.ok()) return r.error();
    f.n = static_cast<std::size_t>(count);
    f.resize_birds(f.n);
    for (std::size_t i = 0; i < f.n && r.ok(); ++i) {
        flock_state<V>::each_bird_field(f, i, get);
        const maneuver& m = f.maneuvers[i];
        r.require((m.turn == 1 || m.turn == -1) && std::isfinite(m.start) && std::isfinite(m.duration) &&
                      std::isfinite(m.amplitude),
                  "maneuver", "out of range");
        r.require(f.returning[i] <= 1 && f.looked[i] <= 1, "payload", "a flag that is neither 0 nor 1");
    }
    std::size_t records = 0;
    get(records);
    r.require(records <= r.left(), "disturbances", "more than the payload can hold");
    if (!r.ok()) return r.error();
    f.records.resize(records);
    for (disturbance_record& rec : f.records) {
        get(rec.t);
        get(rec.seeded);
        get(rec.reached);
    }
    for (std::size_t i = 0; i < f.n && r.ok(); ++i)
        r.require(f.maneuvers[i].disturbance <= f.records.size(), "maneuver",
                  "names a disturbance that never happened");
    std::vector<V> positions, velocities;
    if (with_birds) {
        r.require(f.n <= r.left(), "birds", "more than the payload can hold");
        if (!r.ok()) return r.error();
        positions.resize(f.n);
        velocities.resize(f.n);
        for (std::size_t i = 0; i < f.n; ++i) {
            r.get(positions[i]);
            r.get(velocities[i]);
        }
    }
    if (const validation v = r.done(); !v) return v;
    if (used != nullptr) *used = r.used();
    if (with_birds) {
        *birds.first = std::move(positions);
        *birds.second = std::move(velocities);
    }
    f.records.reserve(std::max<std::size_t>(64, 2 * f.records.size()));
    f.grid = uniform_grid<V>(world_for<V>{}, grid_cell);
    into = std::move(f);
    return {};
}

}  // namespace starling
}  // namespace boids
