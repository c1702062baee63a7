import ActionPipe

extension Actions {
    /// The README's `- (id)someFuncWithNumber:(NSInteger)number object:(id)objc`.
    var tSomeFunc: Action<Int, Any?, Any> { .init() }
    /// The README's `- (CGFloat)someFuncWithNumber:object:` of the first example.
    var tNumberFunc: Action<Int, Any?, Double> { .init() }
    /// The README's `- (void)someFunc2WithNumber:(CGSize)size object:(id)objc`.
    var tSomeFunc2: Action<Size, String, Void> { .init() }
    /// The README's `- (void)someFunc3`.
    var tSomeFunc3: Action<Void> { .init() }
    /// One argument, one result.
    var tPing: Action<Int, Int> { .init() }
    /// Another one-argument action, for calls made from inside handlers.
    var tOther: Action<Int, Int> { .init() }
    /// One optional argument.
    var tMaybe: Action<Int?, Int> { .init() }
    /// One argument of any type.
    var tAnything: Action<Any, String> { .init() }
    /// Two arguments of the same type, for rewriting by position.
    var tPair: Action<Int, Int, String> { .init() }
    /// Two string arguments.
    var tWords: Action<String, String, String> { .init() }
    /// An optional result.
    var tOptional: Action<Int, String?> { .init() }
    /// No arguments, an `Int` result.
    var tValue: Action<Int> { .init() }
    /// A recursive action.
    var tRecurse: Action<Int, Int> { .init() }
    /// The stress tests' action.
    var tStress: Action<Int, Int> { .init() }
    /// The trigger tests' action.
    var tLoad: Action<String, String> { .init() }
    /// An action with a custom trace name.
    var tNamed: Action<Int, Int> { .init(name: "custom name") }
    /// Actions used only by the concurrent first-use test, so that their first use races.
    var tFresh0: Action<Int, Int> { .init() }
    var tFresh1: Action<Int, Int> { .init() }
    var tFresh2: Action<Int, Int> { .init() }
    var tFresh3: Action<Int, Int> { .init() }
    var tFresh4: Action<Int, Int> { .init() }
    var tFresh5: Action<Int, Int> { .init() }
    var tFresh6: Action<Int, Int> { .init() }
    var tFresh7: Action<Int, Int> { .init() }
}
