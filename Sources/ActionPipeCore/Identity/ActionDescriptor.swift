/// A typed action: the Swift form of a selector, with its kind, argument types and result
/// type. You declare actions through its three aliases, ``Action``, ``ThrowingAction`` and
/// ``AsyncAction``, as computed properties of ``Actions``.
///
/// ```swift
/// extension Actions {
///     var someFunc: Action<Int, String?, Double> { .init() }           // (Int, String?) -> Double
///     var parse: ThrowingAction<String, Int, ParseError> { .init() }   // throws(ParseError)
///     var fetchTitle: AsyncAction<Int, String> { .init() }             // async throws
/// }
/// ```
///
/// An action carries no data but its name and where it is declared. That place (file,
/// line, column of the `.init()`) together with the name is the action's identity, so
/// write `.init()` in the declaring property itself: two properties that return the
/// descriptor of one shared helper would be one action (registering both stops the
/// program with a message naming them).
///
/// Identity by declaration site, rather than by the key path object, is what makes a
/// call cheap: the library reads the descriptor through the key path
/// (`Actions()[keyPath: action]`), which the optimiser folds into a direct read, so a
/// call `pipe.someFunc(1, nil)` never creates a key path at run time.
public struct ActionDescriptor<Kind, each Argument, Result>: Sendable {
    /// The action's name in traces: by default, the name of the declaring property.
    ///
    /// ```swift
    /// Actions().someFunc.name   // "someFunc"
    /// ```
    public let name: String
    @usableFromInline let _file: StaticString
    @usableFromInline let _line: UInt
    @usableFromInline let _column: UInt

    /// Creates the action's descriptor; write it as `.init()` in the declaring property,
    /// whose name becomes the action's name in traces.
    ///
    /// ```swift
    /// extension Actions { var ping: Action<Int, Int> { .init() } }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name shown in traces; defaults to the declaring property's. It must
    ///     be the same every time the property is read.
    ///   - file: Where the descriptor is created; leave the default.
    ///   - line: Where the descriptor is created; leave the default.
    ///   - column: Where the descriptor is created; leave the default.
    @inlinable
    public init(
        name: String = #function, file: StaticString = #fileID, line: UInt = #line,
        column: UInt = #column
    ) {
        self.name = name
        self._file = file
        self._line = line
        self._column = column
    }
}
