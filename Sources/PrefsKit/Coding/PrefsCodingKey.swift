import PrefsModel

/// The coding key the encoder and decoder put in coding paths where the type gives
/// none: `Index N` for array elements (as Foundation's coders name them) and `super`
/// for the value a super encoder writes.
struct PrefsCodingKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }

  /// The key of the element at `index` of an array.
  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  /// The key `superEncoder()` and `superDecoder()` use.
  static let `super` = PrefsCodingKey(stringValue: "super")
}
