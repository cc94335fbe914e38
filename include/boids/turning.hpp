// boids/turning.hpp - the same as <boids/behaviors/turning.hpp>, where it lives.
#pragma once
#include "behaviors/turning.hpp"
