// Tests of boids/snapshot.hpp: the checked header, exact round trips, and refusal
// of wrong, truncated and corrupt buffers (fuzz/fuzz_snapshot.cpp feeds it anything).
#include "test_support.hpp"
#include <cstring>
#include <limits>
#include <vector>
#include <boids/snapshot.hpp>
#include "plain_vectors.hpp"

namespace {
constexpr auto kind = static_cast<boids::snapshot_kind>(static_cast<std::uint32_t>(boids::snapshot_kind::user) + 7);

std::vector<unsigned char> sample() {
    std::vector<unsigned char> bytes{0xEE};  // a byte before: begin() appends
    bytes.clear();
    boids::snapshot_writer w(bytes);
    w.begin(kind, 8, 2, 3);
    w.put(std::uint8_t{200});
    w.put(true);
    w.put(std::uint32_t{0xDEADBEEF});
    w.put(std::uint64_t{0x0123456789ABCDEFull});
    w.put(std::int32_t{-5});
    w.put(-0.0f);
    w.put(std::numeric_limits<double>::denorm_min());
    w.put(boids::random_stream(42));
    const std::vector<test::dvec2> xs{{1, 2}, {3, 4}, {-1e300, 5e-324}};
    w.put_array(boids::span<const test::dvec2>(xs));
    w.finish();
    return bytes;
}
}  // namespace

TEST_CASE("snapshot: every field reads back bit for bit", "[snapshot]") {
    const auto bytes = sample();
    boids::snapshot_reader r{boids::span<const unsigned char>(bytes)};
    std::uint64_t count = 0;
    REQUIRE(r.open(kind, 8, 2, count));
    CHECK(count == 3);
    std::uint8_t a = 0;
    bool b = false;
    std::uint32_t c = 0;
    std::uint64_t d = 0;
    std::int32_t e = 0;
    float f = 1;
    double g = 0;
    boids::random_stream rs;
    std::vector<test::dvec2> xs;
    r.get(a), r.get(b), r.get(c), r.get(d), r.get(e), r.get(f), r.get(g), r.get(rs);
    r.get_array(xs, count);
    REQUIRE(r.done());
    CHECK((a == 200 && b && c == 0xDEADBEEF && d == 0x0123456789ABCDEFull && e == -5));
    CHECK((f == 0.0f && std::signbit(f)));
    CHECK(g == std::numeric_limits<double>::denorm_min());
    CHECK(rs.state == 42);
    REQUIRE(xs.size() == 3);
    CHECK((xs[2].x == -1e300 && xs[2].y == 5e-324));
    // Little-endian whatever the machine: the magic, then version 2 as 02 00 00 00.
    CHECK(std::memcmp(bytes.data(), "BOIDSNAP\x02\x00\x00\x00", 12) == 0);
    CHECK(r.layout() == 0);
}

TEST_CASE("snapshot: the layout number travels in the header; version 1 headers read as layout 0", "[snapshot]") {
    std::vector<unsigned char> bytes;
    boids::snapshot_writer w(bytes);
    w.begin(kind, 8, 2, 1, 7);
    w.put(std::uint32_t{0xCAFE});
    w.finish();
    REQUIRE(bytes.size() == boids::snapshot_header_bytes + 4);
    auto read = [](const std::vector<unsigned char>& b, std::uint32_t& layout, std::uint32_t& x) {
        boids::snapshot_reader r{boids::span<const unsigned char>(b)};
        std::uint64_t count = 0;
        if (const auto v = r.open(kind, 8, 2, count); !v) return std::string(v.field);
        layout = r.layout();
        r.get(x);
        const auto v = r.done();
        return std::string(v.ok() ? "ok" : v.field);
    };
    std::uint32_t layout = 0, x = 0;
    CHECK(read(bytes, layout, x) == "ok");
    CHECK((layout == 7 && x == 0xCAFE));
    // The same snapshot in the version 1 header (no layout field), as earlier
    // versions of the library wrote it.
    auto old = bytes;
    old[8] = 1;
    old.erase(old.begin() + 16, old.begin() + 20);
    const std::size_t v1 = boids::detail::snapshot_header_bytes_v1;
    boids::detail::seal_snapshot(old.data(), old.size() - v1, v1);
    layout = 9;
    x = 0;
    CHECK(read(old, layout, x) == "ok");
    CHECK((layout == 0 && x == 0xCAFE));
    // Flipped bytes and cut buffers of the old header are refused as the new ones are.
    for (std::size_t i = 0; i < old.size(); ++i) {
        auto flipped = old;
        flipped[i] ^= 0x10;
        CAPTURE(i);
        CHECK(read(flipped, layout, x) != "ok");
    }
    for (std::size_t n = 0; n < old.size(); ++n) {
        const std::vector<unsigned char> cut(old.begin(), old.begin() + static_cast<std::ptrdiff_t>(n));
        CAPTURE(n);
        CHECK(read(cut, layout, x) != "ok");
    }
}

TEST_CASE("snapshot: a wrong header, a truncated or corrupt buffer is refused, naming why", "[snapshot][contract]") {
    const auto good = sample();
    auto open = [](const std::vector<unsigned char>& bytes, std::uint32_t scalar = 8, std::uint32_t dim = 2,
                   boids::snapshot_kind k = kind) {
        boids::snapshot_reader r{boids::span<const unsigned char>(bytes)};
        std::uint64_t count = 0;
        return r.open(k, scalar, dim, count);
    };
    auto field = [](const boids::validation& v) { return std::string(v.ok() ? "ok" : v.field); };
    CHECK(field(open(good)) == "ok");
    CHECK(field(open(good, 4)) == "scalar type");
    CHECK(field(open(good, 8, 3)) == "dimension");
    CHECK(field(open(good, 8, 2, boids::snapshot_kind::starling_flock)) == "kind");
    CHECK(field(open({})) == "header");
    auto bad_magic = good;
    bad_magic[0] = 'X';
    CHECK(field(open(bad_magic)) == "magic");
    auto bad_version = good;
    bad_version[8] = 3;
    CHECK(field(open(bad_version)) == "format version");
    // Every shorter prefix, and every single flipped byte, is refused.
    for (std::size_t n = 0; n < good.size(); ++n) {
        const std::vector<unsigned char> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        CAPTURE(n);
        CHECK_FALSE(open(cut).ok());
    }
    for (std::size_t i = 0; i < good.size(); ++i) {  // the checksum covers the header too
        auto flipped = good;
        flipped[i] ^= 0x10;
        CAPTURE(i);
        CHECK_FALSE(open(flipped).ok());
    }
    auto longer = good;
    longer.push_back(0);
    CHECK(field(open(longer)) == "length");
}

TEST_CASE("snapshot: reads past the payload fail and keep failing, leaving values alone", "[snapshot][contract]") {
    std::vector<unsigned char> bytes;
    boids::snapshot_writer w(bytes);
    w.begin(kind, 4, 3, 1);
    w.put(std::uint32_t{7});
    w.finish();
    boids::snapshot_reader r{boids::span<const unsigned char>(bytes)};
    std::uint64_t count = 0;
    REQUIRE(r.open(kind, 4, 3, count));
    std::uint64_t too_wide = 99;
    r.get(too_wide);
    CHECK(too_wide == 99);
    CHECK(std::string(r.error().field) == "length");
    std::uint32_t later = 5;
    r.get(later);
    CHECK(later == 5);
    CHECK_FALSE(r.done());
    // An array whose count is not the header's, or longer than the bytes left.
    std::vector<unsigned char> arr;
    boids::snapshot_writer wa(arr);
    wa.begin(kind, 8, 2, 2);
    const std::vector<double> three{1, 2, 3};
    wa.put_array(boids::span<const double>(three));
    wa.finish();
    boids::snapshot_reader ra{boids::span<const unsigned char>(arr)};
    REQUIRE(ra.open(kind, 8, 2, count));
    std::vector<double> got;
    ra.get_array(got, count);
    CHECK(std::string(ra.error().field) == "payload");
    CHECK(got.empty());
}
