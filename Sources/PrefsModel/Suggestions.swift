/// Close matches for mistyped names.
public enum Suggestions {
  /// The candidate nearest to `text` by edit distance, if it is near enough to be a
  /// typo: within `maximum` edits, by default two (more for long names). Short names
  /// such as format names pass 1, so that `toml` does not suggest `xml`.
  public static func closest(to text: String, among candidates: [String], maximum: Int? = nil) -> String? {
    let scored = candidates.map { ($0, distance(text, $0)) }.min { $0.1 < $1.1 }
    guard let (best, score) = scored, score <= maximum ?? max(2, text.count / 3) else { return nil }
    return best
  }

  /// Levenshtein distance.
  public static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...max(b.count, 1) where j <= b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
