// Why tsan.supp suppresses reports inside Synchronization.Mutex.withLock on Linux. Build and run it twice:
//
//   swiftc -sanitize=thread -g scripts/sanitizers/mutex-race.swift -o /tmp/mutex-race && /tmp/mutex-race
//   swiftc -sanitize=thread -g -D NSLOCK scripts/sanitizers/mutex-race.swift -o /tmp/nslock && /tmp/nslock
//
// Four threads append to one array, each append inside the lock. With Mutex, ThreadSanitizer reports a "Swift
// access race" once the lock is contended (its waiters park in a futex inside the uninstrumented standard
// library); with NSLock it reports nothing. Both print 80000: no append is lost.
import Foundation
import Synchronization

#if NSLOCK
final class Counter: @unchecked Sendable {  // @unchecked: `values` is only touched while `lock` is held
    private let lock = NSLock()
    private var values: [Int] = []
    func withLock<R>(_ body: (inout [Int]) -> R) -> R { lock.lock(); defer { lock.unlock() }; return body(&values) }
}
#else
final class Counter: Sendable {
    private let values = Mutex<[Int]>([])
    func withLock<R>(_ body: (inout [Int]) -> R) -> R { values.withLock { body(&$0) } }
}
#endif

let counter = Counter()
let threads = (0..<4).map { k in
    Thread { for i in 0..<20_000 { counter.withLock { $0.append(i + k); if i % 100 == 0 { usleep(50) } } } }
}
threads.forEach { $0.start() }
while counter.withLock({ $0.count }) < 80_000 { usleep(10_000) }
print(counter.withLock { $0.count })
