import ActionPipe
import ActionPipeTesting
import Testing

/// The plumbing recorders add to the app's sink and stop observer; they replace neither.
@Suite("Testing: plumbing recorders add to the app's sink and onStop")
struct PlumbingRecorderAddTests {
    @Test("the app's onStop is still called with a stop recorder attached, before or after it")
    func stopRecorderKeepsTheAppsObserver() {
        let plumber = PipelinePlumber<Int>(name: "kit.add")
        plumber.addStage("gate") { packet in packet.payload > 0 ? .pass : .stop("zero") }
        let before = Recorder<Int>()
        let appToken = plumber.onStop { before.record($0.packet.payload) }
        let stops = PlumbingStopRecorder(plumber)
        plumber.send(0, from: 1)
        #expect(before.values == [0])
        #expect(stops.summaries == ["gate: refused: zero"])
        #expect(appToken.isActive && stops.token.isActive)
        // An observer the app sets afterwards replaces its own, not the recorder.
        let after = Recorder<Int>()
        plumber.onStop { after.record($0.packet.payload) }
        plumber.send(-1, from: 1)
        #expect(before.values == [0] && after.values == [-1])
        #expect(stops.count == 2 && stops.token.isActive)
    }

    @Test("the app's sink still receives packets with a sink recorder attached")
    func sinkRecorderKeepsTheAppsSink() {
        let plumber = PipelinePlumber<Int>(name: "kit.add")
        let app = Recorder<Int>()
        let appToken = plumber.sink { app.record($0.payload) }
        let sunk = PlumbingSinkRecorder(plumber)
        plumber.send(1, from: 1)
        plumber.send(2, from: 1)
        #expect(app.values == [1, 2])
        #expect(sunk.payloads == [1, 2])
        #expect(appToken.isActive && sunk.token.isActive)
    }

    @Test("cancelling or releasing a recorder leaves the app's sink and onStop in place")
    func recorderGoesAloneWhenCancelled() {
        let plumber = PipelinePlumber<Int>(name: "kit.add")
        plumber.addStage("gate") { packet in packet.payload > 0 ? .pass : .stop("zero") }
        let app = Recorder<Int>()
        let appStops = Recorder<Int>()
        plumber.sink { app.record($0.payload) }
        plumber.onStop { appStops.record($0.packet.payload) }
        let sunk = PlumbingSinkRecorder(plumber)
        #expect(sunk.cancel())
        #expect(!sunk.cancel())
        do {
            let stops = PlumbingStopRecorder(plumber)
            plumber.send(0, from: 1)
            #expect(stops.count == 1)
        }
        plumber.send(3, from: 1)
        plumber.send(0, from: 1)
        #expect(sunk.count == 0)
        #expect(app.values == [3])
        #expect(appStops.values == [0, 0])
    }

    @Test("two recorders on one plumber both record, in the order of the packets")
    func twoRecorders() {
        let plumber = PipelinePlumber<Int>(name: "kit.add")
        let first = PlumbingSinkRecorder(plumber)
        let second = PlumbingSinkRecorder(plumber)
        for payload in 0..<3 { plumber.send(payload, from: 1) }
        #expect(first.payloads == [0, 1, 2] && second.payloads == [0, 1, 2])
    }

}
