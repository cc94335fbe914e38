// boids/behaviors/obstacles.hpp - the same as <boids/behaviors/avoid_obstacles.hpp>, where it lives.
#pragma once
#include "avoid_obstacles.hpp"
