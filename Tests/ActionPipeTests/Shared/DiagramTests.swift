import ActionPipe
import Testing

@Suite("Diagrams: chains, plumbers, trees and buses as Mermaid flowcharts")
struct DiagramTests {
    @Test("a chain: one box per pipe, arrows in call order, from any member")
    func chain() throws {
        let pipes = try makeChain("screen", "controller", "store")
        let expected = """
            flowchart LR
                pipe0["screen"]
                pipe1["controller"]
                pipe2["store"]
                pipe0 --> pipe1
                pipe1 --> pipe2

            """
        #expect(pipes[0].mermaidDiagram == expected)
        #expect(pipes[2].mermaidDiagram == expected)
        #expect(ActionPipe(name: "alone").mermaidDiagram == "flowchart LR\n    pipe0[\"alone\"]\n")
    }

    @Test("labels escape quotes, brackets, braces, #, | and angle brackets")
    func escaping() {
        let pipe = ActionPipe(name: "a \"b\" [c] {d} #e |f| <g>\nh (i)")
        #expect(
            pipe.mermaidDiagram == """
                flowchart LR
                    pipe0["a #quot;b#quot; #91;c#93; #123;d#125; #35;e #124;f#124; #lt;g#gt; h (i)"]

                """)
    }

    @Test("a plumber: ports, then stages in order, then the sink")
    func plumber() throws {
        let plumber = try PipelinePlumber<Int>(name: "share")
            .addPort(PlumbingPort(100)).addPort(PlumbingPort(200))
        plumber.addStage("check-login") { _ in .pass }
        let removed = plumber.addStage("gone") { _ in .pass }
        plumber.addStage("request-link") { _ in .pass }
        removed.cancel()
        plumber.sink { _ in }
        #expect(
            plumber.mermaidDiagram == """
                flowchart LR
                    port0(["port 100"])
                    port1(["port 200"])
                    stage0["check-login"]
                    stage1["request-link"]
                    sink[("sink")]
                    port0 --> stage0
                    port1 --> stage0
                    stage0 --> stage1
                    stage1 --> sink

                """)
    }

    @Test("a plumber without stages or sink")
    func barePlumbers() throws {
        let direct = try PipelinePlumber<Int>().addPort(PlumbingPort(1))
        direct.sink { _ in }
        #expect(
            direct.mermaidDiagram == """
                flowchart LR
                    port0(["port 1"])
                    sink[("sink")]
                    port0 --> sink

                """)
        #expect(PipelinePlumber<Int>().mermaidDiagram == "flowchart LR\n")
    }

    @Test("a tree: depth first, children in order, a shared node drawn once")
    func tree() throws {
        func node(_ name: String) -> OperationTreeNode<Int, Int> {
            OperationTreeNode(name, objects: { (n: Int) in [n] }, work: { $0 })
        }
        let cookbook = node("cookbook")
        let recipe = node("recipe")
        let image = node("image")
        let ingredient = node("ingredient")
        try cookbook.addChild(recipe)
        try recipe.addChild(image)
        try recipe.addChild(ingredient)
        try ingredient.addChild(image)  // images of ingredients too
        #expect(
            cookbook.mermaidDiagram == """
                flowchart TD
                    node0["cookbook"]
                    node1["recipe"]
                    node2["image"]
                    node3["ingredient"]
                    node0 --> node1
                    node1 --> node2
                    node1 --> node3
                    node3 --> node2

                """)
        #expect(image.mermaidDiagram == "flowchart TD\n    node0[\"image\"]\n")
    }

    @Test("a bus: topics to subscriptions, in subscription order; a union is one box")
    func bus() {
        let bus = EventBus(name: "session")
        let screen = BusTestSubscriber("screen")
        bus.subscribe(BusTopic(BusTestLogin.self, .login), name: "greeter") { _ in }
        bus.subscribe(BusTopic(anySubtypeOf: BusTestLogin.self), owner: screen) { _, _ in }
        let ended = bus.subscribe(BusTopic(BusTestPing.self), name: "ended") { _ in }
        bus.subscribe(
            allOf: [BusTopic(BusTestPing.self).key, BusTopic(BusTestLogin.self, .login).key],
            name: "both"
        ) { _ in }
        ended.cancel()
        #expect(
            bus.mermaidDiagram == """
                flowchart LR
                    topic0{{"BusTestLogin.login"}}
                    sub0["greeter"]
                    topic1{{"BusTestLogin.*"}}
                    sub1["BusTestSubscriber"]
                    sub2["both"]
                    topic2{{"BusTestPing.-"}}
                    topic0 --> sub0
                    topic1 --> sub1
                    topic0 --> sub2
                    topic2 --> sub2

                """)
        withExtendedLifetime(screen) {}
        #expect(EventBus(name: "empty").mermaidDiagram == "flowchart LR\n")
    }
}
