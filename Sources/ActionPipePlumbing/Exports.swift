// Re-exports the shared public vocabulary (``RegistrationToken``, ...), so an app importing
// this part alone can name what its API returns.
@_exported import ActionPipeShared
