// starling_measure.hpp - `boids-lab starlings --measure=FILE.json`: the field
// studies' measures (boids/models/starling_measures.hpp) taken every second from
// 10 s (--measure-from) and averaged, and with --turn-at, how the turn crossed the flock.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include <boids/models/starling.hpp>
#include <boids/models/starling_measures.hpp>

namespace lab {

template <class V>
struct starling_measurement {
    static constexpr std::size_t ranks = 20, bins = 64;
    double first = 10, every = 1, next = 10;  // s (first and next: --measure-from)
    std::size_t snapshots = 0, anisotropy_snapshots = 0;
    std::vector<double> gamma = std::vector<double>(ranks, 0.0), rank_distance = std::vector<double>(ranks, 0.0);
    std::vector<double> speed_c = std::vector<double>(bins, 0.0), direction_c = std::vector<double>(bins, 0.0);
    double interior = 0, nearest = 0, size = 0, xi_speed = 0, xi_direction = 0;
    // The turn: requested at turn_at (< 0: none), started on first_bird at turn_time.
    double turn_at = -1, turn_time = -1;
    std::size_t first_bird = 0;
    boids::starling::turn_tracker<V> turn;

    // After every step of the run.
    void after_step(boids::starling::flock<V>& f, const std::vector<V>& p, const std::vector<V>& v) {
        const double t = f.time();
        const boids::span<const V> pos(p), vel(v);
        if (turn_time >= 0) turn.observe(vel, t);
        if (turn_at >= 0 && turn_time < 0 && t + 1e-9 >= turn_at && !p.empty()) {
            first_bird = edge_bird(p, v);
            f.start_turn(first_bird, 1);
            turn_time = t;
            turn.start(pos, vel, first_bird, t);
        }
        if (t + 1e-9 < next) return;
        next += every;
        const auto s = boids::starling::neighbour_anisotropy(pos, vel, ranks);
        if (s.gamma.size() == ranks) {
            for (std::size_t r = 0; r < ranks; ++r) {
                gamma[r] += s.gamma[r];
                rank_distance[r] += s.rank_distance[r];
            }
            interior += static_cast<double>(s.interior);
            ++anisotropy_snapshots;
        }
        const auto c = boids::starling::correlations(pos, vel, bins);
        for (std::size_t b = 0; b < bins && c.speed.size() == bins; ++b) {
            speed_c[b] += c.speed[b];
            direction_c[b] += c.direction[b];
        }
        nearest += s.nearest_mean;
        size += c.size;
        xi_speed += c.xi_speed;
        xi_direction += c.xi_direction;
        ++snapshots;
    }

    // The bird farthest out to the flock's left (horizontally, across its mean heading).
    static std::size_t edge_bird(const std::vector<V>& p, const std::vector<V>& v) {
        double hx = 0, hz = 0;
        for (const V& u : v) {
            hx += static_cast<double>(boids::get(u, 0));
            hz += static_cast<double>(boids::get(u, 2));
        }
        const double len = std::hypot(hx, hz);
        const double lx = len > 0 ? hz / len : 1, lz = len > 0 ? -hx / len : 0;  // y x h
        std::size_t best = 0;
        for (std::size_t i = 1; i < p.size(); ++i)
            if (static_cast<double>(boids::get(p[i], 0)) * lx + static_cast<double>(boids::get(p[i], 2)) * lz >
                static_cast<double>(boids::get(p[best], 0)) * lx + static_cast<double>(boids::get(p[best], 2)) * lz)
                best = i;
        return best;
    }

    [[nodiscard]] std::string json(const std::string& scene, const std::string& model, std::size_t birds,
                                   std::uint64_t seed) const {
        auto num = [](double x) {
            if (!std::isfinite(x)) return std::string("null");
            char b[32];
            std::snprintf(b, sizeof b, "%.6g", x);
            return std::string(b);
        };
        auto list = [&](const std::vector<double>& a, double scale) {
            std::string s = "[";
            for (std::size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + num(a[i] * scale);
            return s + "]";
        };
        const double per = snapshots > 0 ? 1.0 / static_cast<double>(snapshots) : NAN;
        const double per_a = anisotropy_snapshots > 0 ? 1.0 / static_cast<double>(anisotropy_snapshots) : NAN;
        std::vector<double> r(bins);
        for (std::size_t b = 0; b < bins; ++b) r[b] = (static_cast<double>(b) + 0.5) / static_cast<double>(bins);
        std::string out =
            "{\"scene\": \"" + scene + "\", \"model\": \"" + model + "\", \"birds\": " + std::to_string(birds) +
            ", \"seed\": " + std::to_string(seed) + ", \"snapshots\": " + std::to_string(snapshots) +
            ", \"anisotropy_snapshots\": " + std::to_string(anisotropy_snapshots) +
            ", \"interior_mean\": " + num(interior * per_a) + ", \"gamma\": " + list(gamma, per_a) +
            ", \"rank_distance\": " + list(rank_distance, per_a) + ", \"nearest_mean\": " + num(nearest * per) +
            ", \"size_mean\": " + num(size * per) + ", \"xi_speed_mean\": " + num(xi_speed * per) +
            ", \"xi_direction_mean\": " + num(xi_direction * per) +
            ", \"correlation\": {\"r_over_size\": " + list(r, 1) + ", \"speed\": " + list(speed_c, per) +
            ", \"direction\": " + list(direction_c, per) + "}";
        if (turn_time >= 0) {
            const auto s = turn.result();
            std::vector<double> d(turn.distances().begin(), turn.distances().end());
            std::vector<double> a(turn.arrivals().begin(), turn.arrivals().end());
            out += ", \"turn\": {\"at\": " + num(turn_time) + ", \"first_bird\": " + std::to_string(first_bird) +
                   ", \"birds\": " + std::to_string(s.birds) + ", \"reached\": " + std::to_string(s.reached) +
                   ", \"speed\": " + num(s.speed) + ", \"r2\": " + num(s.r2) + ", \"delay\": " + num(s.delay) +
                   ", \"far_distance\": " + num(s.far_distance) +
                   ", \"farthest\": " + num(d.empty() ? NAN : *std::max_element(d.begin(), d.end())) +
                   ", \"amplitude_near\": " + num(s.amplitude_near) + ", \"amplitude_far\": " + num(s.amplitude_far) +
                   ", \"distance\": " + list(d, 1) + ", \"arrival\": " + list(a, 1) + "}";
        }
        return out + "}";
    }
};

}  // namespace lab
