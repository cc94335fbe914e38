// The formation scene of boids-lab (examples/lab/formation.hpp): a squad forms up,
// marches, narrows through a gap in a wall and widens again.
#include "lab_test.hpp"
#include "formation.hpp"

TEST_CASE("24 members in a wedge pass a gap 3 members wide, none closer than the separation, all through",
          "[formation][scene]") {
    lab::formation_options o;  // wedge of 24, slots 1.5 m apart, gap 4.5 m: three slots
    const auto r = lab::run_formation(o);
    CHECK(r.passed == 24);
    REQUIRE(r.time_to_goal > 0);  // at the goal, every member within a quarter spacing of its slot
    CHECK(r.formed_at > 0);
    // The crowd's guarantee: centres never closer than two radii, less its 1e-4 tolerance.
    CHECK(r.min_separation >= r.separation * (1 - 1e-4));
    CHECK(r.slot_error_mean < 1.0);
    // On open ground the same march keeps the slots far better (no squeezing).
    o.gap = 0;
    const auto open = lab::run_formation(o);
    CHECK(open.passed == 24);
    CHECK(open.slot_error_mean < 0.25);
    CHECK(open.slot_error_max < 1.5);  // never a spacing off once formed
    CHECK(open.time_to_goal < r.time_to_goal);
}

TEST_CASE("every pattern crosses the gap; 1 and 2 threads give the same run", "[formation][scene]") {
    for (const char* pattern : {"line", "column", "circle", "grid"}) {
        CAPTURE(pattern);
        lab::formation_options o;
        o.pattern = pattern;
        const auto r = lab::run_formation(o);
        CHECK(r.passed == 24);
        CHECK(r.time_to_goal > 0);
        CHECK(r.min_separation >= r.separation * (1 - 1e-4));
    }
    lab::formation_options o;
    o.members = 40;
    o.max_steps = 400;
    std::vector<lab::row> one, two;
    lab::run_formation(o, &one);
    o.threads = 2;
    lab::run_formation(o, &two);
    REQUIRE(one.size() == two.size());
    CHECK(one == two);
}

TEST_CASE("without the crowd, keep_slot and separation keep members apart on open ground", "[formation][scene]") {
    lab::formation_options o;
    o.avoidance = "steering";
    o.gap = 0;
    const auto r = lab::run_formation(o);
    CHECK(r.passed == 24);
    CHECK(r.time_to_goal > 0);
    CHECK(r.min_separation >= r.separation);
    CHECK(r.slot_error_mean < 0.25);
}

TEST_CASE("the squad crosses back and forth: goals on either side of the wall, off its axis", "[formation][scene]") {
    for (const char* pattern : {"wedge", "line", "circle", "grid"}) {
        CAPTURE(pattern);
        lab::formation_options o;
        o.pattern = pattern;
        lab::formation_scene scene(o);
        boids::uniform_grid<lab::vec2> grid(boids::world_for<lab::vec2>{}, 5.0),
            gauge(boids::world_for<lab::vec2>{}, 1.0);
        boids::crowd_workspace<lab::vec2> ws;
        boids::thread_pool pool(1);
        double closest = 1e9;
        for (const lab::vec2 goal : {lab::vec2{30, 0}, lab::vec2{-25, 9}, lab::vec2{20, -12}}) {
            CAPTURE(goal.x, goal.y);
            scene.goal = goal;
            double mean = 0, worst = 0;
            int steps = 0;
            for (; steps < 3000; ++steps) {
                scene.errors(mean, worst);
                if (boids::distance(scene.squad.anchor(), goal) < 0.05 && worst <= 0.25 * scene.spacing) break;
                scene.step(worst, true, grid, gauge, ws, pool);
                closest = std::min(closest, lab::closest_pair(gauge, scene.position, 2.0));
            }
            CHECK(steps < 3000);
            for (const auto& p : scene.position) CHECK(p.x * goal.x > 0);  // all on the goal's side
        }
        CHECK(closest >= 2 * scene.radius * (1 - 1e-4));
    }
}
