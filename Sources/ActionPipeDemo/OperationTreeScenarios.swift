import ActionPipe
import Foundation
import Synchronization

/// The scenarios of the operation tree (seed 003, DRBOperationTree).
let operationTreeScenarios: [Scenario] = [
    Scenario(
        number: 30, name: "cookbook",
        title: "The cookbook: each recipe shown as soon as it and its subtree are ready",
        original: "[cookbook sendObject:@\"a-cookbook\" completion:^{ /* all done */ }]",
        library: "DRBOperationTree",
        run: treeCookbookScenario),
    Scenario(
        number: 31, name: "tree-retry",
        title: "A failing request is retried, then its failure is reported (not hidden)",
        original: "3 attempts, then the subtree is skipped silently",
        library: "DRBOperationTree",
        run: treeRetryScenario),
    Scenario(
        number: 32, name: "tree-cancel",
        title: "Cancelling a run: nothing starts afterwards, the report says cancelled",
        original: "no cancellation: the tree runs to the end",
        library: "DRBOperationTree",
        run: treeCancelScenario),
    Scenario(
        number: 33, name: "tree-timeout",
        title: "A request that never returns is bounded by the item timeout",
        original: "an operation that never finishes hangs the tree for ever",
        library: "DRBOperationTree",
        run: treeTimeoutScenario),
]

// MARK: - The cookbook API

/// A recipe as `/recipes/{id}` returns it.
struct TreeDemoRecipe: Sendable {
    let id: Int
    let name: String
    let ingredientIDs: [Int]
    let imageIDs: [Int]
}

/// An ingredient as `/ingredients/{id}` returns it.
struct TreeDemoIngredient: Sendable {
    let id: Int
    let name: String
    let imageIDs: [Int]
}

/// A server error, with what to do.
struct TreeDemoServerError: Error, CustomStringConvertible {
    let path: String
    var description: String { "GET \(path): 503 service unavailable (try again later)" }
}

/// The four endpoints of the article, served from memory with a delay per request. Some
/// paths can be made to fail a number of times, or to never answer.
actor TreeDemoServer {
    private let recipes = [
        1: TreeDemoRecipe(
            id: 1, name: "Ratatouille", ingredientIDs: [10, 11, 13], imageIDs: [100]),
        2: TreeDemoRecipe(
            id: 2, name: "Vegetable stew", ingredientIDs: [11, 12], imageIDs: [101, 102]),
        3: TreeDemoRecipe(id: 3, name: "Tomato salad", ingredientIDs: [11], imageIDs: []),
        4: TreeDemoRecipe(id: 4, name: "Carrot soup", ingredientIDs: [12, 13], imageIDs: [103]),
    ]
    private let ingredients = [
        10: TreeDemoIngredient(id: 10, name: "eggplant", imageIDs: [200]),
        11: TreeDemoIngredient(id: 11, name: "tomato", imageIDs: [201, 202]),
        12: TreeDemoIngredient(id: 12, name: "carrot", imageIDs: [203]),
        13: TreeDemoIngredient(id: 13, name: "onion", imageIDs: []),
    ]
    /// Path → failures left before it answers (`Int.max`: always fails).
    private var failures: [String: Int]
    /// Paths that never answer.
    private let hanging: Set<String>
    private let delay: Duration
    /// Requests sent so far, readable without awaiting the server.
    nonisolated let sent = TreeDemoCounter()

    init(delay: Duration, failures: [String: Int] = [:], hanging: Set<String> = []) {
        self.delay = delay
        self.failures = failures
        self.hanging = hanging
    }

    private func get(_ path: String) async throws {
        sent.increment()
        if hanging.contains(path) {
            // Never answers, and ignores cancellation, like a lost request without a timeout.
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        }
        try await Task.sleep(for: delay)
        if let left = failures[path], left > 0 {
            failures[path] = left - 1
            throw TreeDemoServerError(path: path)
        }
    }

    func cookbook(_ id: String) async throws -> [Int] {
        try await get("/cookbook/\(id)")
        return recipes.keys.sorted()
    }

    func recipe(_ id: Int) async throws -> TreeDemoRecipe {
        try await get("/recipes/\(id)")
        return recipes[id]!
    }

    func ingredient(_ id: Int) async throws -> TreeDemoIngredient {
        try await get("/ingredients/\(id)")
        return ingredients[id]!
    }

    func image(_ id: Int) async throws -> String {
        try await get("/images/\(id)")
        return "image\(id).png"
    }
}

/// A thread-safe counter.
final class TreeDemoCounter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// A recipe as the app shows it; the nodes below the recipe node fill it in.
actor TreeDemoRecipeCard: CustomStringConvertible {
    let recipe: TreeDemoRecipe
    private var images: [String] = []
    private var ingredients: [String: [String]] = [:]

    init(_ recipe: TreeDemoRecipe) { self.recipe = recipe }

    nonisolated var description: String { "card '\(recipe.name)'" }

    func add(image: String) { images.append(image) }

    func add(ingredient: TreeDemoIngredient) { ingredients[ingredient.name, default: []] = [] }

    func add(image: String, toIngredient name: String) {
        ingredients[name, default: []].append(image)
    }

    var summary: String {
        let parts = ingredients.keys.sorted().map { name in
            let images = ingredients[name]!
            return images.isEmpty ? name : "\(name) [\(images.joined(separator: ", "))]"
        }
        let pictures = images.isEmpty ? "no picture" : images.joined(separator: ", ")
        return "\(recipe.name) (\(pictures)): \(parts.joined(separator: ", "))"
    }
}

/// The request tree of the article: cookbook → recipe → (recipe image, ingredient →
/// ingredient image).
private func treeMakeCookbook(_ server: TreeDemoServer) throws -> (
    cookbook: OperationTreeNode<String, [Int]>,
    recipe: OperationTreeNode<[Int], TreeDemoRecipeCard>
) {
    let cookbook = OperationTreeNode(
        "cookbook", objects: { (id: String) in [id] },
        work: { (id: String) in try await server.cookbook(id) })
    let recipe = OperationTreeNode(
        "recipe", objects: { (ids: [Int]) in ids },
        work: { (id: Int) in TreeDemoRecipeCard(try await server.recipe(id)) })
    let recipeImage = OperationTreeNode(
        "recipe image",
        objects: { (card: TreeDemoRecipeCard) in card.recipe.imageIDs.map { (card, $0) } },
        work: { (card: TreeDemoRecipeCard, id: Int) in
            await card.add(image: try await server.image(id))
        })
    let ingredient = OperationTreeNode(
        "ingredient",
        objects: { (card: TreeDemoRecipeCard) in card.recipe.ingredientIDs.map { (card, $0) } },
        work: { (card: TreeDemoRecipeCard, id: Int) in
            let ingredient = try await server.ingredient(id)
            await card.add(ingredient: ingredient)
            return (card, ingredient)
        })
    let ingredientImage = OperationTreeNode(
        "ingredient image",
        objects: { (card: TreeDemoRecipeCard, ingredient: TreeDemoIngredient) in
            ingredient.imageIDs.map { (card, ingredient.name, $0) }
        },
        work: { (card: TreeDemoRecipeCard, name: String, id: Int) in
            await card.add(image: try await server.image(id), toIngredient: name)
        })
    try cookbook.addChild(recipe)
    try recipe.addChild(recipeImage)
    try recipe.addChild(ingredient)
    try ingredient.addChild(ingredientImage)
    return (cookbook, recipe)
}

/// Milliseconds since `start`, for the trace.
private func treeElapsed(since start: ContinuousClock.Instant) -> String {
    let ms =
        (ContinuousClock.now - start).components.attoseconds / 1_000_000_000_000_000
        + (ContinuousClock.now - start).components.seconds * 1000
    return String(format: "%4d ms", ms)
}

/// Prints the events of `run` as they come; recipes when they are ready.
private func treeFollow(
    _ run: OperationTreeRun, recipe: OperationTreeNode<[Int], TreeDemoRecipeCard>,
    everyEvent: Bool, afterEvent: (OperationTreeEvent) -> Void = { _ in }
) async {
    let start = ContinuousClock.now
    for await event in run.events {
        let time = treeElapsed(since: start)
        if let card = event.finishedOutput(of: recipe) {
            say("\(time)  READY  \(await card.summary)")
        } else {
            switch event {
            case .retrying(let failure, let delay):
                say(
                    "\(time)  retry  \(failure.item.map { "\($0)" } ?? failure.node): attempt "
                        + "\(failure.attempts) failed (\(failure.error)); again in \(delay)")
            case .failed(let failure):
                say(
                    "\(time)  FAILED \(failure.item.map { "\($0)" } ?? failure.node) after "
                        + "\(failure.attempts) attempts: \(failure.error); subtree skipped")
            case .started(let item, _) where item.node != "recipe" && item.node != "cookbook":
                break  // the leaf requests would flood the trace
            default:
                if everyEvent, event.item?.node == "recipe" || event.item?.node == "cookbook" {
                    say("\(time)  \(event)")
                }
            }
        }
        afterEvent(event)
    }
}

/// Prints each failure of `report` on its own line.
private func treeShow(_ report: OperationTreeReport) {
    say(
        "report: \(report.outcome), \(report.succeededCount) succeeded, \(report.failures.count) "
            + "failed, \(report.retryCount) retries, \(report.notStartedCount) not started, "
            + "peak concurrency \(report.peakConcurrency)")
    for failure in report.failures {
        say("  failure: node '\(failure.node)', \(failure.object): \(failure.error)")
    }
}

// MARK: - 30. cookbook

private func treeCookbookScenario() async throws {
    let server = TreeDemoServer(delay: .milliseconds(15))
    let (cookbook, recipe) = try treeMakeCookbook(server)
    say("tree: cookbook → recipe → (recipe image, ingredient → ingredient image)")
    say("each request takes 15 ms; at most 4 at once, depth first (a recipe's subtree goes")
    say("before the next recipe's); a recipe is shown when it and its subtree are READY")
    say("the tree as a Mermaid diagram (cookbook.mermaidDiagram):")
    for line in cookbook.mermaidDiagram.split(separator: "\n") { say("  \(line)") }
    let run = cookbook.start(
        "vegetables", options: .init(concurrencyLimit: 4, order: .depthFirst))
    var timeline = OperationTreeTimeline()
    await treeFollow(run, recipe: recipe, everyEvent: true) { timeline.record($0) }
    let report = await run.report
    say("all done (the tree's completion): \(report)")
    say("timeline: \(timeline.slices.count) attempts on \(timeline.laneCount) lanes")
    // Written only when asked for, so a run leaves no file behind.
    guard let timelinePath else {
        say("  `--timeline FILE` writes it as a Chrome trace (https://ui.perfetto.dev)")
        return
    }
    let url = URL(fileURLWithPath: timelinePath)
    try timeline.chromeTraceJSON.write(to: url, atomically: true, encoding: .utf8)
    say("  written to \(url.path): open it in https://ui.perfetto.dev or chrome://tracing")
}

// MARK: - 31. retry

private func treeRetryScenario() async throws {
    // /ingredients/11 (tomato) fails twice and then answers; /recipes/4 always fails.
    let server = TreeDemoServer(
        delay: .milliseconds(5), failures: ["/ingredients/11": 2, "/recipes/4": Int.max])
    let (cookbook, recipe) = try treeMakeCookbook(server)
    say("/ingredients/11 fails twice, then answers; /recipes/4 always fails")
    say("policy: 3 attempts, 10 ms then 20 ms between them")
    let options = OperationTreeOptions(
        concurrencyLimit: 4,
        retry: .init(
            maxAttempts: 3, backoff: .exponential(initial: .milliseconds(10), maximum: .seconds(1))
        ))
    let run = cookbook.start("vegetables", options: options)
    await treeFollow(run, recipe: recipe, everyEvent: false)
    let report = await run.report
    treeShow(report)
    say("the original would have skipped 'Carrot soup' and said nothing")
}

// MARK: - 32. cancel

private func treeCancelScenario() async throws {
    let server = TreeDemoServer(delay: .milliseconds(20))
    let (cookbook, recipe) = try treeMakeCookbook(server)
    say("the user leaves the screen after the first recipe is ready: cancel the run")
    let run = cookbook.start(
        "vegetables", options: .init(concurrencyLimit: 2, order: .depthFirst))
    var cancelled = false
    await treeFollow(run, recipe: recipe, everyEvent: false) { event in
        if !cancelled, event.finishedOutput(of: recipe) != nil {
            let sent = server.sent.value
            run.cancel()
            cancelled = true
            say("cancel()  (requests sent so far: \(sent))")
        }
    }
    let report = await run.report
    treeShow(report)
    say(
        "requests sent in all: \(server.sent.value) (those sent after the count above were "
            + "already starting when cancel() came; nothing started later)")
}

// MARK: - 33. timeout

private func treeTimeoutScenario() async throws {
    let server = TreeDemoServer(delay: .milliseconds(5), hanging: ["/images/201"])
    let (cookbook, recipe) = try treeMakeCookbook(server)
    say("/images/201 never answers (and ignores cancellation); item timeout 100 ms, 2 attempts")
    var options = OperationTreeOptions(concurrencyLimit: 4, retry: .init(maxAttempts: 2))
    options.itemTimeout = .milliseconds(100)
    let run = cookbook.start("vegetables", options: options)
    await treeFollow(run, recipe: recipe, everyEvent: false)
    let report = await run.report
    treeShow(report)
    say("the tree completed; without a timeout the original would wait for ever")
}
