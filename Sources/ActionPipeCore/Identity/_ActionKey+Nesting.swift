import ActionPipeConcurrency

extension _ActionKey {
    /// The error of a call of this action refused for nesting too deep.
    var _nestingError: NestingLimitError {
        NestingLimitError(refused: .call(action: name), depth: NestingLimitError.depthLimit + 1)
    }

    /// Reports a call of this action refused for nesting too deep.
    @usableFromInline @inline(never)
    func _reportTooDeep() { NestingLimitError._report(_nestingError) }
}
