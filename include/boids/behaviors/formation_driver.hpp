// boids/behaviors/formation_driver.hpp - a formation that drives itself: it owns its
// anchor (marching toward a waypoint at the pace the stragglers allow, turning within
// angular limits), its slots (laid out to a width, narrowed where the way is narrow),
// who takes which slot (assigned again when the layout changes or the formation has
// turned), and each slot's velocity. Its members are yours: each step, move the
// formation, then steer member i to target(i) with keep_slot and slot_velocity(i).
//
//   boids::formation<vec2> squad(shape, members.size(), start, heading);
//   squad.assign(positions);
//   each step: squad.march(goal, waypoint, worst_error, dt, positions);
//              for each i: preferred[i] = keep_slot<vec2>{squad.target(i), squad.slot_velocity(i), lim}...
//
// 2D: the anchor's heading is an angle (3D formations place slots with place_slots).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>
#include "../span.hpp"
#include "../vector.hpp"
#include "formation.hpp"
#include "orientation.hpp"

namespace boids {

// How the anchor moves: its top speed, its turning, and how far before the waypoint
// it starts to slow. `validate()` names a bad field.
template <class S>
struct formation_march {
    S speed = S(1.2);                                // length/s, the anchor's top speed
    angular_limits<S> turning{S(1), S(2), S(0.15)};  // its turning; max_angular_speed is capped per step (below)
    S member_speed = S(2);                           // length/s: the outermost slot turns at most half this fast
    S reassign_after_turn = S(0.785);                // rad: turned this far since the last assignment, assign again

    [[nodiscard]] validation validate() const noexcept {
        if (!(std::isfinite(speed) && speed >= 0)) return detail::fail("speed", "must be finite and >= 0");
        if (!(std::isfinite(member_speed) && member_speed > 0))
            return detail::fail("member_speed", "must be finite and > 0");
        if (!(turning.reaction_time > 0)) return detail::fail("turning.reaction_time", "must be > 0");
        if (!(reassign_after_turn >= 0)) return detail::fail("reassign_after_turn", "must be >= 0");
        return {};
    }
};

template <class V>
class formation {
public:
    using S = scalar_t<V>;
    static_assert(dimension_v<V> == 2, "boids::formation: 2D (its heading is an angle)");

    formation(const formation_shape<S>& shape, std::size_t members, const V& anchor, S heading,
              const formation_march<S>& march = {})
        : shape_(shape),
          march_(march),
          anchor_(anchor),
          heading_(heading),
          width_(shape.max_width),
          local_(members),
          slot_(members),
          slot_velocity_(members),
          slot_of_(members, unassigned) {
        lay_out();
    }

    // Who takes which slot: each member the slot that makes the sum of squared
    // distances least (assign_slots). Call once the members stand somewhere.
    void assign(span<const V> members) {
        boids::assign_slots(members, span<const V>(slot_), span<std::size_t>(slot_of_), ws_);
        assigned_heading_ = heading_;
    }
    void assign(const std::vector<V>& members) { assign(span<const V>(members)); }

    // The widest the slots may be laid out (infinity: the shape's own max_width). A
    // new width lays the slots out again in ranks that fit (fit_width) and assigns
    // the members again at the next march().
    void set_width(S max_width) {
        const S w = std::min(max_width, shape_.max_width);
        if (w == width_ || (std::isnan(w) && std::isnan(width_))) return;
        width_ = w;
        relaid_ = true;
        lay_out();
    }
    [[nodiscard]] S width() const noexcept { return width_; }

    // One step of the anchor: toward `waypoint` (the goal, or a point on the way to
    // it) at march.speed times the pace the member farthest from its slot allows
    // (formation_pace), slowing within two seconds of `goal`, turning to face the
    // waypoint within the angular limits (and no faster than the outermost slot can
    // follow); then the slots follow, and the members are assigned again when the
    // layout changed or the heading turned past reassign_after_turn. dt = 0 moves
    // nothing.
    void march(const V& goal, const V& waypoint, S worst_error, S dt, span<const V> members) {
        move_anchor(goal, waypoint, worst_error, dt);
        reassign_if_needed(members);
    }
    void march(const V& goal, const V& waypoint, S worst_error, S dt, const std::vector<V>& members) {
        march(goal, waypoint, worst_error, dt, span<const V>(members));
    }
    // march() in two halves, for a width that depends on where the anchor now stands
    // (narrowing before a gap): move_anchor(), set_width(), reassign_if_needed().
    void move_anchor(const V& goal, const V& waypoint, S worst_error, S dt) {
        if (!(dt > 0)) return;
        const S spacing = shape_.spacing;
        const S pace = formation_pace(worst_error, spacing);
        const V to = boids::sub(waypoint, anchor_);
        const S d = boids::length(to), left = boids::distance(goal, anchor_);
        const S speed = march_.speed * pace * std::min(S(1), left / (S(2) * march_.speed));
        anchor_velocity_ = d > S(1e-9) ? boids::scale(to, std::min(speed, d / dt) / d) : boids::zero<V>();
        S reach = spacing;
        for (const V& q : local_) reach = std::max(reach, boids::length(q));
        angular_limits<S> turning = march_.turning;
        turning.max_angular_speed = std::min(turning.max_angular_speed, S(0.5) * march_.member_speed / reach);
        const S a = face<V>{waypoint, turning}(anchor_, anchor_velocity_, heading_, turn_rate_);
        boids::integrate_orientation(heading_, turn_rate_, d > spacing ? a : -turn_rate_ / turning.reaction_time, dt,
                                     turning);
        anchor_ = boids::add_scaled(anchor_, anchor_velocity_, dt);
        lay_out();
    }
    void reassign_if_needed(span<const V> members) {
        if (relaid_ || std::fabs(boids::angle_difference(heading_, assigned_heading_)) > march_.reassign_after_turn) {
            assign(members);
            relaid_ = false;
        }
    }

    // A new shape (spacing, pattern) or march, taken from the next step on.
    void set_shape(const formation_shape<S>& shape) {
        shape_ = shape;
        width_ = shape.max_width;
        relaid_ = true;
        lay_out();
    }
    void set_march(const formation_march<S>& march) noexcept { march_ = march; }
    [[nodiscard]] const formation_march<S>& march_settings() const noexcept { return march_; }

    // Member i's slot in the world, and that slot's velocity: the anchor's velocity
    // plus its turn (omega x r), which a member must match to hold a slot on a turn.
    [[nodiscard]] const V& target(std::size_t member) const noexcept { return slot_[slot_of_[member]]; }
    [[nodiscard]] const V& slot_velocity(std::size_t member) const noexcept { return slot_velocity_[slot_of_[member]]; }
    [[nodiscard]] std::size_t slot_of(std::size_t member) const noexcept { return slot_of_[member]; }

    // How far the members are from their slots: the mean and the worst.
    void errors(span<const V> members, S& mean, S& worst) const noexcept {
        double sum = 0;
        worst = 0;
        for (std::size_t i = 0; i < members.size() && i < slot_of_.size(); ++i) {
            const S e = boids::distance(members[i], target(i));
            sum += static_cast<double>(e);
            worst = std::max(worst, e);
        }
        mean = members.empty() ? S(0) : static_cast<S>(sum / static_cast<double>(members.size()));
    }

    // The slots as they would lie with the anchor where it is and at most `max_width`
    // wide, in the anchor's frame and in the world (to test a layout before taking it).
    void layout_for(S max_width, std::vector<V>& local, std::vector<V>& world) {
        formation_shape<S> s = shape_;
        s.max_width = std::min(max_width, shape_.max_width);
        local.resize(local_.size());
        world.resize(local_.size());
        formation_slots(s, span<V>(local), ws_);
        place_slots(anchor_, direction_of<V>(heading_), span<const V>(local), span<V>(world));
    }

    [[nodiscard]] const V& anchor() const noexcept { return anchor_; }
    [[nodiscard]] const V& anchor_velocity() const noexcept { return anchor_velocity_; }
    [[nodiscard]] S heading() const noexcept { return heading_; }
    [[nodiscard]] S turn_rate() const noexcept { return turn_rate_; }
    [[nodiscard]] span<const V> slots() const noexcept { return {slot_.data(), slot_.size()}; }  // world, by slot
    [[nodiscard]] span<const V> local_slots() const noexcept { return {local_.data(), local_.size()}; }
    [[nodiscard]] const formation_shape<S>& shape() const noexcept { return shape_; }

private:
    void lay_out() {
        formation_shape<S> s = shape_;
        s.max_width = width_;
        formation_slots(s, span<V>(local_), ws_);
        place_slots(anchor_, direction_of<V>(heading_), span<const V>(local_), span<V>(slot_));
        for (std::size_t j = 0; j < slot_.size(); ++j) {
            const V r = boids::sub(slot_[j], anchor_);
            slot_velocity_[j] = boids::generate<V>([&](std::size_t d) {
                return d == 0 ? boids::get(anchor_velocity_, 0) - turn_rate_ * boids::get(r, 1)
                              : boids::get(anchor_velocity_, 1) + turn_rate_ * boids::get(r, 0);
            });
        }
    }

    formation_shape<S> shape_;
    formation_march<S> march_;
    V anchor_, anchor_velocity_ = boids::zero<V>();
    S heading_, turn_rate_ = 0, assigned_heading_ = 0;
    S width_;
    bool relaid_ = false;
    std::vector<V> local_, slot_, slot_velocity_;
    std::vector<std::size_t> slot_of_;
    formation_workspace ws_;
};

}  // namespace boids
