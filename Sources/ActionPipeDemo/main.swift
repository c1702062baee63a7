// ActionPipeDemo: plays the examples of the five original libraries with ActionPipe, end to
// end, printing what every call, packet, event, assignment and tree item did and why:
//
//      1-15  the core: the ZZActionPipe README (seed 002), its hazards fixed, async actions
//     20-24  the event bus: DWEventBus's login/logout flow, unions, feedback (seed 004)
//     30-33  the operation tree: DRBOperationTree's cookbook, retries, cancel (seed 003)
//     40-43  plumbing: PipelinePlumber's share-link flow (seed 000)
//     50-55  observable state: Minya's photo flow, paths, scenes (seed 001)
//
//     swift run ActionPipeDemo                      every scenario
//     swift run ActionPipeDemo --scenario 30        one scenario, by number
//     swift run ActionPipeDemo --scenario cookbook  one scenario, by name (or just `cookbook`)
//     swift run ActionPipeDemo --help               the list of scenarios
//     swift run ActionPipeDemo cookbook --timeline cookbook.json
//                                                   also writes the cookbook's timeline
import Foundation

/// The usage text, with the list of scenarios.
func usage() -> String {
    var lines = [
        "ActionPipeDemo: the examples of ZZActionPipe (1-15), DWEventBus (20-24),",
        "DRBOperationTree (30-33), PipelinePlumber (40-43) and Minya (50-55), played with",
        "ActionPipe, each with a trace of what ran, what was skipped or stopped, and why.",
        "",
        "Usage: ActionPipeDemo [--scenario NUMBER|NAME | NUMBER|NAME | --help]",
        "                      [--timeline FILE]",
        "",
        "--timeline FILE writes the cookbook tree's timeline (scenario 30) to FILE as a",
        "Chrome trace, to open in https://ui.perfetto.dev or chrome://tracing.",
        "",
        "Without arguments every scenario runs, in order. Scenarios:",
    ]
    var part = ""
    for scenario in scenarios {
        // A header per part, so the list reads as five groups.
        let thisPart = partTitle(of: scenario.number)
        if thisPart != part {
            part = thisPart
            lines.append("")
            lines.append("  " + part)
        }
        let number = scenario.number < 10 ? " \(scenario.number)" : "\(scenario.number)"
        let label = "\(number). \(scenario.name)"
        lines.append(
            "  " + label.padding(toLength: 26, withPad: " ", startingAt: 0) + scenario.title)
    }
    return lines.joined(separator: "\n")
}

/// The part a scenario number belongs to (numbers are grouped by part; see Scenarios.swift).
func partTitle(of number: Int) -> String {
    switch number {
    case ..<20: "The core: actions, pipes and chains (CoreActions.md, AsyncActions.md)"
    case ..<30: "The event bus (EventBusGuide.md)"
    case ..<40: "Operation trees (OperationTree.md)"
    case ..<50: "Plumbing (PlumbingGuide.md)"
    default: "Observable state (ObservableStateGuide.md)"
    }
}

/// Finds a scenario by number or name.
func scenario(named key: String) -> Scenario? {
    scenarios.first { String($0.number) == key || $0.name == key.lowercased() }
}

/// Prints `message` and the usage to standard error, and exits with status 2.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n\n\(usage())\n".utf8))
    exit(2)
}

var selected = scenarios
var arguments = CommandLine.arguments.dropFirst()
if let flag = arguments.firstIndex(of: "--timeline") {
    guard timelinePath != nil else { fail("--timeline needs a file") }
    arguments.removeSubrange(flag...arguments.index(after: flag))
}
if let first = arguments.first {
    switch first {
    case "--help", "-h", "help":
        print(usage())
        exit(0)
    case "--scenario", "-s":
        arguments.removeFirst()
        guard let key = arguments.first else { fail("--scenario needs a number or a name") }
        guard let found = scenario(named: key) else { fail("no scenario '\(key)'") }
        selected = [found]
    default:
        guard let found = scenario(named: first) else { fail("unknown argument '\(first)'") }
        selected = [found]
    }
    if arguments.count > 1 { fail("too many arguments") }
}

for (index, scenario) in selected.enumerated() {
    if index > 0 { print() }
    print("== \(scenario.number). \(scenario.name): \(scenario.title)")
    print("   \(scenario.library): \(scenario.original)")
    do {
        try await scenario.run()
    } catch {
        print("  failed: \(error)")
        exit(1)
    }
}
