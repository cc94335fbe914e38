// boids/summary.hpp - the same as <boids/flock/summary.hpp>, where it lives.
#pragma once
#include "flock/summary.hpp"
