/// A typed action: the Swift form of a selector, with its kind, argument types and result
/// type. Declare actions through its aliases ``Action``, ``ThrowingAction`` and
/// ``AsyncAction``, as computed properties of ``Actions``.
///
/// An action's identity is where its `.init()` is written (file, line, column), its name
/// and its type: write `.init()` in the declaring property itself. Two properties returning
/// one helper's descriptor are one action (registering both reports an
/// `actionIdentityClash` diagnostic). Identity by site lets the optimiser fold a call's
/// key path into a direct read: `pipe.someFunc(1, nil)` creates no key path at run time.
public struct ActionDescriptor<Kind, each Argument, Result>: Sendable {
    /// The action's name in traces: by default, the name of the declaring property.
    public let name: String
    @usableFromInline let _file: StaticString
    @usableFromInline let _line: UInt
    @usableFromInline let _column: UInt

    /// Creates the action's descriptor; write it as `.init()` in the declaring property.
    ///
    /// `name` is the name in traces (the property's by default), the same at every read;
    /// `file`, `line` and `column` say where the descriptor is created: leave the defaults.
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
