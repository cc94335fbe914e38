// boids/flock_config.hpp - the same as <boids/flock/config.hpp> and <boids/flock/workspace.hpp>, where they live.
#pragma once
#include "flock/config.hpp"
#include "flock/workspace.hpp"
