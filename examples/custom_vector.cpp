// custom_vector.cpp - an engine's own vector type plugged into boids.
//
// raylib's Vector2 is a plain C struct with no operators. One line at global
// scope registers it; after that every boids function takes it directly.
#include <boids/boids.hpp>
#include <cstdio>

// What raylib.h declares (here without raylib itself).
typedef struct Vector2 {
    float x;
    float y;
} Vector2;

BOIDS_REGISTER_VECTOR2(Vector2, float, x, y)

int main() {
    const boids::steering_limits<float> limits{220.f, 440.f, 0.2f, 0.f};
    Vector2 position{120.f, 225.f};
    Vector2 velocity{0.f, -120.f};
    const Vector2 target{470.f, 225.f};

    // The user's own loop: the behaviour gives an acceleration, integrate moves.
    const float dt = 1.f / 60.f;
    for (int frame = 0; frame < 240; ++frame) {
        const Vector2 accel = boids::arrive<Vector2>{target, 140.f, limits}(position, velocity);
        boids::integrate(position, velocity, accel, dt, limits);
    }
    std::printf("after 4 s: (%.2f, %.2f), %.3f px from the target\n", static_cast<double>(position.x),
                static_cast<double>(position.y), static_cast<double>(boids::distance(position, target)));
    return boids::distance(position, target) < 1.f ? 0 : 1;
}
