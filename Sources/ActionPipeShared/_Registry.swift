/// What holds registrations a ``RegistrationToken`` can cancel; each part conforms its own
/// object. Both methods take the part's lock and run no user code under it.
package protocol _Registry: AnyObject, Sendable {
    /// Whether the registration was there.
    func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool
    func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool
}
