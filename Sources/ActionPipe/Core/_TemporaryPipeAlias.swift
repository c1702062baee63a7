/// Temporary: removed once every file uses `ActionPipe`.
public typealias Pipe = ActionPipe
