// ActionPipeDemo: plays the examples of the ZZActionPipe README (seed 002) and the
// share-link flow of the PipelinePlumber article (seed 000, on async actions) with
// ActionPipe, end to end, printing what every call did (its trace) and returned.
//
//     swift run ActionPipeDemo                   every scenario
//     swift run ActionPipeDemo --scenario 5      one scenario, by number
//     swift run ActionPipeDemo --scenario states one scenario, by name (or just `states`)
//     swift run ActionPipeDemo --help            the list of scenarios
import Foundation

/// The usage text, with the list of scenarios.
func usage() -> String {
    var lines = [
        "ActionPipeDemo: the ZZActionPipe README examples and the PipelinePlumber share flow,",
        "played with ActionPipe.",
        "",
        "Usage: ActionPipeDemo [--scenario NUMBER|NAME | NUMBER|NAME | --help]",
        "",
        "Without arguments every scenario runs, in order. Scenarios:",
    ]
    for scenario in scenarios {
        let number = scenario.number < 10 ? " \(scenario.number)" : "\(scenario.number)"
        let label = "\(number). \(scenario.name)"
        lines.append(
            "  " + label.padding(toLength: 26, withPad: " ", startingAt: 0) + scenario.title)
    }
    return lines.joined(separator: "\n")
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
