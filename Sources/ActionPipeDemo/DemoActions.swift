import ActionPipe
import Foundation

// The actions of the seed 002 README (ZZActionPipe), declared the way Objective-C declares
// selectors in a protocol. The last generic argument is the result; the others are arguments.
extension Actions {
    /// `- (CGFloat)someFuncWithNumber:(NSInteger)number object:(id)objc;`
    var someFuncWithNumber: Action<Int, Any?, Double> { .init() }

    /// `- (void)someFunc2WithNumber:(CGSize)size object:(id)objc;`
    var someFunc2WithNumber: Action<Size, String, Void> { .init() }

    /// `- (void)someFunc3;`
    var someFunc3: Action<Void> { .init() }

    /// `- (id)someFuncWithNumber:(NSInteger)number object:(id)objc;` (the variant that returns
    /// an object, used by the conditions and process examples).
    var someFunc: Action<Int, Any?, Any> { .init() }

    /// `load(url, body) -> text`: the start → success flow of the re-trigger example.
    var load: Action<String, String?, String> { .init() }
}

/// A size, standing in for `CGSize`.
struct Size: Sendable, CustomStringConvertible {
    var width: Double
    var height: Double

    var description: String { "\(width) x \(height)" }
}

/// Typed side data keys (the original passes an untyped `JDTuple` instead).
enum DemoKeys {
    static let birthday = SideDataKey<Date>("birthday")
    static let label = SideDataKey<String>("label")
}

/// Fixed dates, so that the demo prints the same text on every run.
enum DemoDates {
    /// The seed's "Wed Jun 23 19:21:28 2021" (UTC+8).
    static let robotBirthday = Date(timeIntervalSince1970: 1_624_447_288)
    /// The seed's "Thu Jun 24 17:50:34 2021" (UTC+8).
    static let replacement = Date(timeIntervalSince1970: 1_624_528_234)
    /// A date that a caller passes in.
    static let callerBirthday = Date(timeIntervalSince1970: 946_684_800)
}

/// The object of the delegate example: its method answers the action.
final class TestObject: Sendable {
    let name: String

    init(name: String) { self.name = name }

    func someFunc(_ number: Int, _ object: Any?) -> Any? {
        print("  \(name) , \(number), \(describe(object))")
        return "answer of \(name)"
    }
}

/// A readable, deterministic description of a value: dates in ISO 8601 (UTC), plain
/// `NSObject`s without their address, `nil` for no value.
func describe(_ value: Any?) -> String {
    guard let value else { return "nil" }
    if let date = value as? Date { return date.formatted(.iso8601) }
    if type(of: value) == NSObject.self { return "<NSObject>" }
    return String(describing: value)
}

/// Prints what a call did: its trace (which pipe ran, which was skipped and why), and its
/// result, or the error that ended it and the pipe that threw it.
func show<Result>(_ report: ActionReport<Result>) {
    print("  trace:  \(report.trace)")
    if let error = report.error {
        let thrower = report.thrownBy.map { "thrown by \($0)" } ?? "no handler threw it"
        print("  error:  \(error) (\(thrower))")
    } else {
        print("  result: \(describe(report.value))")
    }
    if let stopper = report.stoppedBy {
        print("  stopped by: \(stopper)")
    }
}

/// Prints a step of a scenario.
func say(_ text: String) {
    print("  \(text)")
}
