import ActionPipeConcurrency

extension _ActionKey {
    var _nestingError: NestingLimitError {
        NestingLimitError(refused: .call(action: name), depth: NestingLimitError.depthLimit + 1)
    }

    @usableFromInline @inline(never)
    func _reportTooDeep() { NestingLimitError._report(_nestingError) }
}
