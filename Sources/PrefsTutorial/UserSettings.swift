// Needs all of Foundation: built with the FullFoundation trait (on by default).
#if FullFoundation

  import Foundation
  import Observation

  /// The settings form of the tutorial, working on Linux: three keys read with
  /// typed casts and fallbacks, saved to `UserDefaults` on every change, and
  /// observable with the Observation framework.
  ///
  /// Each key reads as `defaults.object(forKey:) as? T ?? fallback`, so a value of
  /// another type reads as the fallback (see ``TypedRead`` for what "another type"
  /// means on each platform, and `Schema.userSettings` for the same keys as a schema).
  @Observable
  public final class UserSettings {
    /// The keys, as stored in the domain.
    public enum Key {
      public static let username = "username"
      public static let isAccountPrivate = "isAccountPrivate"
      public static let ringtone = "ringtone"
    }

    /// The ringtones the form offers.
    public static let ringtones = ["Chimes", "Signal", "Waves"]
    /// What `username` reads as when it is missing or holds another type.
    public static let defaultUsername = ""
    /// What `isAccountPrivate` reads as when it is missing or holds another type.
    public static let defaultIsAccountPrivate = true
    /// What `ringtone` reads as when it is missing or holds another type.
    public static let defaultRingtone = "Chimes"

    @ObservationIgnored private let defaults: UserDefaults

    /// The account name; saved on every change.
    public var username: String {
      didSet { defaults.set(username, forKey: Key.username) }
    }

    /// Whether only approved followers see the account; saved on every change.
    public var isAccountPrivate: Bool {
      didSet { defaults.set(isAccountPrivate, forKey: Key.isAccountPrivate) }
    }

    /// One of ``ringtones``; saved on every change.
    public var ringtone: String {
      didSet { defaults.set(ringtone, forKey: Key.ringtone) }
    }

    /// The settings kept in `defaults`, read as the tutorial's app reads them.
    public init(defaults: UserDefaults = .standard) {
      self.defaults = defaults
      username = defaults.object(forKey: Key.username) as? String ?? Self.defaultUsername
      isAccountPrivate =
        defaults.object(forKey: Key.isAccountPrivate) as? Bool ?? Self.defaultIsAccountPrivate
      ringtone = defaults.object(forKey: Key.ringtone) as? String ?? Self.defaultRingtone
    }
  }

#endif
