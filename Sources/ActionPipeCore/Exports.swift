// Every part re-exports the public vocabulary the parts share (``RegistrationToken``,
// ``Diagnostics``, ``NestingLimitError``, ...), so an app that imports this part alone can
// name what its API returns. The concurrency primitives are imported where they are used and
// never re-exported: they are `package`, no app can name them.
@_exported import ActionPipeShared
