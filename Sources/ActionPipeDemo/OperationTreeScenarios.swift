import ActionPipe

/// The scenarios of the operation tree (seed 003, DRBOperationTree).
let operationTreeScenarios: [Scenario] = []
