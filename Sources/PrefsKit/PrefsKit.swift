// The library a Swift program imports: every layer's public API under one name.
@_exported import PrefsDocument
@_exported import PrefsFormats
@_exported import PrefsModel
@_exported import PrefsOperations
@_exported import PrefsStore
@_exported import PrefsText
