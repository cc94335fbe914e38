// boids-lab flock from the Lesson 5 fixture's start: the lesson's run and its summary
// line (the fixtures themselves are replayed on the library in tests/models/test_lesson.cpp).
#include "lab_test.hpp"
#include <fstream>
#include <sstream>
#include "csv.hpp"
#include "flock.hpp"

namespace {
std::string fixture(const std::string& name) { return std::string(BOIDS_FIXTURES_DIR) + "/lesson/" + name; }

}  // namespace

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
