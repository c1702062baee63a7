// swift-format-ignore-file
// Two actions declared on one line (the formatter would split them): the column of each
// `.init()` tells them apart. Used by ActionIdentityTests.
import ActionPipe

extension Actions {
    var idLeft: Action<Int, Int> { .init() }; var idRight: Action<Int, Int> { .init() }
}
