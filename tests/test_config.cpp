// Tests of boids/config.hpp: a user's own BOIDS_ASSERT receives programmer errors.
// A program of its own, since the macro must be the same in every translation unit.
#include <cstdio>
#include <cstring>

static int g_asserts = 0;
static const char* g_last = "";
#define BOIDS_ASSERT(cond, msg) ((cond) ? static_cast<void>(0) : (++g_asserts, static_cast<void>(g_last = (msg))))
#include <boids/boids.hpp>

struct v2 {
    double x, y;
};
BOIDS_REGISTER_VECTOR2(v2, double, x, y)

int main() {
    const v2 z{0, 0};
    (void)boids::steer_toward(z, z, 0.0, 1.0);  // reaction time 0: a programmer error
    if (g_asserts != 1 || std::strstr(g_last, "reaction_time") == nullptr) {
        std::printf("FAIL: expected one assert about reaction_time, got %d (%s)\n", g_asserts, g_last);
        return 1;
    }
    v2 p{0, 0}, v{1, 0};
    boids::integrate(p, v, z, -1.0, 10.0);  // negative dt
    if (g_asserts != 2) {
        std::printf("FAIL: expected a second assert for dt < 0\n");
        return 1;
    }
    std::printf("1 passed, 0 failed\n");
    return 0;
}
