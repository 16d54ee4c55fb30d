// The presence types (PresenceStore, PresenceEvent, PresenceMirror, ...) live in MicCheckPresence, which a store of
// another process (MicCheckPresencePostgres) builds on without the server; an app that imports MicCheckServer sees
// them as before.
@_exported public import MicCheckPresence
