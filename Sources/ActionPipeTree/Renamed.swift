// Deprecated names, kept one release for migration (CHANGELOG.md).

extension OperationTreeReport {
    /// Renamed: ``succeededCount``.
    @available(*, deprecated, renamed: "succeededCount")
    public var succeeded: Int { succeededCount }

    /// Renamed: ``retryCount``.
    @available(*, deprecated, renamed: "retryCount")
    public var retries: Int { retryCount }

    /// Renamed: ``notStartedCount``.
    @available(*, deprecated, renamed: "notStartedCount")
    public var notStarted: Int { notStartedCount }
}
