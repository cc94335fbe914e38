// A consumer with its own vector type and no GLM: seeks a target and checks it got there.
#include <boids/boids.hpp>
#include <cstdio>

struct Vector2 {
    float x, y;
};
BOIDS_REGISTER_VECTOR2(Vector2, float, x, y)

int main() {
    const boids::steering_limits<float> limits{100.f, 400.f, 0.2f, 0.f};
    Vector2 p{0, 0}, v{0, 0};
    const Vector2 target{50, 20};
    for (int i = 0; i < 600; ++i) {
        const Vector2 a = boids::arrive<Vector2>{target, 40.f, limits}(p, v);
        boids::integrate(p, v, a, 1.f / 60.f, limits);
    }
    const float d = boids::distance(p, target);
    std::printf("consumer: %.3f from the target\n", static_cast<double>(d));
    return d < 1.f ? 0 : 1;
}
