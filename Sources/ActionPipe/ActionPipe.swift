// The umbrella module: `import ActionPipe` brings every part; an app may import one part
// alone (`import ActionPipeBus`).
@_exported import ActionPipeBus
@_exported import ActionPipeCore
@_exported import ActionPipePlumbing
@_exported import ActionPipeShared
@_exported import ActionPipeState
@_exported import ActionPipeTree
