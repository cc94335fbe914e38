// boids/flock.hpp - the same as <boids/flock/step.hpp>, where it lives.
#pragma once
#include "flock/step.hpp"
