// behavior_gallery.cpp - draws the behaviours that involve more than one agent (or a
// field, a flight, walls) as SVG pictures for docs/behaviors.md, straight from the library:
//   boids-behavior-gallery OUT_DIR
// Each scene steps its agents at 60 Hz and records their trails.
#include <boids/boids.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {
struct vec {
    double x, y;
};
struct vec3 {
    double x, y, z;
};
}  // namespace
BOIDS_REGISTER_VECTOR2(vec, double, x, y)
BOIDS_REGISTER_VECTOR3(vec3, double, x, y, z)

namespace {
using limits = boids::steering_limits<double>;
constexpr double dt = 1.0 / 60;

struct trail {
    std::vector<vec> points;
    std::string colour;
    bool dashed = false;
};
struct picture {
    std::string title;
    std::vector<trail> trails;
    std::vector<boids::sphere<vec>> circles;
    std::vector<vec> arrows_from, arrows_to;  // a flow field's samples
    std::vector<boids::wall<vec>> walls = {};
};

void write_svg(const picture& pic, const std::string& path) {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    auto grow = [&](double x, double y) {
        x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
    };
    for (const auto& t : pic.trails)
        for (const auto& p : t.points) grow(p.x, p.y);
    for (const auto& c : pic.circles)
        grow(c.centre.x - c.radius, c.centre.y - c.radius), grow(c.centre.x + c.radius, c.centre.y + c.radius);
    for (const auto& p : pic.arrows_from) grow(p.x, p.y);
    for (const auto& w : pic.walls) grow(w.a.x, w.a.y), grow(w.b.x, w.b.y);
    const double pad = 0.05 * std::max(x1 - x0, y1 - y0);
    x0 -= pad, y0 -= pad, x1 += pad, y1 += pad;
    const double w = 640, s = w / (x1 - x0), h = (y1 - y0) * s + 24;
    auto X = [&](double x) { return (x - x0) * s; };
    auto Y = [&](double y) { return h - (y - y0) * s; };  // y up
    std::ofstream out(path);
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
        << "\" font-family=\"sans-serif\" font-size=\"13\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << "<text x=\"8\" y=\"16\">" << pic.title << "</text>\n";
    for (const auto& c : pic.circles)
        out << "<circle cx=\"" << X(c.centre.x) << "\" cy=\"" << Y(c.centre.y) << "\" r=\"" << c.radius * s
            << "\" fill=\"#ccc\" stroke=\"#666\"/>\n";
    for (std::size_t i = 0; i < pic.arrows_from.size(); ++i)
        out << "<line x1=\"" << X(pic.arrows_from[i].x) << "\" y1=\"" << Y(pic.arrows_from[i].y) << "\" x2=\""
            << X(pic.arrows_to[i].x) << "\" y2=\"" << Y(pic.arrows_to[i].y) << "\" stroke=\"#bbb\"/>\n";
    for (const auto& l : pic.walls)
        out << "<line x1=\"" << X(l.a.x) << "\" y1=\"" << Y(l.a.y) << "\" x2=\"" << X(l.b.x) << "\" y2=\"" << Y(l.b.y)
            << "\" stroke=\"#444\" stroke-width=\"3\"/>\n";
    for (const auto& t : pic.trails) {
        out << "<polyline fill=\"none\" stroke=\"" << t.colour << "\" stroke-width=\"1.8\""
            << (t.dashed ? " stroke-dasharray=\"5 3\"" : "") << " points=\"";
        for (const auto& p : t.points) out << X(p.x) << "," << Y(p.y) << " ";
        out << "\"/>\n";
        if (!t.points.empty())
            out << "<circle cx=\"" << X(t.points[0].x) << "\" cy=\"" << Y(t.points[0].y) << "\" r=\"3\" fill=\""
                << t.colour << "\"/>\n";
    }
    out << "</svg>\n";
    std::printf("%s\n", path.c_str());
}

const char* palette[] = {"#4e79a7", "#e15759", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f"};

picture offset_pursuit() {
    const limits lim{6, 15, 0.2, 0};
    picture pic{"offset pursuit: two wingmen hold slots behind and beside a turning leader", {}, {}, {}, {}};
    vec lp{0, 0}, lv{4, 0};
    std::vector<vec> p{{-6, -4}, {-8, 5}}, v{{0, 0}, {0, 0}};
    const vec slots[] = {{-2, -1.5}, {-2, 1.5}};
    trail leader{{}, "#333", true};
    std::vector<trail> wing{{{}, palette[0]}, {{}, palette[1]}};
    for (int s = 0; s < 60 * 12; ++s) {
        const double t = s * dt;
        lv = {4 * std::cos(0.25 * t), 4 * std::sin(0.25 * t)};
        for (std::size_t i = 0; i < 2; ++i) {
            const vec a = boids::offset_pursuit<vec>{lp, lv, slots[i], lim, 2.0}(p[i], v[i]);
            boids::integrate(p[i], v[i], a, dt, lim);
            wing[i].points.push_back(p[i]);
        }
        lp = boids::add_scaled(lp, lv, dt);
        leader.points.push_back(lp);
    }
    pic.trails = {leader, wing[0], wing[1]};
    return pic;
}

picture interpose_hide() {
    const limits lim{5, 12, 0.2, 0};
    picture pic{
        "interpose (blue) between two agents; hide (red) behind the rock from the threat (grey)", {}, {}, {}, {}};
    vec a{0, 8}, av{2, 0}, b{0, -8}, bv{2, 0.6}, p{12, 14}, v{0, 0};
    trail ta{{}, "#999", true}, tb{{}, "#999", true}, tp{{}, palette[0]};
    pic.circles = {{{24, 0}, 2.5}};
    vec h{30, 10}, hv{0, 0}, threat{14, -2}, tv{1.2, 0.6};
    trail th{{}, palette[1]}, tt{{}, "#666", true};
    for (int s = 0; s < 60 * 10; ++s) {
        const vec acc = boids::interpose<vec>{a, av, b, bv, lim, 2.0}(p, v);
        boids::integrate(p, v, acc, dt, lim);
        a = boids::add_scaled(a, av, dt), b = boids::add_scaled(b, bv, dt);
        ta.points.push_back(a), tb.points.push_back(b), tp.points.push_back(p);
        const vec ah =
            boids::hide<vec>{threat, tv, boids::span<const boids::sphere<vec>>(pic.circles), lim, 1.0, 2.0}(h, hv);
        boids::integrate(h, hv, ah, dt, lim);
        threat = boids::add_scaled(threat, tv, dt);
        th.points.push_back(h), tt.points.push_back(threat);
    }
    pic.trails = {ta, tb, tp, tt, th};
    return pic;
}

picture flow() {
    const limits lim{4, 10, 0.3, 0};
    picture pic{
        "flow field: a crowd shares one grid of desired velocities (a vortex), sampled bilinearly", {}, {}, {}, {}};
    const std::size_t n = 9;
    std::vector<vec> cells(n * n);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < n; ++i) {
            const double x = double(i) * 5 - 20, y = double(j) * 5 - 20;
            cells[j * n + i] = boids::clamp_magnitude(vec{-y * 0.3 + x * -0.05, x * 0.3 + y * -0.05}, 4.0);
            pic.arrows_from.push_back({x, y});
            pic.arrows_to.push_back(boids::add_scaled(vec{x, y}, cells[j * n + i], 0.6));
        }
    const boids::flow_field<vec> field{{-20, -20}, 5.0, {n, n}, boids::span<const vec>(cells)};
    for (int k = 0; k < 6; ++k) {
        vec p{-18.0 + 7 * k, -15.0 + 5 * (k % 3)}, v{0, 0};
        trail t{{}, palette[k]};
        for (int s = 0; s < 60 * 10; ++s) {
            boids::integrate(p, v, boids::follow_flow<vec>{field, lim}(p, v), dt, lim);
            t.points.push_back(p);
        }
        pic.trails.push_back(t);
    }
    return pic;
}

picture crowd() {
    const limits lim{3, 12, 0.2, 0};
    picture pic{"queue: twelve agents file through a door between two pillars without overlapping", {}, {}, {}, {}};
    pic.circles = {{{0, 2.3}, 1.5}, {{0, -2.3}, 1.5}};
    std::vector<vec> p, v;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j) p.push_back({-6.0 - 1.2 * i, -1.2 + 1.2 * j}), v.push_back({0, 0});
    std::vector<trail> trails(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) trails[i].colour = palette[i % 8];
    boids::all_pairs<vec> finder{boids::world<double, 2>{}};
    std::vector<boids::neighbor<double, 2>> buf(32);
    std::vector<vec> acc(p.size());
    const boids::separation<vec> space{0.9, boids::separation_falloff::linear, 12};
    for (int s = 0; s < 60 * 12; ++s) {
        finder.build(boids::span<const vec>(p));
        for (std::size_t i = 0; i < p.size(); ++i) {
            boids::buffer_sink<double, 2> near{boids::span<boids::neighbor<double, 2>>(buf)};
            finder.for_each_within(i, 3.0, near);
            const vec avoid =
                boids::avoid_obstacles<vec>{boids::span<const boids::sphere<vec>>(pic.circles), 0.3, lim}(p[i], v[i]);
            acc[i] = boids::blend_priority(
                lim.max_force, 1e-6, avoid,
                boids::blend_weighted(lim.max_force, boids::weighted<vec>{2, space(i, v[i], near.result(), lim)},
                                      boids::weighted<vec>{2, boids::queue<vec>{1.5, 0.6, lim}(v[i], near.result())},
                                      boids::weighted<vec>{1, boids::arrive<vec>{{12, 0}, 2.0, lim}(p[i], v[i])}));
        }
        for (std::size_t i = 0; i < p.size(); ++i)
            boids::integrate(p[i], v[i], acc[i], dt, lim), trails[i].points.push_back(p[i]);
    }
    pic.trails = trails;
    return pic;
}

picture leader_collisions_context() {
    const limits lim{6, 15, 0.2, 0};
    picture pic{"left: follow the leader (dashed); middle: crossing agents avoid each other; right: context steering",
                {},
                {},
                {},
                {}};
    // Leader following: three followers behind a leader on a gentle curve.
    vec lp{-40, 0}, lv{4, 0};
    std::vector<vec> p{{-36, 2}, {-45, -3}, {-47, 4}}, v(3, vec{0, 0});
    trail tl{{}, "#333", true};
    std::vector<trail> tf{{{}, palette[0]}, {{}, palette[2]}, {{}, palette[3]}};
    for (int s = 0; s < 60 * 6; ++s) {
        lv = {4 * std::cos(0.2 * s * dt), 4 * std::sin(0.2 * s * dt)};
        for (std::size_t i = 0; i < 3; ++i) {
            boids::integrate(p[i], v[i], boids::follow_leader<vec>{lp, lv, 3.0, lim}(p[i], v[i]), dt, lim);
            tf[i].points.push_back(p[i]);
        }
        lp = boids::add_scaled(lp, lv, dt);
        tl.points.push_back(lp);
    }
    // Unaligned collision avoidance: crossing at right angles.
    std::vector<vec> q{{-10, 0}, {0, -10}}, w{{4, 0}, {0, 4}};
    const vec goals[] = {{12, 0}, {0, 12}};
    trail tc[2] = {{{}, palette[1]}, {{}, palette[4]}};
    for (int s = 0; s < 60 * 6; ++s) {
        vec a[2];
        for (std::size_t i = 0; i < 2; ++i)
            a[i] = boids::blend_priority(
                lim.max_force, 1e-6,
                boids::avoid_collisions<vec>{1.0, 3.0, lim}(i, boids::span<const vec>(q), boids::span<const vec>(w)),
                boids::seek<vec>{goals[i], lim}(q[i], w[i]));
        for (std::size_t i = 0; i < 2; ++i) boids::integrate(q[i], w[i], a[i], dt, lim), tc[i].points.push_back(q[i]);
    }
    // Context steering around a rock straight ahead of the target.
    pic.circles = {{{31, 0}, 2.0}};
    const boids::context_steering<vec, 32> ctx{boids::span<const boids::sphere<vec>>(pic.circles), 0.5, 10, lim, 3};
    vec c{25, 0}, cv{0, 0};
    trail tx{{}, palette[5]};
    for (int s = 0; s < 60 * 6; ++s) {
        boids::integrate(c, cv, ctx(c, cv, vec{45, 0}), dt, lim);
        tx.points.push_back(c);
    }
    pic.trails = {tl, tf[0], tf[1], tf[2], tc[0], tc[1], tx};
    return pic;
}

// Seen from above (gravity along -y, the ground x-z): three agents run up to the same
// take-off point and jump onto a ledge 10 up; solid on the ground, dashed in the air.
picture jumps() {
    const vec3 takeoff{100, 0, 20}, landing{220, 10, 60}, gravity{0, -30, 0};
    const boids::jump<vec3> leap{takeoff, landing, gravity, 40, {120, 300, 0.2, 0}};
    picture pic{"jump, from above: run-ups from behind, beside, too close; flights dashed",
                {},
                {{{takeoff.x, takeoff.z}, 1.0}, {{landing.x, landing.z}, 1.0}},
                {},
                {}};
    const vec3 starts[] = {{0, 0, 20}, {40, 0, -30}, {90, 0, 17}};
    const vec3 velocities[] = {{0, 0, 0}, {0, 0, 50}, {0, 0, 0}};
    for (std::size_t i = 0; i < 3; ++i) {
        vec3 p = starts[i], v = velocities[i];
        trail ground{{}, palette[i]}, air{{}, palette[i], true};
        ground.points.push_back({p.x, p.z});
        for (int s = 0; s < 60 * 30 && !leap.ready(p, v); ++s) {
            boids::integrate(p, v, leap(p, v), dt, leap.limits);
            ground.points.push_back({p.x, p.z});
        }
        v = leap.plan_from(p).launch_velocity;
        air.points.push_back({p.x, p.z});
        for (int s = 0; s < 60 * 10 && !(v.y < 0 && p.y <= landing.y); ++s) {
            p = boids::add_scaled(boids::add_scaled(p, v, dt), gravity, 0.5 * dt * dt);  // exact under gravity
            v = boids::add_scaled(v, gravity, dt);
            air.points.push_back({p.x, p.z});
        }
        pic.trails.push_back(ground);
        pic.trails.push_back(air);
    }
    return pic;
}

// follow_wall: out of a maze of three lanes, one agent with the wall on its right, one
// with it on its left, from the same start at rest.
picture wall_following() {
    picture pic{
        "follow_wall: out of a maze, the wall on the right (blue) or on the left (red, dashed)", {}, {}, {}, {}};
    pic.walls = {{{0, 0}, {200, 0}}, {{200, 0}, {200, 80}}, {{200, 120}, {0, 120}},
                 {{0, 120}, {0, 0}}, {{66, 0}, {66, 80}},   {{133, 120}, {133, 40}}};
    const boids::span<const boids::wall<vec>> walls(pic.walls);
    const boids::wall_side sides[] = {boids::wall_side::right, boids::wall_side::left};
    for (std::size_t i = 0; i < 2; ++i) {
        const boids::follow_wall<vec> follow{walls, 10, {60, 720, 2.5 / 60, 0}, sides[i]};
        vec p{30, 20}, v{0, 0};
        trail t{{}, palette[i], i == 1};
        t.points.push_back(p);
        for (int s = 0; s < 60 * 60 && p.x < 205 && p.y < 125; ++s) {  // until it is out
            boids::integrate(p, v, follow(p, v), dt, follow.limits);
            t.points.push_back(p);
        }
        pic.trails.push_back(t);
    }
    return pic;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: boids-behavior-gallery OUT_DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    write_svg(offset_pursuit(), dir + "/behavior-offset-pursuit.svg");
    write_svg(interpose_hide(), dir + "/behavior-interpose-hide.svg");
    write_svg(flow(), dir + "/behavior-flow-field.svg");
    write_svg(crowd(), dir + "/behavior-queue.svg");
    write_svg(leader_collisions_context(), dir + "/behavior-leader-collisions-context.svg");
    write_svg(jumps(), dir + "/behavior-jump.svg");
    write_svg(wall_following(), dir + "/behavior-follow-wall.svg");
    return 0;
}
