import ActionPipe
import Testing

/// Unions whose keys overlap: one event matches two of their keys (`Alpha.1` and
/// `Alpha.*`). The random model leaves them out; these pin down what happens.
@Suite("Bus: unions whose keys overlap")
struct BusUnionOverlapTests {
    @Test(
        "anyOf fires once per event, even when the event matches two of its keys", )
    func anyOfFiresOncePerEvent() {
        let bus = EventBus(name: "overlap")
        let recorder = ModelBusRecorder()
        bus.subscribe(anyOf: [ModelBusKey.alpha1.key, ModelBusKey.alphaAny.key]) { union in
            recorder.record(
                ModelBusDelivery(
                    subscription: 1, serial: ModelBusDelivery.serial(of: union.last),
                    lastKey: union.lastKey))
        }
        bus.publish(ModelBusAlpha(subtype: 1, serial: 7))
        bus.publish(ModelBusAlpha(subtype: 2, serial: 8))
        let serials = recorder.take().map(\.serial)
        #expect(serials == [7, 8], "anyOf: \"fires on each event of any of its keys\"")
    }

    @Test(
        "allOf: one event that matches two keys completes both", )
    func allOfOneEventCompletesBothKeys() {
        let bus = EventBus(name: "overlap")
        let recorder = ModelBusRecorder()
        bus.subscribe(allOf: [ModelBusKey.alpha1.key, ModelBusKey.alphaAny.key]) { union in
            recorder.record(
                ModelBusDelivery(
                    subscription: 1, serial: ModelBusDelivery.serial(of: union.last),
                    union: union.events.map(ModelBusDelivery.serial)))
        }
        bus.publish(ModelBusAlpha(subtype: 2, serial: 1))  // Alpha.* only: waiting
        bus.publish(ModelBusAlpha(subtype: 1, serial: 2))  // Alpha.1 and Alpha.*: complete
        #expect(recorder.take() == [ModelBusDelivery(subscription: 1, serial: 2, union: [2, 2])])
    }
}
