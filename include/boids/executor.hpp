// boids/executor.hpp - how a bulk step spreads its work. No pool is hidden in a
// header: pass sequential (the default), thread_count{n} (threads started and
// joined inside each call), or your engine's own job system as any callable
//     executor(std::size_t tasks, F work)   // calls work(t) once for each t < tasks
// Work is split into contiguous ranges of boids and every boid's result depends
// only on the old state, so the output is bit-identical for any split.
#pragma once
#include <cstddef>
#include <thread>
#include <vector>

namespace boids {

struct sequential {
    template <class F>
    void operator()(std::size_t tasks, F&& work) const {
        for (std::size_t t = 0; t < tasks; ++t) work(t);
    }
    [[nodiscard]] std::size_t concurrency() const noexcept { return 1; }
};

// Runs the tasks on `threads` threads (the calling one included), started and
// joined within the call.
struct thread_count {
    std::size_t threads = 1;

    template <class F>
    void operator()(std::size_t tasks, F&& work) const {
        const std::size_t n = threads < tasks ? threads : tasks;
        if (n <= 1) {
            for (std::size_t t = 0; t < tasks; ++t) work(t);
            return;
        }
        auto worker = [&](std::size_t w) {
            for (std::size_t t = w; t < tasks; t += n) work(t);
        };
        std::vector<std::thread> pool;
        pool.reserve(n - 1);
        for (std::size_t w = 1; w < n; ++w) pool.emplace_back(worker, w);
        worker(0);
        for (auto& th : pool) th.join();
    }
    [[nodiscard]] std::size_t concurrency() const noexcept { return threads == 0 ? 1 : threads; }
};

namespace detail {
template <class E, class = void>
struct has_concurrency : std::false_type {};
template <class E>
struct has_concurrency<E, std::void_t<decltype(std::declval<const E&>().concurrency())>> : std::true_type {};
template <class E>
std::size_t concurrency_of(const E& e) {
    if constexpr (has_concurrency<E>::value) return e.concurrency();
    else return 8;
}
} // namespace detail

} // namespace boids
