import ActionPipeConcurrency
import Testing

/// The concurrency module's reference buffer, driven directly: the core's snapshots, the
/// bus's route tables and routes and the observer lists rely on it to retain each object
/// once, release it when the buffer goes, and keep header, elements and tail apart.
@Suite("Concurrency module: ReferenceBuffer")
struct ReferenceBufferTests {
    final class Object {
        let name: String
        init(_ name: String) { self.name = name }
    }

    struct Entry: ReferenceBufferElement {
        let object: Unretained<Object>
        let number: Int
        var owned: Unretained<Object> { object }
    }

    /// Wider than the elements, so the tail starts past padding.
    struct Wide {
        let values: SIMD4<Float>
        let label: Object
    }

    @Test("the buffer alone keeps its objects alive, and releases each once")
    func retainsAndReleases() {
        weak var first: Object?
        weak var second: Object?
        var buffer: ReferenceBuffer<String, Entry, Int>? = {
            let objects = [Object("a"), Object("b")]
            (first, second) = (objects[0], objects[1])
            return .make("header", count: 2, tail: [7, 8, 9]) { append in
                for (number, object) in objects.enumerated() {
                    append(Entry(object: Unretained(object), number: number))
                }
            }
        }()
        #expect(first != nil && second != nil)
        let names = (0..<2).map { index in buffer!.elements[index].object.with { $0.name } }
        #expect(names == ["a", "b"])
        #expect(buffer!.elements[1].number == 1)
        #expect(buffer!.fields.pointee.header == "header")
        #expect(
            Array(UnsafeBufferPointer(start: buffer!.tail, count: buffer!.tailCount)) == [7, 8, 9])
        buffer = nil
        #expect(first == nil && second == nil)
    }

    @Test("a tail aligned wider than the elements is kept apart from them, and released")
    func wideTail() {
        weak var label: Object?
        let kept = Object("element")
        var buffer: ReferenceBuffer<Void, Unretained<Object>, Wide>? = {
            let object = Object("tail")
            label = object
            return .make((), count: 1, tail: [Wide(values: [1, 2, 3, 4], label: object)]) {
                $0(Unretained(kept))
            }
        }()
        #expect(Int(bitPattern: buffer!.tail) % MemoryLayout<Wide>.alignment == 0)
        #expect(buffer!.tail.pointee.values == [1, 2, 3, 4])
        #expect(buffer!.tail.pointee.label.name == "tail")
        #expect(buffer!.elements[0].with { $0 === kept })
        buffer = nil
        #expect(label == nil)
    }

    @Test("an empty buffer has no elements and no tail")
    func empty() {
        let buffer = ReferenceBuffer<Int, Unretained<Object>, Never>.make(5, count: 0) { _ in }
        #expect(buffer.count == 0 && buffer.tailCount == 0)
        #expect(buffer.fields.pointee.header == 5)
    }
}
