// entities.cpp - the flock over a game's own array of structs: no copies of your
// own, no separate position and velocity arrays. The step reads and writes only the
// two members it is given; every other member is left as it was.
#include <boids/boids.hpp>
#include <glm/vec2.hpp>
#include <cstdio>
#include <string>
#include <vector>

struct Entity {
    int id;
    float hp;
    glm::vec2 pos, vel;
    std::string name;  // anything at all: the flock never touches it
};

int main() {
    using vec = glm::vec2;
    const auto cfg = boids::lesson::config<vec>();
    std::vector<vec> p, v;
    boids::lesson::scatter(7, cfg, p, v, 300);
    std::vector<Entity> entities;
    for (std::size_t i = 0; i < p.size(); ++i)
        entities.push_back(Entity{static_cast<int>(i), 100.f, p[i], v[i], "boid " + std::to_string(i)});

    const auto positions = boids::members(entities, &Entity::pos);  // views: a pointer, a count and a stride
    const auto velocities = boids::members(entities, &Entity::vel);
    boids::uniform_grid<vec> grid(cfg.world, cfg.view_radius);
    boids::flock_workspace<vec> ws;
    for (int step = 0; step < 600; ++step) boids::flock_step(positions, velocities, cfg, grid, ws, 1.f / 60.f);

    std::printf("after 10 s: spacing %.1f px, order %.3f; entity 42 is still '%s' with %.0f hp\n",
                static_cast<double>(boids::mean_nearest_distance(positions, cfg.world)),
                static_cast<double>(boids::heading_order(velocities)), entities[42].name.c_str(),
                static_cast<double>(entities[42].hp));
    return entities[42].name == "boid 42" && entities[42].hp == 100.f ? 0 : 1;
}
