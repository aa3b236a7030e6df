import Foundation
import PrefsKit
import Testing

@testable import prefs

/// The terminal's keys and text, and the form's screen drawn from hostile content,
/// without a terminal.
@Suite struct TerminalTests {
  @Test func escapeSequencesControlKeysAndUTF8AreDecoded() {
    let bytes = Array("\u{1B}[A\u{1B}OB\u{1B}[Z\u{1B}[3~\r\t\u{7F}\u{13}\u{03}é/".utf8)
    let (keys, rest) = Terminal.decode(bytes)
    #expect(
      keys == [
        .up, .down, .backTab, .delete, .enter, .tab, .backspace, .control("s"), .control("c"), .character("é"),
        .character("/"),
      ])
    #expect(rest == [])
  }

  @Test func anEscapeThatEndsAReadIsTheEscapeKeyAndACutSequenceWaits() {
    #expect(Terminal.decode([0x1B]).keys == [.escape])
    #expect(Terminal.decode([0x1B, UInt8(ascii: "q")]).keys == [.escape, .character("q")])
    let cut = Terminal.decode([0x1B, UInt8(ascii: "["), UInt8(ascii: "3")])
    #expect(cut.keys == [])
    #expect(cut.rest == [0x1B, UInt8(ascii: "["), UInt8(ascii: "3")])
    let utf8 = Array("é".utf8)
    #expect(Terminal.decode([utf8[0]]).rest == [utf8[0]])
  }

  @Test func controlCharactersAreShownNeverSent() {
    #expect(Terminal.visible("a\u{1B}[2Jb\u{07}\n\u{9B}c") == "a^[[2Jb^G\\n\\u{9B}c")
    #expect(Terminal.visible("x\u{202E}y\u{2028}") == "x\\u{202E}y\\u{2028}")
    #expect(TerminalText.escaped("x\u{202E}y\u{1B}\tz\n", keepingLineBreaks: true) == "x\\u{202E}y\\x1B\tz\n")
    #expect(Terminal.fit("abcdef", 4) == "abc…")
    #expect(Terminal.fit("ab", 4) == "ab  ")
    #expect(Terminal.fit("日本語", 5) == "日本…")
  }

  @Test func theFormDrawsWhatAFileHoldsEscaped() throws {
    let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J"
    let form = SettingsForm(
      [hostile: .string(hostile), "username": .string(hostile)], schema: .userSettings, title: "d\u{1B}[H")
    var screen = FormScreen(
      form: form, domain: FileDomain(path: "/nonexistent/d.plist"), colors: false, force: false,
      options: ReadOptions())
    let drawn = screen.render(rows: 24, columns: 80)
    #expect(!drawn.contains("\u{1B}]0;"))
    #expect(!drawn.contains("\u{07}"))
    #expect(!drawn.contains("\u{1B}[2J"))
    #expect(drawn.contains("^[]0;owned^G^[[2J"))
    #expect(drawn.contains("prefs form: d^[[H"))
  }

  @Test func ctrlCTwiceQuitsAndQAsksWhenThereAreChanges() throws {
    var screen = FormScreen(
      form: SettingsForm(["username": "ada"], schema: .userSettings, title: "d"),
      domain: FileDomain(path: "/nonexistent/d.plist"), colors: false, force: false, options: ReadOptions())
    #expect(screen.handle(.control("c")) == nil)
    #expect(screen.handle(.control("c")) == 130)
    #expect(screen.handle(.down) == nil)
    #expect(screen.handle(.character(" ")) == nil)
    #expect(screen.form.hasChanges)
    #expect(screen.handle(.character("q")) == nil)
    #expect(screen.mode == .confirmingQuit)
    #expect(screen.handle(.character("n")) == nil)
    #expect(screen.handle(.character("q")) == nil)
    #expect(screen.handle(.character("y")) == 0)
  }
}
