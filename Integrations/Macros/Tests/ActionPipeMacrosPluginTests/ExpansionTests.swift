import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosTestSupport
import XCTest

@testable import ActionPipeMacrosPlugin

/// The macros under test, with the conformances the compiler would ask the extension role
/// for when the class declares neither.
private let macros: [String: MacroSpec] = [
    "ObservableState": MacroSpec(
        type: ObservableStateMacro.self, conformances: ["ObservableState", "Sendable"]),
    "StateTracked": MacroSpec(type: StateTrackedMacro.self),
    "StateIgnored": MacroSpec(type: StateIgnoredMacro.self),
]

/// The expansions, source to source. (The test support drops a tracked property's initial
/// value from the printed source; the compiler keeps it and passes it to the init accessor.)
final class ExpansionTests: XCTestCase {
    func testStoredVarsBecomeObservedPropertiesAndTheRestIsLeftAlone() {
        assertMacroExpansion(
            """
            @ObservableState
            final class Profile {
                var name = ""
                public var age: Int = 0
                let id: Int
                var summary: String { name }
                static var count = 0
                @StateIgnored nonisolated(unsafe) var cache = 0
            }
            """,
            expandedSource: """
                final class Profile {
                    var name {
                        @storageRestrictions(initializes: _name)
                        init(initialValue) {
                            _name = ObservedProperty(initialValue, label: "name")
                        }
                        get {
                            _name.value
                        }
                        set {
                            _name.value = newValue
                        }
                        _modify {
                            yield &_name.value
                        }
                    }

                    private let _name: ObservedProperty<String>

                    /// The observable property behind `name`: observe it, stream its values.
                    var $name: ObservedProperty<String> {
                        _name
                    }
                    public var age: Int {
                        @storageRestrictions(initializes: _age)
                        init(initialValue) {
                            _age = ObservedProperty(initialValue, label: "age")
                        }
                        get {
                            _age.value
                        }
                        set {
                            _age.value = newValue
                        }
                        _modify {
                            yield &_age.value
                        }
                    }

                    private let _age: ObservedProperty<Int>

                    /// The observable property behind `age`: observe it, stream its values.
                    public var $age: ObservedProperty<Int> {
                        _age
                    }
                    let id: Int
                    var summary: String { name }
                    static var count = 0
                    nonisolated(unsafe) var cache = 0
                }

                extension Profile: ObservableState, Sendable {
                }
                """,
            macroSpecs: macros
        )
    }

    func testDeclaredConformancesAreNotRepeated() {
        assertMacroExpansion(
            """
            @ObservableState
            final class Empty: ObservableState, Sendable {
            }
            """,
            expandedSource: """
                final class Empty: ObservableState, Sendable {
                }
                """,
            macroSpecs: [
                "ObservableState": MacroSpec(type: ObservableStateMacro.self, conformances: [])
            ]
        )
    }

    func testTypesReadFromInitialValues() {
        let cases: [(String, String?)] = [
            ("0", "Int"), ("-1", "Int"), ("1.5", "Double"), ("-0.5", "Double"),
            ("true", "Bool"), ("\"a\"", "String"), ("Date()", "Date"),
            ("Set<Int>()", "Set<Int>"), ("[String]()", "[String]"),
            ("[String: Int]()", "[String: Int]"), ("Foo.Bar.init(x: 1)", "Foo.Bar"),
            ("0 as UInt8", "UInt8"), ("nil", nil), ("makeValue()", nil), (".idle", nil),
            ("[1, 2]", nil), ("x as? Int", nil),
        ]
        for (source, expected) in cases {
            let expression = ExprSyntax(stringLiteral: source)
            XCTAssertEqual(
                TrackedProperty.inferType(of: expression)?.trimmedDescription, expected, source)
        }
    }
}

/// Each diagnostic: where it points and what it says.
final class DiagnosticTests: XCTestCase {
    func testStruct() {
        assertMacroExpansion(
            """
            @ObservableState
            struct Profile {
                var name = ""
            }
            """,
            expandedSource: """
                struct Profile {
                    var name = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@ObservableState' applies to a final class, not to a struct: its "
                        + "observed properties are shared by reference",
                    line: 1, column: 1)
            ],
            macroSpecs: macros
        )
    }

    func testEnum() {
        assertMacroExpansion(
            """
            @ObservableState
            enum Mode {
                case on
            }
            """,
            expandedSource: """
                enum Mode {
                    case on
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@ObservableState' applies to a final class, not to an enum: its "
                        + "observed properties are shared by reference",
                    line: 1, column: 1)
            ],
            macroSpecs: macros
        )
    }

    func testNonFinalClassOffersFinal() {
        assertMacroExpansion(
            """
            @ObservableState
            class Profile {
                var name = ""
            }
            """,
            expandedSource: """
                class Profile {
                    var name = ""
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@ObservableState' needs a final class: a subclass could add "
                        + "mutable state, so the compiler could not check 'Sendable'",
                    line: 2, column: 1, fixIts: [FixItSpec(message: "Add 'final'")])
            ],
            macroSpecs: macros,
            applyFixIts: ["Add 'final'"],
            fixedSource: """
                @ObservableState
                final class Profile {
                    var name = ""
                }
                """
        )
    }

    /// A class whose one member is `member`, and the diagnostic it gets.
    private func assertMember(
        _ member: String, message: String, column: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        assertMacroExpansion(
            """
            @ObservableState
            final class State {
                \(member)
            }
            """,
            expandedSource: """
                final class State {
                    \(member)
                }

                extension State: ObservableState, Sendable {
                }
                """,
            diagnostics: [DiagnosticSpec(message: message, line: 3, column: column)],
            macroSpecs: macros,
            file: file,
            line: line
        )
    }

    func testVarWithoutTypeOrValue() {
        assertMember(
            "var name",
            message: "'name' needs a type annotation or an initial value: '@ObservableState' "
                + "generates storage of its type",
            column: 9)
    }

    func testTypeNotReadable() {
        assertMember(
            "var name = makeName()",
            message: "'@ObservableState' cannot read the type of 'name' from its initial value; "
                + "write it: 'var name: Type = …'",
            column: 16)
    }

    func testLazy() {
        assertMember(
            "lazy var name = \"\"",
            message: "'@ObservableState' cannot observe a 'lazy' property; mark it "
                + "'@StateIgnored' to keep it as it is",
            column: 5)
    }

    func testWeak() {
        assertMember(
            "weak var delegate: AnyObject?",
            message: "'@ObservableState' cannot observe a 'weak' property; mark it "
                + "'@StateIgnored' to keep it as it is",
            column: 5)
    }

    func testPropertyWrapper() {
        assertMember(
            "@Observed var name = \"\"",
            message: "'@ObservableState' cannot observe a property wrapped with '@Observed': "
                + "remove the wrapper (the macro makes the property observable), or mark it "
                + "'@StateIgnored'",
            column: 5)
    }

    func testPropertyObservers() {
        assertMember(
            "var name = \"\" { didSet {} }",
            message: "'@ObservableState' properties take no 'willSet' or 'didSet': observe the "
                + "property's projection ('$name.observe { … }') instead",
            column: 19)
    }

    func testTwoPropertiesInOneVar() {
        assertMember(
            "var first = \"\", last = \"\"",
            message: "'@ObservableState' observes one property per 'var': declare each on its "
                + "own line",
            column: 9)
    }

    func testInitializerAssigningAPropertyWithAnInitialValue() {
        assertMacroExpansion(
            """
            @ObservableState
            final class Account {
                var note: String?
                init(note: String?) {
                    self.note = note
                }
            }
            """,
            expandedSource: """
                final class Account {
                    var note: String? {
                        @storageRestrictions(initializes: _note)
                        init(initialValue) {
                            _note = ObservedProperty(initialValue, label: "note")
                        }
                        get {
                            _note.value
                        }
                        set {
                            _note.value = newValue
                        }
                        _modify {
                            yield &_note.value
                        }
                    }

                    private let _note: ObservedProperty<String?>

                    /// The observable property behind `note`: observe it, stream its values.
                    var $note: ObservedProperty<String?> {
                        _note
                    }
                    init(note: String?) {
                        self.note = note
                    }
                }

                extension Account: ObservableState, Sendable {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'note' is initialized where it is declared, so an initializer "
                        + "cannot assign it (its storage is a 'let'): declare it "
                        + "'var note: Optional<String>' and assign it in every initializer",
                    line: 5, column: 9)
            ],
            macroSpecs: macros
        )
    }
}
