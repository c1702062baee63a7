/// What holds the registrations a ``RegistrationToken`` cancels; each runs no user code
/// under its lock.
package protocol _Registry: AnyObject, Sendable {
    /// Whether the registration was there.
    func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool
    func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool
}
