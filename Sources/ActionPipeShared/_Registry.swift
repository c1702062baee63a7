/// What holds registrations that a ``RegistrationToken`` can cancel: a pipe's member, a bus,
/// an observed property, a plumber, a tree run. Each part conforms its own object.
///
/// Both methods take the part's own lock; they run no user code under it (what a
/// cancellation releases is released after unlocking).
package protocol _Registry: AnyObject, Sendable {
    /// Removes the registration `id` (`detail` is what the part put in the token); whether
    /// it was there.
    func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool
    /// Whether the registration `id` is still there.
    func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool
}
