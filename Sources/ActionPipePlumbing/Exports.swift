// Every part re-exports the kernel's small public vocabulary (``NestingLimitError``), so an
// app that imports this part alone can name what its API returns.
@_exported import ActionPipeConcurrency
