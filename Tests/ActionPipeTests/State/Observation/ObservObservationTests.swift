#if canImport(Observation)
    import ActionPipe
    import Foundation
    import Observation
    import Testing

    /// A state class as a SwiftUI app declares it: `Observable`, so views that read it
    /// re-render when it changes.
    final class ObservationProfile: ObservableState, Observable, @unchecked Sendable {
        @Observed("name") var name = ""
        @Observed("age") var age = 0
    }

    /// A state class that does not conform to `Observable`.
    final class PlainProfile: ObservableState, @unchecked Sendable {
        @Observed("name") var name = ""
    }

    @Suite("ObservableState: Swift Observation (withObservationTracking, SwiftUI)")
    struct ObservObservationTests {
        /// The reference behaviour: an `@Observable` class, whose every store tells its
        /// registrar.
        @Observable final class ReferenceProfile: @unchecked Sendable {
            var name = ""
        }

        @Test("a set inside apply, after the tracked read, does not lose the next change")
        func setInsideApply() {
            let reference = ReferenceProfile()
            let referenceChanges = Counter()
            withObservationTracking {
                _ = reference.name
                reference.name = "inside"
            } onChange: {
                referenceChanges.increment()
            }
            reference.name = "after"
            #expect(referenceChanges.value == 1)

            let profile = ObservationProfile()
            let changes = Counter()
            withObservationTracking {
                _ = profile.name
                profile.name = "inside"  // lands before the observer is installed
            } onChange: {
                changes.increment()
            }
            profile.name = "after"
            #expect(changes.value == referenceChanges.value)
        }

        @Test("a set on another thread, after the tracked read, does not lose the next change")
        func setOnAnotherThreadInsideApply() {
            let profile = ObservationProfile()
            let changes = Counter()
            withObservationTracking {
                _ = profile.name
                // Another thread stores while the tracking is being set up.
                let done = DispatchSemaphore(value: 0)
                Thread {
                    profile.name = "other thread"
                    done.signal()
                }.start()
                done.wait()
            } onChange: {
                changes.increment()
            }
            profile.name = "after"
            #expect(changes.value == 1)
        }

        @Test("a read inside withObservationTracking fires onChange at the next set, once")
        func trackingFires() {
            let profile = ObservationProfile()
            let changes = Counter()
            let seen = withObservationTracking {
                profile.name
            } onChange: {
                changes.increment()
            }
            #expect(seen == "")
            #expect(changes.value == 0)
            profile.name = "Ada"
            #expect(changes.value == 1)
            profile.name = "Grace"  // the tracking ended at the first change
            #expect(changes.value == 1)
        }

        @Test("onChange runs before the store (willSet), as with @Observable")
        func onChangeBeforeStore() {
            let profile = ObservationProfile()
            profile.name = "old"
            let valueAtChange = Box<String?>(nil)
            _ = withObservationTracking {
                profile.name
            } onChange: {
                valueAtChange.set(profile.$name.value)
            }
            profile.name = "new"
            #expect(valueAtChange.value == "old")
        }

        @Test("every way of storing tells Observation: $name.set, $name.value, modify")
        func everyStoreTells() {
            let profile = ObservationProfile()
            let changes = Counter()
            func track() {
                _ = withObservationTracking {
                    profile.age
                } onChange: {
                    changes.increment()
                }
            }
            track()
            profile.$age.set(1)
            track()
            profile.$age.value = 2
            track()
            profile.$age.modify { $0 += 1 }
            #expect(changes.value == 3)
            #expect(profile.age == 3)
        }

        @Test("only the property read is tracked: changing another one does not fire")
        func onlyReadPropertiesFire() {
            let profile = ObservationProfile()
            let changes = Counter()
            _ = withObservationTracking {
                profile.name
            } onChange: {
                changes.increment()
            }
            profile.age = 30
            #expect(changes.value == 0)
            profile.name = "Ada"
            #expect(changes.value == 1)
        }

        @Test("two objects of the same class are tracked apart")
        func objectsApart() {
            let first = ObservationProfile()
            let second = ObservationProfile()
            let changes = Counter()
            _ = withObservationTracking {
                first.name
            } onChange: {
                changes.increment()
            }
            second.name = "other"
            #expect(changes.value == 0)
            first.name = "mine"
            #expect(changes.value == 1)
        }

        @Test("observers still get every set, tracked or not")
        func observersUnaffected() {
            let profile = ObservationProfile()
            let received = Log()
            let token = profile.$name.observe { received.append($0) }
            _ = withObservationTracking {
                profile.name
            } onChange: {
            }
            profile.name = "a"
            profile.name = "b"
            #expect(received.all == ["a", "b"])
            token.cancel()
        }

        @Test("a class that is not Observable is never tracked")
        func plainClassNotTracked() {
            let profile = PlainProfile()
            let changes = Counter()
            _ = withObservationTracking {
                profile.name
            } onChange: {
                changes.increment()
            }
            profile.name = "Ada"
            #expect(changes.value == 0)
            #expect(profile.name == "Ada")
        }

        @Test("the tracking does not keep the object alive")
        func noRetainCycle() {
            weak var weakProfile: ObservationProfile?
            do {
                let profile = ObservationProfile()
                weakProfile = profile
                _ = withObservationTracking {
                    profile.name
                } onChange: {
                }
                profile.name = "gone soon"
            }
            #expect(weakProfile == nil)
        }

        @Test("reads and tracked sets from 4 threads: no value is lost, tracking still works after")
        func concurrentTracking() async {
            let profile = ObservationProfile()
            let fired = Counter()
            let rounds = 500
            await concurrentPerform(iterations: 4) { thread in
                for _ in 0..<rounds {
                    if thread % 2 == 0 {
                        _ = withObservationTracking {
                            profile.age
                        } onChange: {
                            fired.increment()
                        }
                    } else {
                        profile.$age.modify { $0 += 1 }
                    }
                }
            }
            #expect(profile.age == 2 * rounds)
            // How often the racing trackings fired is Observation's business (two stores at
            // once may both fire one, as with @Observable, and a reader's last tracking may
            // still wait for a change); after the race, a new tracking fires exactly once at
            // the next set, and not again at the one after.
            let after = Counter()
            _ = withObservationTracking {
                profile.age
            } onChange: {
                after.increment()
            }
            profile.age = 0
            #expect(after.value == 1)
            profile.age = 1
            #expect(after.value == 1)
        }
    }
#endif
