import SwiftDiagnostics
import SwiftSyntax

/// A stored `var` that the macro turns into an observed property: its name, its type, its
/// access level.
struct TrackedProperty {
    /// What the macro does with a member.
    enum Classification {
        /// Observed: storage, accessors and projection are generated.
        case tracked(TrackedProperty)
        /// Left as written: a `let`, a computed or static property, `@StateIgnored`.
        case untouched
        /// Not supported, with the reasons.
        case invalid([Diagnostic])
    }

    /// The property's name, as written (without backticks).
    let name: String
    /// The value's type: the annotation, or the type read from the initial value.
    let type: TypeSyntax
    /// `public`, `package`, `internal`, `fileprivate` or `private`, when written: the
    /// projection's access level (a `private(set)` limits only the setter, which the
    /// projection lacks).
    let accessLevel: String?
    /// Whether the property is initialized where it is declared: it has an initial value, or
    /// its type is spelled `T?`, which starts as `nil`. Its `let` storage is then initialized
    /// there, once, and no initializer may assign the property.
    let isInitializedAtDeclaration: Bool

    /// The generated storage's name: `_name`, as a property wrapper's.
    var storageName: String { "_\(name)" }

    /// Reads a member: whether the macro tracks it, leaves it alone, or cannot take it.
    static func classify(_ variable: VariableDeclSyntax) -> Classification {
        guard variable.bindingSpecifier.tokenKind == .keyword(.var) else { return .untouched }
        let modifiers = variable.modifiers
        if modifiers.contains(where: { $0.isOne(of: [.static, .class]) }) { return .untouched }
        if variable.attributes.contains(where: { $0.attributeName == "StateIgnored" }) {
            return .untouched
        }
        // Computed properties are left as they are; a stored one with observers is not.
        if let binding = variable.bindings.first, let accessors = binding.accessorBlock {
            guard accessors.hasOnlyObservers else { return .untouched }
            return .invalid([
                Diagnostic(node: accessors, message: MacroDiagnostic.propertyObservers)
            ])
        }

        var diagnostics: [Diagnostic] = []
        for modifier in modifiers {
            if modifier.isOne(of: [.lazy]) {
                diagnostics.append(
                    Diagnostic(node: modifier, message: MacroDiagnostic.unsupportedModifier("lazy"))
                )
            } else if modifier.isOne(of: [.weak, .unowned]) {
                diagnostics.append(
                    Diagnostic(
                        node: modifier,
                        message: MacroDiagnostic.unsupportedModifier(modifier.name.text)))
            }
        }
        for attribute in variable.attributes {
            guard case .attribute(let attribute) = attribute,
                let name = attribute.simpleName, name.first?.isUppercase == true,
                !allowedAttributes.contains(name)
            else { continue }
            diagnostics.append(
                Diagnostic(node: attribute, message: MacroDiagnostic.propertyWrapper(name)))
        }
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
            let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
        else {
            diagnostics.append(
                Diagnostic(node: variable.bindings, message: MacroDiagnostic.onePropertyPerVar))
            return .invalid(diagnostics)
        }
        let name = identifier.identifier.identifier?.name ?? identifier.identifier.text
        let type: TypeSyntax
        if let annotation = binding.typeAnnotation {
            // Without an initial value, the class's initializers assign it (through the
            // generated init accessor), as they would a stored property.
            type = annotation.type.trimmed
        } else if let initializer = binding.initializer {
            guard let inferred = inferType(of: initializer.value) else {
                diagnostics.append(
                    Diagnostic(
                        node: initializer.value, message: MacroDiagnostic.typeNotInferred(name)))
                return .invalid(diagnostics)
            }
            type = inferred
        } else {
            diagnostics.append(
                Diagnostic(node: binding, message: MacroDiagnostic.noTypeNoValue(name)))
            return .invalid(diagnostics)
        }
        guard diagnostics.isEmpty else { return .invalid(diagnostics) }
        let access = modifiers.first { $0.detail == nil && $0.isOne(of: accessKeywords) }
        return .tracked(
            TrackedProperty(
                name: name, type: type, accessLevel: access?.name.text,
                isInitializedAtDeclaration: binding.initializer != nil
                    || type.is(OptionalTypeSyntax.self)
                    || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)))
    }

    /// Attributes that are not property wrappers and that the generated accessors keep
    /// meaning with.
    static let allowedAttributes: Set<String> = ["MainActor", "StateTracked", "StateIgnored"]

    /// The access-level modifiers.
    static let accessKeywords: [Keyword] = [.public, .package, .internal, .fileprivate, .private]

    /// The type of an initial value, when its spelling says it: a literal (`0`, `-1.5`,
    /// `""`, `true`), an initializer call (`Date()`, `Set<Int>()`, `[String]()`,
    /// `Foo.Bar.init(x)`), or `value as Type`. Anything else needs an annotation: the macro
    /// sees syntax, not types.
    static func inferType(of value: ExprSyntax) -> TypeSyntax? {
        if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if value.is(FloatLiteralExprSyntax.self) { return "Double" }
        if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if value.is(StringLiteralExprSyntax.self) { return "String" }
        if let prefix = value.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            if prefix.expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
            if prefix.expression.is(FloatLiteralExprSyntax.self) { return "Double" }
            return nil
        }
        if let sequence = value.as(SequenceExprSyntax.self) {
            // `x as T` arrives unfolded: the value, `as`, the type.
            let elements = Array(sequence.elements)
            guard elements.count == 3, let cast = elements[1].as(UnresolvedAsExprSyntax.self),
                cast.questionOrExclamationMark == nil,
                let type = elements[2].as(TypeExprSyntax.self)
            else { return nil }
            return type.type.trimmed
        }
        if let call = value.as(FunctionCallExprSyntax.self) {
            var callee = call.calledExpression
            if let member = callee.as(MemberAccessExprSyntax.self),
                member.declName.baseName.tokenKind == .keyword(.`init`), let base = member.base
            {
                callee = base
            }
            return typeSpelled(by: callee)
        }
        return nil
    }

    /// The type an expression names, when it names one: `Foo`, `Foo.Bar`, `Set<Int>`,
    /// `[Int]`, `[String: Int]`.
    static func typeSpelled(by expression: ExprSyntax) -> TypeSyntax? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            return name.first?.isUppercase == true ? TypeSyntax(stringLiteral: name) : nil
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base,
            typeSpelled(by: base) != nil, member.declName.baseName.text.first?.isUppercase == true
        {
            return TypeSyntax(stringLiteral: member.trimmedDescription)
        }
        if let specialized = expression.as(GenericSpecializationExprSyntax.self),
            typeSpelled(by: specialized.expression) != nil
        {
            return TypeSyntax(stringLiteral: specialized.trimmedDescription)
        }
        if let array = expression.as(ArrayExprSyntax.self), array.elements.count == 1,
            let element = array.elements.first, typeSpelled(by: element.expression) != nil
        {
            return TypeSyntax(stringLiteral: array.trimmedDescription)
        }
        if let dictionary = expression.as(DictionaryExprSyntax.self),
            case .elements(let elements) = dictionary.content, elements.count == 1,
            let element = elements.first, typeSpelled(by: element.key) != nil,
            typeSpelled(by: element.value) != nil
        {
            return TypeSyntax(stringLiteral: dictionary.trimmedDescription)
        }
        return nil
    }
}

extension DeclModifierSyntax {
    /// Whether the modifier is one of `keywords`.
    func isOne(of keywords: [Keyword]) -> Bool {
        keywords.contains { name.tokenKind == .keyword($0) }
    }
}

extension AttributeSyntax {
    /// The attribute's name without its module (`Observed` for `@ActionPipe.Observed`).
    var simpleName: String? {
        if let identifier = attributeName.as(IdentifierTypeSyntax.self) {
            return identifier.name.text
        }
        return attributeName.as(MemberTypeSyntax.self)?.name.text
    }
}

extension AttributeListSyntax.Element {
    /// The attribute's name without its module; nil for an `#if` inside the list.
    var attributeName: String? {
        guard case .attribute(let attribute) = self else { return nil }
        return attribute.simpleName
    }
}

extension AccessorBlockSyntax {
    /// Whether the block holds only `willSet` / `didSet`: a stored property with observers.
    var hasOnlyObservers: Bool {
        guard case .accessors(let list) = accessors else { return false }
        return list.allSatisfy {
            $0.accessorSpecifier.tokenKind == .keyword(.willSet)
                || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
        }
    }
}

extension TrackedProperty {
    /// The assignments to the property in `type`'s initializers (`self.name = …`, or `name = …`
    /// where no parameter is called `name`): each would initialize the `let` storage a second
    /// time when the property is initialized at its declaration.
    func assignments(in type: some DeclGroupSyntax) -> [ExprSyntax] {
        type.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }
            .flatMap { initializer -> [ExprSyntax] in
                let shadowed = initializer.signature.parameterClause.parameters.contains {
                    ($0.secondName ?? $0.firstName).text == name
                }
                guard let body = initializer.body else { return [] }
                let finder = AssignmentFinder(name: name, matchesBareName: !shadowed)
                finder.walk(body)
                return finder.targets
            }
    }
}

/// Finds `self.name = …` (and `name = …`) in an initializer's body, outside nested closures
/// and functions, which run later.
private final class AssignmentFinder: SyntaxVisitor {
    let name: String
    let matchesBareName: Bool
    var targets: [ExprSyntax] = []

    init(name: String, matchesBareName: Bool) {
        self.name = name
        self.matchesBareName = matchesBareName
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count >= 3, elements[1].is(AssignmentExprSyntax.self),
            isProperty(elements[0])
        {
            targets.append(elements[0])
        }
        return .visitChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    private func isProperty(_ target: ExprSyntax) -> Bool {
        if let member = target.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
        {
            return member.declName.baseName.text == name
        }
        return matchesBareName && target.as(DeclReferenceExprSyntax.self)?.baseName.text == name
    }
}
