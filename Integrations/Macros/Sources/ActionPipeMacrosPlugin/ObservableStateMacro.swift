import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ObservableState` on a final class: marks each eligible stored `var` with `@StateTracked`
/// (which turns it into a computed property over a generated `let` storage) and adds the
/// `ObservableState` and `Sendable` conformances the class lacks.
///
/// The storage is a `let`, so the compiler checks the class's `Sendable` conformance: the
/// reason for the macro (a property wrapper's storage is a `var`, which forces
/// `@unchecked Sendable`).
public enum ObservableStateMacro {
    /// The attribute added to each property the macro tracks.
    static let trackedAttribute: AttributeSyntax = "@StateTracked"
}

extension ObservableStateMacro: MemberAttributeMacro {
    /// `@StateTracked` on each stored `var` the macro turns into an observed property; a
    /// diagnostic for each `var` it cannot.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        // The declaration's own diagnostic (extension role) covers a struct, an enum or a
        // non-final class: tracking its members would only add errors after it.
        guard let classDecl = declaration.as(ClassDeclSyntax.self), classDecl.isFinal,
            let variable = member.as(VariableDeclSyntax.self)
        else { return [] }
        switch TrackedProperty.classify(variable) {
        case .tracked(let property):
            // Still tracked: the compiler's own error then follows this clearer one.
            if property.isInitializedAtDeclaration {
                for target in property.assignments(in: declaration) {
                    context.diagnose(
                        Diagnostic(
                            node: target,
                            message: MacroDiagnostic.assignedTwice(
                                property.name, type: property.type.trimmedDescription)))
                }
            }
            return [trackedAttribute]
        case .untouched: return []
        case .invalid(let diagnostics):
            diagnostics.forEach(context.diagnose)
            return []
        }
    }
}

extension ObservableStateMacro: ExtensionMacro {
    /// `extension Name: ObservableState, Sendable {}` with the conformances the class lacks;
    /// nothing, and a diagnostic, when the declaration is not a final class.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(
                Diagnostic(node: node, message: MacroDiagnostic.notAClass(declaration.kindName)))
            return []
        }
        guard classDecl.isFinal else {
            let keyword = classDecl.classKeyword
            context.diagnose(
                Diagnostic(
                    node: keyword,
                    message: MacroDiagnostic.notFinal,
                    fixIt: .replace(
                        message: MacroFixIt.addFinal,
                        oldNode: keyword,
                        newNode: TokenSyntax(
                            .identifier("final class"), leadingTrivia: keyword.leadingTrivia,
                            trailingTrivia: keyword.trailingTrivia, presence: .present)
                    )))
            return []
        }
        guard !protocols.isEmpty else { return [] }
        let list = protocols.map(\.trimmedDescription).joined(separator: ", ")
        return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: list) {}")]
    }
}

/// `@StateTracked` on a stored `var`: its accessors (init, get, set, `_modify`) and its peers
/// (the `let` storage `_name` and the projection `$name`). `@ObservableState` applies it;
/// written by hand, it checks the property the same way.
public enum StateTrackedMacro {}

extension StateTrackedMacro: AccessorMacro {
    /// The init accessor that creates the storage from the initial value, and get, set and
    /// `_modify` forwarding to the storage's `value`: `_modify` keeps `count += 1` one atomic
    /// step.
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self) else { return [] }
        switch TrackedProperty.classify(variable) {
        case .tracked(let property):
            let name = property.name
            let storage = property.storageName
            return [
                """
                @storageRestrictions(initializes: \(raw: storage))
                init(initialValue) {
                    \(raw: storage) = ObservedProperty(initialValue, label: \(literal: name))
                }
                """,
                """
                get {
                    \(raw: storage).value
                }
                """,
                """
                set {
                    \(raw: storage).value = newValue
                }
                """,
                """
                _modify {
                    yield &\(raw: storage).value
                }
                """,
            ]
        case .untouched:
            return []
        case .invalid(let diagnostics):
            diagnostics.forEach(context.diagnose)
            return []
        }
    }
}

extension StateTrackedMacro: PeerMacro {
    /// The storage, `private let _name: ObservedProperty<T>`, and the projection
    /// `$name`, with the property's access level.
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        // The accessor role diagnoses; reporting again here would double each message.
        guard let variable = declaration.as(VariableDeclSyntax.self),
            case .tracked(let property) = TrackedProperty.classify(variable)
        else { return [] }
        let access = property.accessLevel.map { "\($0) " } ?? ""
        return [
            "private let \(raw: property.storageName): ObservedProperty<\(property.type)>",
            """
            /// The observable property behind `\(raw: property.name)`: observe it, stream its values.
            \(raw: access)var $\(raw: property.name): ObservedProperty<\(property.type)> {
                \(raw: property.storageName)
            }
            """,
        ]
    }
}

/// `@StateIgnored`: leaves a stored `var` of an `@ObservableState` class as it is written (the
/// class's `Sendable` check then applies to it: a plain `var` is not `Sendable`).
public enum StateIgnoredMacro: PeerMacro {
    /// Nothing: the attribute is a marker that `@ObservableState` reads.
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

extension ClassDeclSyntax {
    /// Whether the class is declared `final`: only a final class can have a checked
    /// `Sendable` conformance.
    var isFinal: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.final) }
    }
}

extension DeclGroupSyntax {
    /// "a struct", "an enum", ...: the kind of declaration, for a diagnostic.
    var kindName: String {
        switch Syntax(self).kind {
        case .structDecl: "a struct"
        case .enumDecl: "an enum"
        case .actorDecl: "an actor"
        case .protocolDecl: "a protocol"
        case .extensionDecl: "an extension"
        default: "this declaration"
        }
    }
}
