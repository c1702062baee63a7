import ActionPipe

/// The scenarios of the event bus (seed 004, DWEventBus).
let eventBusScenarios: [Scenario] = []
