// fuzz_csv: the CSV reader takes any bytes. Properties: no crash; what it accepts is
// finite, four fields a row, and survives a write and a read back bit for bit.
#include <cmath>
#include <cstdint>
#include "csv.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string error;
    const auto rows = lab::parse_csv(text, "x,y,vx,vy", error);
    if (!rows) {
        FUZZ_CHECK(!error.empty());
        FUZZ_CHECK(error.find('\n') == std::string::npos);  // one line
        return 0;
    }
    for (const auto& r : *rows) {
        FUZZ_CHECK(r.size() == 4);
        for (double v : r) FUZZ_CHECK(std::isfinite(v));
    }
    const auto back = lab::parse_csv(lab::format_csv("x,y,vx,vy", *rows), "x,y,vx,vy", error);
    FUZZ_CHECK(back && *back == *rows);
    return 0;
}
