import ActionPipeConcurrency
import Synchronization

/// By content: what the table interns.
struct _ActionIdentity: Hashable {
    let file: String
    let line: UInt
    let column: UInt
    let type: ObjectIdentifier
    let name: String
}
