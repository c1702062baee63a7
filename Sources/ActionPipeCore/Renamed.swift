// Names this part had before 0.2, kept one release for migration (CHANGELOG.md).

/// Renamed: every part now returns RegistrationToken.
@available(*, deprecated, renamed: "RegistrationToken")
public typealias HandlerToken = RegistrationToken

/// Renamed: one retention type, ``Retention``, for owners in every part.
@available(*, deprecated, renamed: "Retention")
public typealias TargetRetention = Retention
