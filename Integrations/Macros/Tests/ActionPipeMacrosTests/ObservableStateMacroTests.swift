import ActionPipeMacros
import Synchronization
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
    // Spelled `Optional<…>`: `String?` would start as `nil` on its own, which is its one
    // initialization.
    var note: Optional<String>
    // Accepted: the accessors are the main actor's, the storage is not.
    @MainActor var shown = 0

    init(owner: String, balance: Int, note: String? = nil) {
        self.owner = owner
        self.balance = balance
        self.note = note
    }
}

/// The spelling the README teaches: `Sendable` written, and checked (the macro adds only
/// `ObservableState`).
@ObservableState
final class Settings: Sendable {
    var theme = "light"
    var fontSize = 12.0
}

/// An owner for owner-bound observers: a class the observer is handed, never captured.
final class ProfileView: Sendable {
    let shown = Mutex<[Int]>([])
}

/// Counts deliveries from any thread.
final class Counter: Sendable {
    let count = Atomic(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
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

    @Test("initializers assign properties declared without a value")
    func initializers() {
        let account = Account(owner: "Ada", balance: 10, note: "new")
        account.balance -= 3
        #expect(account.note == "new")
        #expect(account.owner == "Ada")
        #expect(account.balance == 7)
        #expect(account.frozen == false)
        #expect(account.$balance.label == "balance")
    }

    @Test("8 tasks x 10,000 `age += 1` end at 80,000, with 80,000 deliveries")
    func compoundWritesAreAtomic() async {
        let profile = Profile()
        let deliveries = Counter()
        let token = profile.$age.observe { _ in deliveries.increment() }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { profile.age += 1 }
                }
            }
        }
        #expect(profile.age == 80_000)
        #expect(deliveries.value == 80_000)
        token.cancel()
    }

    @Test("observers see each value; an owner-bound observer is handed its owner")
    func observers() {
        let profile = Profile()
        let seen = Mutex<[String]>([])
        let token = profile.$name.observe { name in seen.withLock { $0.append(name) } }
        var view: ProfileView? = ProfileView()
        weak let weakView = view
        profile.$age.observe(owner: view!) { view, age in view.shown.withLock { $0.append(age) } }
        profile.name = "Ada"
        profile.age = 36
        profile.age += 1
        #expect(seen.withLock { $0 } == ["Ada"])
        #expect(view?.shown.withLock { $0 } == [36, 37])
        // The observer holds its owner weakly: the view goes, and so does the observer.
        view = nil
        #expect(weakView == nil)
        profile.age += 1
        token.cancel()
        profile.name = "Grace"
        #expect(seen.withLock { $0 } == ["Ada"])
    }

    @Test("the protocol's key-path observation reaches the projections")
    func keyPathObservation() {
        let profile = Profile()
        let ages = Mutex<[Int]>([])
        profile.observe(\.$age, .initial) { age in ages.withLock { $0.append(age) } }
        profile.age = 5
        #expect(ages.withLock { $0 } == [0, 5])
    }

    @Test("the class is Sendable, checked by the compiler (no @unchecked)")
    func checkedSendable() async {
        // Both lines compile only because `Profile` is `Sendable`: the macro's storage is
        // `let`, so the compiler checks the conformance it adds.
        let profile = requireSendable(Profile())
        let write: @Sendable () -> Void = { profile.age += 1 }
        await Task.detached(operation: write).value
        #expect(profile.age == 1)
        // Declared `Sendable` by hand: the macro adds the protocol, and the state works alike.
        let settings = requireSendable(Settings())
        let state: any ObservableState = settings
        settings.fontSize += 2
        #expect(settings.$fontSize.value == 14)
        #expect(state === settings)
    }

    @Test("a state object with observers is freed: the generated code makes no cycle")
    func noCycle() {
        weak var weakProfile: Profile?
        do {
            let profile = Profile()
            weakProfile = profile
            profile.$age.observe { _ in }
            profile.$name.observe(owner: profile) { profile, name in _ = profile.age }
            profile.age += 1
            profile.name = "Ada"
            #expect(weakProfile != nil)
        }
        #expect(weakProfile == nil)
    }
}
