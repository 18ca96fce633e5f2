//===- Parallel.cpp - Host loops on every core ----------------------------===//

#include "sage/Runtime/Parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

using namespace sage::rt;

unsigned sage::rt::defaultThreads() {
  unsigned count = std::thread::hardware_concurrency();
  return count ? count : 1;
}

void sage::rt::parallelFor(size_t items, unsigned threads,
                           const std::function<void(size_t)> &work) {
  unsigned workers = static_cast<unsigned>(
      std::min<size_t>(std::max(threads, 1u), std::max<size_t>(items, 1)));
  std::atomic<size_t> next{0};
  auto loop = [&] {
    for (size_t i = next++; i < items; i = next++)
      work(i);
  };
  if (workers <= 1) {
    loop();
    return;
  }
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < workers; ++t)
    pool.emplace_back(loop);
  for (std::thread &thread : pool)
    thread.join();
}

sage::ref::ForRanges sage::rt::forRangesOn(unsigned threads) {
  return [threads](size_t n, const std::function<void(size_t, size_t)> &body) {
    // Below this a thread costs more than it saves.
    constexpr size_t kMinRange = size_t(1) << 16;
    size_t ranges = std::min<size_t>(4 * std::max(threads, 1u),
                                     (n + kMinRange - 1) / kMinRange);
    if (threads <= 1 || ranges <= 1) {
      if (n)
        body(0, n);
      return;
    }
    size_t per = (n + ranges - 1) / ranges;
    parallelFor(ranges, threads, [&](size_t r) {
      size_t begin = r * per, end = std::min(n, begin + per);
      if (begin < end)
        body(begin, end);
    });
  };
}
