import ActionPipe

/// The scenarios of the plumbing (seed 000, PipelinePlumber).
let plumbingScenarios: [Scenario] = []
