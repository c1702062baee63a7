// Re-exported so an app that imports this part alone can name what its API returns.
@_exported import ActionPipeShared
