import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plug-in that provides the package's macros.
@main
struct ActionPipeMacrosPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [
        ObservableStateMacro.self, StateTrackedMacro.self, StateIgnoredMacro.self,
    ]
}
