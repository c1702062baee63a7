import ActionPipe
import Dispatch
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Actions {
    /// Calls itself with one less, without a base case below zero.
    fileprivate var nlDown: Action<Int, Int> { .init() }
    /// The throwing form.
    fileprivate var nlDownThrowing: ThrowingAction<Int, Int, TTFailure> { .init() }
    /// Publishes an `NLEvent`, for calls and publishes that alternate.
    fileprivate var nlBounce: Action<Int, Int> { .init() }
}

/// An event whose handler publishes it again, one level lower.
private struct NLEvent: BusEvent {
    let level: Int
}

/// Handlers that call or publish back into themselves without end get a typed error at a
/// documented depth instead of overflowing the stack (issue 18, item 6).
///
/// Serialized: reports from other threads go to the process-wide handler, which other suites'
/// specs reach too (a plumber's nested sends), so only this suite's actions and events count.
@Suite("Reliability: nesting limit of calls and publishes", .serialized)
struct NestingLimitTests {
    /// The nesting-limit errors of this suite's actions and events that `body` reports to
    /// ``Diagnostics`` (on any thread).
    func recordingReports(_ body: () throws -> Void) rethrows -> [NestingLimitError] {
        let before = TestDiagnostics.recorded(.nestingLimit).count
        try body()
        return TestDiagnostics.recorded(.nestingLimit).dropFirst(before).compactMap {
            $0.error as? NestingLimitError
        }.filter { error in
            switch error.refused {
            case .call(let action): action.hasPrefix("nl")
            case .publish(let eventType): eventType.contains("NLEvent")
            case .packet: false
            }
        }
    }

    @Test("10,000 nested calls end at the limit with a typed error, and every level unwinds")
    func deepCalls() {
        let pipe = ActionPipe(name: "down")
        pipe.on(\.nlDown) { [weak pipe] process in
            (pipe?.nlDown(process.arguments - 1) ?? 0) + 1
        }
        var value: Int?
        let reports = recordingReports { value = pipe.nlDown(10_000) }
        // Levels 1...100 ran; the 101st call was refused (nil, counted as 0).
        #expect(value == NestingLimitError.depthLimit)
        #expect(reports.count == 1)
        #expect(reports.first?.refused == .call(action: "nlDown"))
        #expect(reports.first?.depth == NestingLimitError.depthLimit + 1)
        // The thread's depth is back to zero: a shallow call runs every level.
        let shallow = ActionPipe(name: "shallow")
        shallow.on(\.nlDown) { [weak shallow] process in
            process.arguments == 0 ? 0 : (shallow?.nlDown(process.arguments - 1) ?? -1000) + 1
        }
        #expect(
            shallow.nlDown(NestingLimitError.depthLimit - 1) == NestingLimitError.depthLimit - 1)
    }

    @Test("a report of a call nested too deep carries the error; no handler ran")
    func reportCarriesTheError() {
        let pipe = ActionPipe(name: "down")
        let innermost = TestLock<ActionReport<Int>?>(nil)
        pipe.on(\.nlDown) { [weak pipe] process in
            guard let pipe else { return -1 }
            let report = pipe.nlDown.report(process.arguments - 1)
            if report.error != nil { innermost.withLock { $0 = report } }
            return (report.value ?? 0) + 1
        }
        let reports = recordingReports { _ = pipe.nlDown(1) }
        #expect(reports.isEmpty)  // a report is the answer: nothing else is reported
        let report = innermost.withLock { $0 }
        #expect(report?.runCount == 0)
        #expect(report?.value == nil)
        let error = report?.error as? NestingLimitError
        #expect(error?.refused == .call(action: "nlDown"))
        #expect("\(error!)".contains("limit \(NestingLimitError.depthLimit)"))
    }

    @Test("a throwing action nested too deep returns nil without throwing, and is reported")
    func throwingCalls() throws {
        let pipe = ActionPipe(name: "down")
        pipe.on(\.nlDownThrowing).handle { [weak pipe] (process) throws(TTFailure) in
            (try pipe?.nlDownThrowing(process.arguments - 1) ?? 0) + 1
        }
        var value: Int?
        let reports = try recordingReports { value = try pipe.nlDownThrowing(10_000) }
        #expect(value == NestingLimitError.depthLimit)
        #expect(reports.map(\.refused) == [.call(action: "nlDownThrowing")])
    }

    @Test("10,000 nested publishes end at the limit; the refused one is in its result")
    func deepPublishes() {
        let bus = EventBus(name: "deep")
        let handled = Counter()
        let refused = TestLock<[BusPublishResult]>([])
        bus.subscribe(BusTopic(NLEvent.self)) { event in
            handled.increment()
            let result = bus.publish(NLEvent(level: event.level + 1))
            if result.nestingError != nil { refused.withLock { $0.append(result) } }
        }
        let reports = recordingReports { bus.publish(NLEvent(level: 0)) }
        #expect(handled.value == NestingLimitError.depthLimit)
        #expect(reports.map(\.refused) == [.publish(eventType: "\(NLEvent.self)")])
        let results = refused.withLock { $0 }
        #expect(results.count == 1)
        #expect(results.first?.isEmpty == true)
        #expect(results.first?.nestingError?.depth == NestingLimitError.depthLimit + 1)
        // The depth is back to zero: the next publish reaches its subscriber.
        #expect(bus.publish(NLEvent(level: NestingLimitError.depthLimit)).handledCount == 1)
    }

    @Test("calls and publishes that alternate count together")
    func callsAndPublishesTogether() {
        let bus = EventBus(name: "bounce")
        let pipe = ActionPipe(name: "bounce")
        let calls = Counter()
        let publishes = Counter()
        pipe.on(\.nlBounce) { process in
            calls.increment()
            bus.publish(NLEvent(level: process.arguments + 1))
            return 0
        }
        bus.subscribe(BusTopic(NLEvent.self)) { [weak pipe] event in
            publishes.increment()
            _ = pipe?.nlBounce(event.level + 1)
        }
        let reports = recordingReports { _ = pipe.nlBounce(0) }
        #expect(calls.value + publishes.value == NestingLimitError.depthLimit)
        #expect(reports.count == 1)
    }

    @Test(
        "endless recursion on a 512 KiB thread ends with the error, not a crash",
        .enabled(
            if: !sanitizerIsActive
                && NestingLimitError.depthLimit * bytesPerNestedCall < 480 * 1024,
            "this build's frames are too large for 512 KiB (a sanitizer's are)"))
    func smallStack() throws {
        // Apple platforms give secondary threads 512 KiB; a debug build's frames are the
        // largest a user builds, and the tests run in debug.
        let pipe = ActionPipe(name: "small")
        pipe.on(\.nlDown) { [weak pipe] process in
            (pipe?.nlDown(process.arguments - 1) ?? 0) + 1
        }
        let bus = EventBus(name: "small")
        bus.subscribe(BusTopic(NLEvent.self)) { event in
            bus.publish(NLEvent(level: event.level + 1))
        }
        let results = TestLock<(Int?, Int)>((nil, 0))
        let reports = try recordingReports {
            try runOnThread(stackSize: 512 * 1024) {
                let value = pipe.nlDown(10_000)
                bus.publish(NLEvent(level: 0))
                results.withLock { $0 = (value, 1) }
            }
        }
        #expect(results.withLock { $0.0 } == NestingLimitError.depthLimit)
        #expect(results.withLock { $0.1 } == 1)
        #expect(reports.count == 2)
        print(
            "NestingLimitTests: \(bytesPerNestedCall) stack bytes per nested call,",
            "sanitizer: \(sanitizerIsActive)")
    }
}

/// Whether the tests run under AddressSanitizer or ThreadSanitizer (found by their runtime's
/// entry point): their frames are larger, and AddressSanitizer's locals may live off the
/// stack, where `bytesPerNestedCall` cannot see them.
private let sanitizerIsActive: Bool = {
    #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
        let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return dlsym(everywhere, "__asan_init") != nil || dlsym(everywhere, "__tsan_init") != nil
}()

/// The stack bytes one nested call takes in this build: a debug build's are what a user
/// gets at worst; a sanitizer's are several times larger.
private let bytesPerNestedCall: Int = {
    let pipe = ActionPipe(name: "measure")
    let addresses = TestLock<[Int]>([])
    pipe.on(\.nlDown) { [weak pipe] process in
        var local = 0
        withUnsafeMutablePointer(to: &local) { address in
            addresses.withLock { $0.append(Int(bitPattern: address)) }
        }
        return process.arguments == 0 ? 0 : (pipe?.nlDown(process.arguments - 1) ?? 0) + 1
    }
    _ = pipe.nlDown(20)
    let recorded = addresses.withLock { $0 }
    return (recorded[5] - recorded[15]) / 10
}()

/// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it.
private func runOnThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) throws {
    final class Context: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    try #require(pthread_attr_setstacksize(&attributes, stackSize) == 0)
    let context = Unmanaged.passRetained(Context(body)).toOpaque()
    #if canImport(Darwin)
        var thread: pthread_t?
    #else
        var thread = pthread_t()
    #endif
    let status = pthread_create(
        &thread, &attributes,
        { raw in
            #if canImport(Darwin)
                let raw: UnsafeMutableRawPointer? = raw
            #endif
            Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context)
    try #require(status == 0)
    #if canImport(Darwin)
        pthread_join(thread!, nil)
    #else
        pthread_join(thread, nil)
    #endif
}
