import ActionPipeMacros
import Testing

@ObservableState
final class Profile {
    var name = ""
    var age = 0
    var email: String?
    var tags: [String] = []
    let id: Int
    var summary: String { "\(name), \(age)" }
    static let kind = "profile"

    init(id: Int = 0) {
        self.id = id
    }
}

/// Properties without an initial value, assigned by the initializer (through the generated
/// init accessor); one with an initial value, which the initializer leaves alone.
@ObservableState
final class Account {
    var owner: String
    var balance: Int
    var frozen = false

    init(owner: String, balance: Int) {
        self.owner = owner
        self.balance = balance
    }
}

/// An owner for owner-bound observers: a class the observer is handed, never captured.
final class ProfileView: Sendable {
    let shown = ObservedProperty<[Int]>([])
}

/// Compiles only if `value` is `Sendable`: the check is the compiler's, not a runtime one.
func requireSendable<T: Sendable>(_ value: T) -> T { value }

@Suite("@ObservableState")
struct ObservableStateMacroTests {
    @Test("reads and writes go through the generated storage")
    func readsAndWrites() {
        let profile = Profile()
        profile.name = "Ada"
        profile.age += 1
        profile.tags.append("math")
        #expect(profile.name == "Ada")
        #expect(profile.age == 1)
        #expect(profile.tags == ["math"])
        #expect(profile.$age.value == 1)
        #expect(profile.summary == "Ada, 1")
        #expect(profile.email == nil)
    }

    @Test("the storage is labelled with the property's name")
    func labels() {
        let profile = Profile()
        #expect(profile.$name.label == "name")
        #expect(profile.$age.label == "age")
    }
}
