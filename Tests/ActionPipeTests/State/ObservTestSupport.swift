import ActionPipe
import Synchronization
import Testing

/// The seed's top-image pipeline.
final class ObservImageState: ObservableState, @unchecked Sendable {
    @Observed("image.photoID") var photoID = ""
    @Observed("image.url") var url: String? = nil
}

/// The seed's photo-list pipeline.
final class ObservPhotoListState: ObservableState, @unchecked Sendable {
    @Observed("list.photos") var photos: [String] = []
    @Observed("list.selectedIndex") var selectedIndex = -1
}

/// The seed's interestingness pipeline: a tree of the two, the image replaceable.
final class ObservScreenState: ObservableState, @unchecked Sendable {
    @Observed("screen.image") var image = ObservImageState()
    let photoList = ObservPhotoListState()
}

/// A value that is not `Equatable`.
struct ObservOpaque: Sendable {
    let number: Int
}

/// An observer whose lifetime the leak tests watch.
final class ObservOwner: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// An actor that records what it was handed.
actor ObservRecorder {
    var values: [Int] = []
    func append(_ value: Int) { values.append(value) }
}

/// The cycle reports of every test (through ``TestDiagnostics``); each test reads the
/// reports for its own labels.
enum ObservCycleLog {
    static func install() { TestDiagnostics.install() }

    static func reports(for label: String) -> [ObservationCycleError] {
        TestDiagnostics.recorded(.observationCycle).compactMap {
            $0.error as? ObservationCycleError
        }.filter { $0.property == label }
    }
}

/// Waits (polling, bounded) until `condition` holds; returns whether it did.
///
/// Forty seconds, not a few: under ThreadSanitizer, with the stress suites running beside
/// it on 2 CPUs, a main-actor delivery once took more than ten. A delivery that never comes
/// still fails the test.
func observEventually(
    timeout: Duration = .seconds(40), _ condition: @Sendable () async -> Bool
) async -> Bool {
    await eventually(timeout: timeout, condition)
}
