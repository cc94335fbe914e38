// The Lesson 5 fixtures: boids-lab flock --init reproduces every seed-7 reference
// run with both finders, within the tolerance each JSON states.
#include "test_support.hpp"
#include <fstream>
#include <sstream>
#include "csv.hpp"
#include "flock.hpp"

namespace {
std::string fixture(const std::string& name) { return std::string(BOIDS_FIXTURES_DIR) + "/lesson/" + name; }

// The few JSON fields we need, read without a JSON library (the files are flat).
double json_number(const std::string& text, const std::string& key) {
    const auto at = text.find("\"" + key + "\"");
    REQUIRE(at != std::string::npos);
    const auto colon = text.find(':', at);
    return std::strtod(text.c_str() + colon + 1, nullptr);
}
std::string json_raw(const std::string& text, const std::string& key) {
    const auto at = text.find("\"" + key + "\"");
    REQUIRE(at != std::string::npos);
    auto b = text.find(':', at) + 1;
    while (std::isspace(static_cast<unsigned char>(text[b]))) ++b;
    auto e = text.find_first_of(",}", b);
    if (text[b] == '"') e = text.find('"', b + 1) + 1;
    if (text[b] == '[') e = text.find(']', b) + 1;
    std::string v = text.substr(b, e - b);
    v.erase(std::remove_if(v.begin(), v.end(),
                           [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == '"'; }),
            v.end());
    return v;
}
}  // namespace

TEST_CASE("the seed-7 lesson fixtures are reproduced by both finders", "[lesson][fixtures]") {
    const auto name =
        GENERATE(as<std::string>{}, "all_60", "all_300", "hawk_60", "hawk_300", "no_alignment_60", "no_alignment_300",
                 "no_cohesion_60", "no_cohesion_300", "no_separation_60", "no_separation_120");
    const auto finder = GENERATE(as<std::string>{}, "all-pairs", "grid");
    CAPTURE(name, finder);
    std::ifstream jf(fixture("seed7_" + name + ".json"));
    REQUIRE(jf);
    std::stringstream js;
    js << jf.rdbuf();
    const std::string j = js.str();

    std::vector<std::string> argv{"flock", "--init=" + fixture("seed7_" + name + "_initial.csv"),
                                  "--steps=" + json_raw(j, "steps"), "--rules=" + json_raw(j, "rules"),
                                  "--neighbors=" + finder};
    const std::string hawk = json_raw(j, "hawk");
    if (hawk != "null") argv.push_back("--hawk=" + hawk.substr(1, hawk.size() - 2));
    std::string error;
    const auto args = lab::parse_arguments(argv, error);
    REQUIRE(args);
    lab::flock_options o;
    REQUIRE(lab::parse_flock(*args, o, error));
    CHECK(o.cfg.limits.max_speed == json_number(j, "max_speed"));
    CHECK(o.cfg.view_radius == json_number(j, "view_radius"));
    CHECK(o.dt == json_number(j, "dt"));
    lab::flock_state s;
    REQUIRE(lab::initial_flock(o, s, error));
    lab::run_flock(o, s);

    const auto expected = lab::read_csv(fixture("seed7_" + name + "_final.csv"), "x,y,vx,vy", error);
    REQUIRE(expected);
    REQUIRE(expected->size() == s.positions.size());
    const double tol = json_number(j, "tolerance_px");
    double worst = 0;
    for (std::size_t i = 0; i < s.positions.size(); ++i) {
        const auto& e = (*expected)[i];
        worst = std::max({worst, std::fabs(s.positions[i].x - e[0]), std::fabs(s.positions[i].y - e[1]),
                          std::fabs(s.velocities[i].x - e[2]), std::fabs(s.velocities[i].y - e[3])});
    }
    CAPTURE(worst, tol);
    CHECK(worst <= tol);
    const double spacing = boids::mean_nearest_distance(boids::span<const lab::vec2>(s.positions), o.cfg.world);
    CHECK(spacing == Approx(json_number(j, "spacing")).epsilon(1e-6));
    CHECK(boids::heading_order(boids::span<const lab::vec2>(s.velocities)) ==
          Approx(json_number(j, "order")).epsilon(1e-6));
}

TEST_CASE("the lesson's 10-second run from the seed-7 start prints the lesson's gauges", "[lesson]") {
    std::string error;
    const auto args = lab::parse_arguments({"flock", "--init=" + fixture("seed7_all_60_initial.csv")}, error);
    REQUIRE(args);
    lab::flock_options o;
    REQUIRE(lab::parse_flock(*args, o, error));
    CHECK(o.steps == 600);
    lab::flock_state s;
    REQUIRE(lab::initial_flock(o, s, error));
    lab::run_flock(o, s);
    CHECK(lab::flock_summary(o, s) == "spacing 22.551 px, order 0.883");
}
