// fuzz_snapshot: arbitrary bytes to every load (starling::flock<float|double>::load,
// boids-lab's starlings and vehicle snapshots, the plain reader).
// The first byte picks the loader; its top bit asks for the checksum to be put
// right first, so that the fuzzer also reaches the fields behind it.
// Properties: no crash or undefined behaviour (run under ASan and UBSan); a buffer
// that loads saves back to the very same bytes (in today's header, if it had the
// version 1 header); a loaded flock steps.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include <boids/models/starling.hpp>
#include <boids/snapshot.hpp>
#include "lab_vector.hpp"
#include "starlings.hpp"
#include "vehicle.hpp"

#define FUZZ_CHECK(cond)           \
  do {                             \
    if (!(cond)) __builtin_trap(); \
  } while (0)

namespace {
struct dvec3 {
    double x, y, z;
};
}  // namespace
BOIDS_REGISTER_VECTOR3(dvec3, double, x, y, z)

namespace {
// The header's length: version 1 headers have no layout field.
std::size_t header_of(const std::vector<unsigned char>& b) {
    return b.size() > 8 && b[8] == 1 ? boids::detail::snapshot_header_bytes_v1 : boids::snapshot_header_bytes;
}

void fix_checksum(std::vector<unsigned char>& b) {
    const std::size_t header = header_of(b);
    if (b.size() < header) return;
    boids::detail::seal_snapshot(b.data(), b.size() - header, header);
}

// What a loaded buffer saves back as: itself, or a version 1 buffer in today's
// header (version 2, layout 0 after the kind).
std::vector<unsigned char> as_saved(std::vector<unsigned char> b) {
    if (header_of(b) == boids::snapshot_header_bytes) return b;
    b[8] = static_cast<unsigned char>(boids::snapshot_format_version);
    b.insert(b.begin() + 16, 4, 0);
    fix_checksum(b);
    return b;
}

template <class V>
void flock_round_trip(const std::vector<unsigned char>& bytes) {
    boids::starling::flock<V> f;
    if (!f.load(boids::span<const unsigned char>(bytes))) {
        FUZZ_CHECK(f.flight().empty());  // a refused load leaves the flock as it was
        return;
    }
    std::vector<unsigned char> again;
    f.save(again);
    FUZZ_CHECK(again == as_saved(bytes));
    const std::size_t n = f.flight().size();
    std::vector<V> p(n), v(n);
    for (std::size_t i = 0; i < n; ++i) {
        p[i] = V{static_cast<boids::scalar_t<V>>(i % 7), 20, static_cast<boids::scalar_t<V>>(i / 7)};
        v[i] = V{10, 0, 0};
    }
    for (int s = 0; s < 3; ++s) f.step(boids::span<V>(p), boids::span<V>(v));
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const unsigned which = data[0] & 0x7F;
    std::vector<unsigned char> bytes(data + 1, data + size);
    if ((data[0] & 0x80) != 0) fix_checksum(bytes);
    switch (which % 5) {
    case 0: flock_round_trip<lab::fvec3>(bytes); break;
    case 1: flock_round_trip<dvec3>(bytes); break;
    case 2: {
        boids::starling::flock<lab::fvec3> f;
        std::vector<lab::fvec3> p, v;
        std::string error;
        if (lab::load_starlings("fuzz", bytes, f, p, v, error)) {
            FUZZ_CHECK(lab::save_starlings(f, p, v) == as_saved(bytes));
        } else {
            FUZZ_CHECK(!error.empty());
        }
        break;
    }
    case 3: {
        lab::vehicle_options o;
        o.mode = "wander";
        o.steps = ~0ull >> 1;
        o.load = "fuzz";
        lab::vehicle_state s;
        std::string error;
        if (lab::load_vehicle(o, bytes, s, error)) FUZZ_CHECK(lab::save_vehicle(o, s) == as_saved(bytes));
        else FUZZ_CHECK(!error.empty());
        break;
    }
    default: {
        boids::snapshot_reader r{boids::span<const unsigned char>(bytes)};
        std::uint64_t count = 0;
        const auto kind = static_cast<boids::snapshot_kind>(which);
        if (r.open(kind, 8, 2, count)) {
            std::vector<lab::vec2> xs;
            std::vector<unsigned char> blob;
            r.get_array(xs, count);
            r.get_bytes(blob);
            (void)r.done();
        }
        break;
    }
    }
    return 0;
}
