import MicCheckCall
import MicCheckTesting
import Testing

@Suite struct CallTimelineTests {
    @Test func aTimelineReadsSecondsSinceItBegan() {
        let clock = ManualClock(now: .seconds(7))
        let fromNow = CallTimeline(clock: clock)
        let fromZero = CallTimeline(clock: clock, start: .zero)
        #expect(fromNow.now == 0 && fromZero.now == 7)
        clock.advance(by: .milliseconds(1500))
        #expect(fromNow.now == 1.5 && fromZero.now == 8.5)
        clock.advance(by: .seconds(-3))
        #expect(fromNow.now == 1.5, "a manual clock never goes back")
        #expect(fromNow.seconds(at: .zero) == -7)
    }

    @Test func theSystemTimelineStartsAtZeroAndMovesOn() {
        let timeline = CallTimeline()
        let first = timeline.now
        let second = timeline.now
        #expect(first >= 0 && first < 1)
        #expect(second >= first)
    }

    @Test(.timeLimit(.minutes(1)))
    func aSleeperWakesOnlyWhenTheClockIsAdvancedPastItsDeadline() async throws {
        let clock = ManualClock()
        let woke = AsyncStream<Duration>.makeStream()
        let sleeper = Task {
            try await clock.sleep(until: OffsetInstant(offset: .seconds(2)))
            woke.continuation.yield(clock.now.offset)
        }
        var wakes = woke.stream.makeAsyncIterator()
        // Whenever the sleeper starts, its deadline is the same instant: before it, it sleeps or returns at once.
        for _ in 0..<19 {
            clock.advance(by: .milliseconds(100))
            await Task.yield()
        }
        #expect(clock.now.offset == .milliseconds(1900))
        clock.advance(by: .milliseconds(200))
        try await sleeper.value
        let wokeAt = await wakes.next()
        #expect(wokeAt == .milliseconds(2100), "woke on the advance past its deadline")
    }

    @Test func aCancelledSleeperThrows() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test(.timeLimit(.minutes(1)))
    func twoSleepersPassedInOneAdvanceBothWake() async throws {
        let clock = ManualClock()
        let woke = AsyncStream<Int>.makeStream()
        let late = Task {
            try await clock.sleep(until: OffsetInstant(offset: .seconds(3)))
            woke.continuation.yield(3)
        }
        let early = Task {
            try await clock.sleep(until: OffsetInstant(offset: .seconds(1)))
            woke.continuation.yield(1)
        }
        // Asleep (or, if a task starts late, already due) when the clock moves past both deadlines at once.
        try await Task.sleep(for: .milliseconds(50))
        clock.advance(by: .seconds(5))
        try await early.value
        try await late.value
        woke.continuation.finish()
        var order: [Int] = []
        for await k in woke.stream { order.append(k) }
        #expect(order.sorted() == [1, 3])
    }

    @Test func aSleepAlreadyDueReturnsAtOnce() async throws {
        let clock = ManualClock(now: .seconds(5))
        try await clock.sleep(until: OffsetInstant(offset: .seconds(3)))
        #expect(clock.now.offset == .seconds(5))
    }
}
