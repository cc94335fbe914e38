// boids/flock_blend.hpp - the same as <boids/flock/blend.hpp>, where it lives.
#pragma once
#include "flock/blend.hpp"
