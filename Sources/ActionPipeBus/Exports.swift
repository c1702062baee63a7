// Every part re-exports the vocabulary the parts share (``RegistrationToken``, ...), so an
// app importing it alone can name what its API returns; the `package` primitives are not.
@_exported import ActionPipeShared
