// boids/executor.hpp - how a bulk step spreads its work. No pool is hidden in a
// header: pass sequential (the default), thread_count{n} (threads started and
// joined inside each call), a thread_pool you own (threads kept between calls),
// or your engine's own job system as any callable
//     executor(std::size_t tasks, F work)   // calls work(t) once for each t < tasks
// Work is split into contiguous ranges of boids and every boid's result depends
// only on the old state, so the output is bit-identical for any split.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <type_traits>
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

// Threads the caller owns: started by the constructor, waiting between calls,
// joined by the destructor. For a step every frame this saves thread_count's start
// and join of threads on each call (tens of microseconds: more than the work of a
// small flock). A waiting thread first spins briefly (the phases of a step follow
// each other closely), then sleeps. Each thread first works through its own share
// of the tasks (thread w: the w-th contiguous share, the same one every call, so a
// step's passes over the same boids find them in that thread's cache), then takes
// what is left of the others'. Every boid's result depends only on the old state,
// so the output is the same bits as sequential, whichever thread ran a task. One
// call at a time (not re-entrant), and `work` must not throw.
class thread_pool {
public:
    explicit thread_pool(std::size_t threads) : threads_(threads == 0 ? 1 : threads), shares_(threads_) {
        workers_.reserve(threads_ - 1);
        for (std::size_t w = 1; w < threads_; ++w) workers_.emplace_back([this, w] { serve(w); });
    }
    ~thread_pool() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
            generation_.fetch_add(1, std::memory_order_release);
        }
        wake_.notify_all();
        for (auto& t : workers_) t.join();
    }
    thread_pool(const thread_pool&) = delete;
    thread_pool& operator=(const thread_pool&) = delete;

    template <class F>
    void operator()(std::size_t tasks, F&& work) {
        if (workers_.empty() || tasks <= 1) {
            for (std::size_t t = 0; t < tasks; ++t) work(t);
            return;
        }
        call_ = [](void* f, std::size_t t) { (*static_cast<std::remove_reference_t<F>*>(f))(t); };
        work_ = static_cast<void*>(&work);
        for (std::size_t w = 0; w < threads_; ++w) {
            shares_[w].next.store(tasks * w / threads_, std::memory_order_relaxed);
            shares_[w].end = tasks * (w + 1) / threads_;
        }
        pending_.store(workers_.size(), std::memory_order_relaxed);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            generation_.fetch_add(1, std::memory_order_release);  // publishes the job above
        }
        wake_.notify_all();
        run_tasks(0);  // the calling thread works too
        if (!spin_until([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
            std::unique_lock<std::mutex> lock(mutex_);
            done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
        }
    }
    [[nodiscard]] std::size_t concurrency() const noexcept { return threads_; }

private:
    template <class Ready>
    static bool spin_until(Ready&& ready) {
        for (int i = 0; i < 2000; ++i) {
            if (ready()) return true;
            std::this_thread::yield();
        }
        return ready();
    }
    // Thread `self`'s share first, then the others' in turn.
    void run_tasks(std::size_t self) {
        for (std::size_t k = 0; k < threads_; ++k) {
            share& sh = shares_[(self + k) % threads_];
            for (;;) {
                const std::size_t t = sh.next.fetch_add(1, std::memory_order_relaxed);
                if (t >= sh.end) break;
                call_(work_, t);
            }
        }
    }
    void serve(std::size_t self) {
        std::size_t seen = 0;
        for (;;) {
            auto moved = [&] { return generation_.load(std::memory_order_acquire) != seen; };
            if (!spin_until(moved)) {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, moved);
            }
            seen = generation_.load(std::memory_order_acquire);
            if (stop_flag()) return;
            run_tasks(self);
            if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                std::lock_guard<std::mutex> lock(mutex_);  // so the caller cannot miss the notification
                done_.notify_one();
            }
        }
    }
    bool stop_flag() {
        std::lock_guard<std::mutex> lock(mutex_);
        return stop_;
    }

    std::size_t threads_;
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    // One thread's contiguous share of a call's tasks, on a cache line of its own.
    struct alignas(64) share {
        std::atomic<std::size_t> next{0};
        std::size_t end = 0;
    };
    std::vector<share> shares_;
    std::atomic<std::size_t> generation_{0}, pending_{0};
    void (*call_)(void*, std::size_t) = nullptr;
    void* work_ = nullptr;
    bool stop_ = false;
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

// How many tasks a bulk pass over n items splits into. On several threads, eight per
// thread, so that a thread whose ranges ran fast takes more of them: a running
// flock's dense groups make some ranges several times slower than others, and with
// four per thread the last task ran alone for a tenth of the pass (measured on a
// settled flock of 10,000). At most one per min_per_task items, and one on one
// thread, since each task has scratch space of its own in the workspace.
template <class E>
std::size_t task_count(std::size_t n, std::size_t min_per_task, const E& e) {
    constexpr std::size_t tasks_per_thread = 8;
    const std::size_t threads = concurrency_of(e);
    if (threads <= 1) return 1;
    const std::size_t most = n / min_per_task + 1;
    return most < tasks_per_thread * threads ? most : tasks_per_thread * threads;
}

// Task t's contiguous share [begin, end) of n items split into `tasks`: the one split
// every bulk pass uses, so the shares of two passes over the same items agree.
struct index_range {
    std::size_t begin, end;
};
[[nodiscard]] inline index_range task_range(std::size_t n, std::size_t t, std::size_t tasks) noexcept {
    return {n * t / tasks, n * (t + 1) / tasks};
}
}  // namespace detail

}  // namespace boids
