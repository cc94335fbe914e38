// boids/flocking.hpp - the same as <boids/flock/rules.hpp>, where it lives.
#pragma once
#include "flock/rules.hpp"
