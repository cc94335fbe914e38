// boids/crowd/obstacles.hpp - the same as <boids/crowd/obstacles2d.hpp>, where it lives.
#pragma once
#include "obstacles2d.hpp"
