/// A timeline of an operation tree run: when each attempt of each item ran, on which lane,
/// and how it ended; ``chromeTraceJSON`` writes it for Perfetto and `chrome://tracing`.
///
/// A slice takes the first free lane, so there are no more lanes than attempts that ran at
/// once. Each event is stamped when the recorder gets it (with a `TestClock`, advance the
/// clock only after the recorder has read the earlier events).
public struct OperationTreeTimeline: Sendable {
    /// How an attempt ended.
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The work produced an output.
        case produced
        /// The work failed and was tried again.
        case retried
        /// The work failed for the last time.
        case failed
        /// The run stopped (or the recording ended) while the attempt was running.
        case unfinished

        /// `produced`, `retried`, `failed` or `unfinished`.
        public var description: String {
            switch self {
            case .produced: "produced"
            case .retried: "retried"
            case .failed: "failed"
            case .unfinished: "unfinished"
            }
        }
    }

    /// One attempt of one item, from its `started` event to its `produced`, `retrying` or
    /// `failed`.
    public struct Slice: Sendable {
        /// The item the attempt worked on.
        public let item: OperationTreeItem
        /// The attempt's number, from 1.
        public let attempt: Int
        /// The lane it ran on, from 1 (the trace's thread id).
        public let lane: Int
        /// When it started, after the recorder's creation.
        public let start: Duration
        /// When it ended; `nil` while it runs.
        public internal(set) var end: Duration?
        /// How it ended; ``Outcome/unfinished`` while it runs.
        public internal(set) var outcome: Outcome
    }

    /// A retry or a failure, drawn as an instant.
    struct Mark: Sendable {
        let failure: OperationTreeFailure
        /// The delay before the retry; `nil` for a final failure.
        let delay: Duration?
        let time: Duration
        let lane: Int?
    }

    /// Every attempt recorded, in the order they started.
    public private(set) var slices: [Slice] = []
    var marks: [Mark] = []
    /// How many lanes the slices use.
    public var laneCount: Int { laneIsBusy.count }
    /// Where unfinished slices end.
    var latest: Duration = .zero
    /// The slice of each item's running attempt, by item id.
    private var running: [Int: Int] = [:]
    private var laneIsBusy: [Bool] = []
    private let now: @Sendable () -> Duration

    /// An empty timeline whose times count from now on `clock`, which stamps each event.
    ///
    /// - Complexity: O(1).
    public init(clock: some Clock<Duration> = ContinuousClock()) {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
    }

    /// Records `event` at the clock's current time.
    ///
    /// - Complexity: O(l) for l lanes, amortised.
    public mutating func record(_ event: OperationTreeEvent) {
        let time = now()
        latest = max(latest, time)
        switch event {
        case .started(let item, let attempt):
            let lane = laneIsBusy.firstIndex(of: false) ?? laneIsBusy.count
            if lane == laneIsBusy.count { laneIsBusy.append(true) } else { laneIsBusy[lane] = true }
            running[item.id] = slices.count
            slices.append(
                Slice(
                    item: item, attempt: attempt, lane: lane + 1, start: time, end: nil,
                    outcome: .unfinished))
        case .produced(let item, _):
            end(item.id, .produced, at: time)
        case .retrying(let failure, let delay):
            let lane = failure.item.flatMap { end($0.id, .retried, at: time) }
            marks.append(Mark(failure: failure, delay: delay, time: time, lane: lane))
        case .failed(let failure):
            let lane = failure.item.flatMap { end($0.id, .failed, at: time) }
            marks.append(Mark(failure: failure, delay: nil, time: time, lane: lane))
        case .finished:
            break
        }
    }

    /// Records every event of `events` as it arrives, until the stream finishes. Pass
    /// ``OperationTreeRun/events``: an ``OperationTreeRun/eventStream(buffering:)`` may miss
    /// the first events.
    ///
    /// - Complexity: O(l) per event for l lanes.
    public nonisolated(nonsending) mutating func record(
        _ events: AsyncStream<OperationTreeEvent>
    ) async {
        for await event in events { record(event) }
    }

    /// Closes the running attempt of item `id`; returns its lane.
    @discardableResult
    private mutating func end(_ id: Int, _ outcome: Outcome, at time: Duration) -> Int? {
        guard let index = running.removeValue(forKey: id) else { return nil }
        slices[index].end = time
        slices[index].outcome = outcome
        laneIsBusy[slices[index].lane - 1] = false
        return slices[index].lane
    }
}
