// The Lesson 5 fixtures replayed on the library (boids/models/lesson.hpp and
// flock_step): every seed-7 reference run with both finders, within the tolerance each
// JSON states, and the preset's own numbers.
#include "test_support.hpp"
#include <boids/gauges.hpp>
#include <boids/models/lesson.hpp>
#include <boids/neighbors/all_pairs.hpp>
#include <boids/neighbors/uniform_grid.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "plain_vectors.hpp"

namespace {
using V = test::dvec2;

std::string slurp_fixture(const std::string& name) {
    std::ifstream in(std::string(BOIDS_FIXTURES_DIR) + "/lesson/" + name);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// A fixture's x,y,vx,vy rows.
void read_flock(const std::string& name, std::vector<V>& p, std::vector<V>& v) {
    std::istringstream lines(slurp_fixture(name));
    std::string line;
    REQUIRE(std::getline(lines, line));
    REQUIRE(line.rfind("x,y,vx,vy", 0) == 0);
    p.clear();
    v.clear();
    while (std::getline(lines, line)) {
        if (line.empty() || line == "\r") continue;
        double x, y, vx, vy;
        char c1, c2, c3;
        std::istringstream row(line);
        REQUIRE(static_cast<bool>(row >> x >> c1 >> y >> c2 >> vx >> c3 >> vy));
        p.push_back({x, y});
        v.push_back({vx, vy});
    }
}

// The few JSON fields we need, read without a JSON library (the files are flat).
std::string json_raw(const std::string& text, const std::string& key) {
    const auto at = text.find("\"" + key + "\"");
    REQUIRE(at != std::string::npos);
    auto b = text.find(':', at) + 1;
    while (std::isspace(static_cast<unsigned char>(text[b]))) ++b;
    auto e = text.find_first_of(",}", b);
    if (text[b] == '"') e = text.find('"', b + 1) + 1;
    if (text[b] == '[') e = text.find(']', b) + 1;
    std::string value = text.substr(b, e - b);
    value.erase(std::remove_if(value.begin(), value.end(),
                               [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == '"'; }),
                value.end());
    return value;
}
double json_number(const std::string& text, const std::string& key) { return std::stod(json_raw(text, key)); }
}  // namespace

TEST_CASE("the seed-7 lesson fixtures are reproduced by flock_step with both finders", "[lesson][fixtures]") {
    const auto name =
        GENERATE(as<std::string>{}, "all_60", "all_300", "hawk_60", "hawk_300", "no_alignment_60", "no_alignment_300",
                 "no_cohesion_60", "no_cohesion_300", "no_separation_60", "no_separation_120");
    const auto finder = GENERATE(as<std::string>{}, "all-pairs", "grid");
    CAPTURE(name, finder);
    const std::string j = slurp_fixture("seed7_" + name + ".json");
    auto cfg = boids::lesson::config<V>();
    const std::string rules = "," + json_raw(j, "rules") + ",";  // e.g. [separation,alignment]
    cfg.use_separation = rules.find("separation") != std::string::npos;
    cfg.use_alignment = rules.find("alignment") != std::string::npos;
    cfg.use_cohesion = rules.find("cohesion") != std::string::npos;
    const std::string hawk = json_raw(j, "hawk");
    if (hawk != "null") {
        const auto comma = hawk.find(',');
        cfg.has_predator = true;
        cfg.predator = {std::stod(hawk.substr(1, comma - 1)), std::stod(hawk.substr(comma + 1))};
    }
    std::vector<V> p, v, expected_p, expected_v;
    read_flock("seed7_" + name + "_initial.csv", p, v);
    read_flock("seed7_" + name + "_final.csv", expected_p, expected_v);
    REQUIRE(p.size() == expected_p.size());
    boids::flock_workspace<V> ws;
    const auto steps = static_cast<int>(json_number(j, "steps"));
    auto run = [&](auto& f) {
        for (int s = 0; s < steps; ++s)
            boids::flock_step(boids::span<V>(p), boids::span<V>(v), cfg, f, ws, boids::lesson::dt);
    };
    if (finder == "grid") {
        boids::uniform_grid<V> f(cfg.world, cfg.view_radius);
        run(f);
    } else {
        boids::all_pairs<V> f(cfg.world);
        run(f);
    }
    const double tol = json_number(j, "tolerance_px");
    double worst = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
        worst = std::max({worst, std::fabs(p[i].x - expected_p[i].x), std::fabs(p[i].y - expected_p[i].y),
                          std::fabs(v[i].x - expected_v[i].x), std::fabs(v[i].y - expected_v[i].y)});
    CAPTURE(worst, tol);
    CHECK(worst <= tol);
    CHECK(boids::mean_nearest_distance(boids::span<const V>(p), cfg.world) ==
          Approx(json_number(j, "spacing")).epsilon(1e-6));
    CHECK(boids::heading_order(boids::span<const V>(v)) == Approx(json_number(j, "order")).epsilon(1e-6));
}

TEST_CASE("the lesson preset holds the fixtures' parameters, and its scatter repeats", "[lesson]") {
    const auto cfg = boids::lesson::config<V>();
    CHECK(cfg.validate());
    CHECK(cfg.world.size[0] == 900);
    CHECK(cfg.world.size[1] == 540);
    CHECK(cfg.view_radius == 60);
    CHECK(cfg.view_angle == 270);
    CHECK(cfg.limits.max_speed == 160);
    CHECK(cfg.limits.min_speed == 60);
    CHECK(boids::lesson::default_boids == 60);
    std::vector<V> p, v, p2, v2;
    boids::lesson::scatter(7, cfg, p, v, 500);
    boids::lesson::scatter(7, cfg, p2, v2, 500);
    REQUIRE(p.size() == 500);
    for (std::size_t i = 0; i < p.size(); ++i) {
        CHECK(p[i].x == p2[i].x);
        CHECK(v[i].y == v2[i].y);
        CHECK(p[i].x >= 0);
        CHECK(p[i].x < 900);
        CHECK(p[i].y < 540);
        const double speed = boids::length(v[i]);
        CHECK(speed >= 60 - 1e-9);
        CHECK(speed <= 160 + 1e-9);
    }
}
