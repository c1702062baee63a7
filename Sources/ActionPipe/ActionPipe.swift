// The umbrella module: `import ActionPipe` brings every part. An app that needs one part
// may import that module alone (`import ActionPipeBus`); the parts do not depend on each
// other, only on the concurrency primitives (`ActionPipeConcurrency`, never re-exported) and
// the shared vocabulary (`ActionPipeShared`, re-exported by each part and here).
@_exported import ActionPipeBus
@_exported import ActionPipeCore
@_exported import ActionPipePlumbing
@_exported import ActionPipeShared
@_exported import ActionPipeState
@_exported import ActionPipeTree
