// Needs all of Foundation: built with the FullFoundation trait (on by default).
#if FullFoundation

  import Foundation

  /// The tutorial's item: what ``ItemStore`` keeps by default.
  public struct Item: Codable, Identifiable, Hashable, Sendable {
    public var id: UUID
    public var name: String
    public var description: String

    public init(id: UUID = UUID(), name: String, description: String) {
      self.id = id
      self.name = name
      self.description = description
    }
  }

  /// Why an ``ItemStore`` operation failed; never printed, always thrown.
  public enum ItemStoreError: Error, Equatable, CustomStringConvertible {
    /// No item has this id.
    case notFound(id: String)
    /// An item with this id exists already.
    case duplicate(id: String)
    /// The key holds something other than data (the kind it holds).
    case notData(key: String, kind: String)
    /// The data under the key is not a JSON array of items.
    case undecodable(key: String, reason: String)
    /// The items could not be encoded.
    case unencodable(reason: String)

    public var description: String {
      switch self {
      case .notFound(let id): "no item with id \(id)"
      case .duplicate(let id): "an item with id \(id) exists already"
      case .notData(let key, let kind): "'\(key)' holds \(kind), not JSON data"
      case .undecodable(let key, let reason): "'\(key)' does not hold a JSON array of items: \(reason)"
      case .unencodable(let reason): "the items cannot be encoded: \(reason)"
      }
    }
  }

  /// The tutorial's storage manager: an array of `Codable` items kept as JSON data
  /// under one key of a `UserDefaults` domain, with create, read, update and delete.
  ///
  /// Generic over any `Codable & Identifiable` element (``Item`` by default). The JSON
  /// is written with sorted keys and unescaped slashes, so the same items always give
  /// the same bytes (readable diffs) and `prefs --expand-data` can show the blob as
  /// structure and turn it back into exactly these bytes. Every failure is thrown as
  /// an ``ItemStoreError``; a key holding something else is never overwritten by a read.
  public struct ItemStore<Element: Codable & Identifiable> where Element.ID: Equatable {
    private let defaults: UserDefaults
    /// The key the items are kept under.
    public let key: String

    /// A store of items under `key` in `defaults`.
    public init(defaults: UserDefaults = .standard, key: String = "items") {
      self.defaults = defaults
      self.key = key
    }

    /// The encoder behind the stored bytes.
    public static var encoder: JSONEncoder {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      return encoder
    }

    // MARK: Read

    /// Every item, in the order stored; none when the key is missing.
    public func items() throws -> [Element] {
      guard let object = defaults.object(forKey: key) else { return [] }
      guard let data = object as? Data else {
        throw ItemStoreError.notData(key: key, kind: String(describing: type(of: object)))
      }
      do {
        return try JSONDecoder().decode([Element].self, from: data)
      } catch {
        throw ItemStoreError.undecodable(key: key, reason: "\(error)")
      }
    }

    /// The item with `id`.
    public func item(id: Element.ID) throws -> Element {
      guard let found = try items().first(where: { $0.id == id }) else { throw ItemStoreError.notFound(id: "\(id)") }
      return found
    }

    // MARK: Create, update, delete

    /// Adds `item` at the end; its id must be new.
    public func create(_ item: Element) throws {
      var all = try items()
      guard !all.contains(where: { $0.id == item.id }) else { throw ItemStoreError.duplicate(id: "\(item.id)") }
      all.append(item)
      try save(all)
    }

    /// Replaces the item with the same id, keeping its place.
    public func update(_ item: Element) throws {
      var all = try items()
      guard let index = all.firstIndex(where: { $0.id == item.id }) else {
        throw ItemStoreError.notFound(id: "\(item.id)")
      }
      all[index] = item
      try save(all)
    }

    /// Removes the item with `id`.
    public func delete(id: Element.ID) throws {
      var all = try items()
      guard let index = all.firstIndex(where: { $0.id == id }) else { throw ItemStoreError.notFound(id: "\(id)") }
      all.remove(at: index)
      try save(all)
    }

    private func save(_ items: [Element]) throws {
      let data: Data
      do {
        data = try Self.encoder.encode(items)
      } catch {
        throw ItemStoreError.unencodable(reason: "\(error)")
      }
      defaults.set(data, forKey: key)
    }
  }

#endif
