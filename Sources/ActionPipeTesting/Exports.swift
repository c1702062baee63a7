// A test imports `ActionPipeTesting` alone and has the whole library, as the guides show.
@_exported import ActionPipe
