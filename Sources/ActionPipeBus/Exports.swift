// The shared vocabulary (`RegistrationToken`, ...), for an app importing this part alone.
@_exported import ActionPipeShared
