import ActionPipeConcurrency
import Synchronization

/// An action's identity by content: what the table interns.
struct _ActionIdentity: Hashable {
    let file: String
    let line: UInt
    let column: UInt
    let type: ObjectIdentifier
    let name: String
}
