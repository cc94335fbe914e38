// Tests of boids/behaviors/flow_field.hpp.
#include "agent_sim.hpp"
#include <boids/behaviors/flow_field.hpp>
#include <vector>

TEMPLATE_TEST_CASE("a flow field samples bilinearly and a crowd follows it", "[flow]", BOIDS_ALL_VEC_TYPES) {
    using V = TestType;
    using S = boids::scalar_t<V>;
    constexpr std::size_t D = boids::dimension_v<V>;
    std::array<std::size_t, D> count{};
    count.fill(2);
    std::vector<V> cells(D == 2 ? 4 : 8);
    // Velocity (x, 0): increasing with x; (0 at x=0, 4 at x=1 cell).
    for (std::size_t i = 0; i < cells.size(); ++i) cells[i] = test::make<V>(static_cast<double>(i % 2) * 4.0, 0, 0);
    const boids::flow_field<V> field{boids::zero<V>(), S(10), count, boids::span<const V>(cells)};
    REQUIRE(field.valid());
    CHECK(test::near(field.sample(test::make<V>(2.5, 3, 3)), test::make<V>(1, 0), 1e-5));
    CHECK(test::near(field.sample(test::make<V>(-50, 3)), test::make<V>(0, 0), 1e-6));  // clamped to the edge
    CHECK(test::near(field.sample(test::make<V>(500, 3)), test::make<V>(4, 0), 1e-6));
    // An agent settles on the field's velocity where it stands.
    const boids::steering_limits<S> lim{10, 20, S(0.2), 0};
    const auto end = test::run<V>({test::make<V>(5, 5, 5), test::make<V>(0, 3, 0)}, lim, 0.6, 1.0 / 60,
                                  [&](const V& p, const V& v, double) {
                                      return boids::follow_flow<V>{field, lim}(p, v);
                                  });
    CHECK(test::near(end.v, field.sample(end.p), 0.3));
    // A malformed field (cells do not match the counts) gives zero, not a crash.
    const boids::flow_field<V> bad{boids::zero<V>(), S(10), count, boids::span<const V>(cells.data(), 1)};
    CHECK(boids::is_zero(bad.sample(boids::zero<V>())));
}
