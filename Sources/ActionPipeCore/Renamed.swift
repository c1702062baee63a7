// Names this part had before 0.2, kept one release for migration (CHANGELOG.md).

/// Renamed: every part now returns RegistrationToken.
@available(*, deprecated, renamed: "RegistrationToken")
public typealias HandlerToken = RegistrationToken
