import SwiftDiagnostics

/// The macros' errors: each says what is wrong and what to write instead.
enum MacroDiagnostic: DiagnosticMessage {
    case notAClass(String)
    case notFinal
    case noTypeNoValue(String)
    case typeNotInferred(String)
    case unsupportedModifier(String)
    case propertyWrapper(String)
    case propertyObservers
    case onePropertyPerVar
    case assignedTwice(String, type: String)

    var message: String {
        switch self {
        case .notAClass(let kind):
            "'@ObservableState' applies to a final class, not to \(kind): its observed "
                + "properties are shared by reference"
        case .notFinal:
            "'@ObservableState' needs a final class: a subclass could add mutable state, so "
                + "the compiler could not check 'Sendable'"
        case .noTypeNoValue(let name):
            "'\(name)' needs a type annotation or an initial value: '@ObservableState' "
                + "generates storage of its type"
        case .typeNotInferred(let name):
            "'@ObservableState' cannot read the type of '\(name)' from its initial value; "
                + "write it: 'var \(name): Type = …'"
        case .unsupportedModifier(let modifier):
            "'@ObservableState' cannot observe a '\(modifier)' property; mark it "
                + "'@StateIgnored' to keep it as it is"
        case .propertyWrapper(let wrapper):
            "'@ObservableState' cannot observe a property wrapped with '@\(wrapper)': "
                + "remove the wrapper (the macro makes the property observable), or mark it "
                + "'@StateIgnored'"
        case .propertyObservers:
            "'@ObservableState' properties take no 'willSet' or 'didSet': observe the "
                + "property's projection ('$name.observe { … }') instead"
        case .assignedTwice(let name, let type):
            "'\(name)' is initialized where it is declared, so an initializer cannot assign it "
                + "(its storage is a 'let'): declare it 'var \(name): "
                + "\(type.hasSuffix("?") ? "Optional<\(type.dropLast())>" : type)' and assign it "
                + "in every initializer"
        case .onePropertyPerVar:
            "'@ObservableState' observes one property per 'var': declare each on its own line"
        }
    }

    var diagnosticID: MessageID {
        MessageID(domain: "ActionPipeMacros", id: "\(self)".prefix { $0 != "(" }.description)
    }

    var severity: DiagnosticSeverity { .error }
}

/// The fix-its the diagnostics offer.
enum MacroFixIt: FixItMessage {
    case addFinal

    var message: String {
        switch self {
        case .addFinal: "Add 'final'"
        }
    }

    var fixItID: MessageID {
        MessageID(domain: "ActionPipeMacros", id: "addFinal")
    }
}
