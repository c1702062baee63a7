import ActionPipe

/// The scenarios of the observable state (seed 001, Minya).
let observableStateScenarios: [Scenario] = []
