import Foundation
import PrefsKit
import PrefsTestSupport
import Testing

@testable import PrefsDocument
@testable import PrefsFormats
@testable import PrefsModel
@testable import PrefsOperations
@testable import PrefsStore
@testable import PrefsText

// MARK: - autopkg recipes

extension YAMLCodecTests {
  @Suite("autopkg recipes")
  struct AutoPkg {
    /// A plist read with Foundation (the plist codec is not ours to use here), with
    /// bools told from numbers by objCType: on Linux `is Bool` holds for NSNumber 0 and 1.
    static func plistValue(_ data: Data) throws -> PrefValue {
      func convert(_ any: Any) -> PrefValue {
        switch any {
        case let s as String: return .string(s)
        case let n as NSNumber:
          switch String(cString: n.objCType) {
          case "c", "B": return .bool(n.boolValue)
          case "d", "f": return .real(n.doubleValue)
          case "Q", "L", "I":
            return .integer(exactly: n.uint64Value)
          default: return .integer(n.int64Value)
          }
        case let d as Date: return .date(d)
        case let d as Data: return .data(d)
        case let a as [Any]: return .array(a.map(convert))
        case let d as [String: Any]:
          return .dictionary(PrefDictionary(d.map { (key: $0.key, value: convert($0.value)) }))
        default: return .string("<\(type(of: any))>")
        }
      }
      return convert(try PropertyListSerialization.propertyList(from: data, format: nil))
    }

    /// Key paths where two values differ (missing keys, other kinds, other values).
    static func differences(_ a: PrefValue, _ b: PrefValue, at path: String = "") -> [String] {
      switch (a, b) {
      case (.dictionary(let x), .dictionary(let y)):
        var found: [String] = []
        for key in Set(x.keys).union(y.keys).sorted() {
          let sub = path.isEmpty ? key : path + "." + key
          if let u = x[key], let v = y[key] { found += differences(u, v, at: sub) } else { found.append(sub) }
        }
        return found
      case (.array(let x), .array(let y)) where x.count == y.count:
        return zip(x, y).enumerated().flatMap { differences($0.element.0, $0.element.1, at: path + ".\($0.offset)") }
      default:
        return a == b ? [] : [path.isEmpty ? "(top)" : path]
      }
    }

    enum Outcome: Equatable, CustomStringConvertible {
      case equal
      /// Differs at these key paths.
      case differs([String])
      case yamlError(String)
      case plistError

      var description: String {
        switch self {
        case .equal: "equal"
        case .differs(let paths): "differs at \(paths)"
        case .yamlError(let m): "YAML error \(m)"
        case .plistError: "plist error"
        }
      }
    }

    /// Per pair: the outcome reading the YAML as YAML 1.2 and as YAML 1.1, and why
    /// (matching corpus/autopkg/SOURCES.md).
    static let pairs: [String: (v12: Outcome, v11: Outcome, why: String)] = [
      "MLBZ521__Matlab.pkg": (
        .differs(["Description", "Input.INSTALLER_INPUT", "Process.4.Arguments.file_content"]),
        .differs(["Description", "Input.INSTALLER_INPUT", "Process.4.Arguments.file_content"]),
        "block scalars gained a trailing newline, tabs became spaces, Description typos fixed (author edits)"
      ),
      "ahousseini__Clin_doeil.download": (
        .differs(["Process"]), .differs(["Process"]),
        "the plist gained a PlistReader processor (content edit)"
      ),
      "ahousseini__Clin_doeil.pkg": (
        .equal, .equal,
        "equal; key order only"
      ),
      "apizz__Chrysalis.download": (
        .differs(["MinimumVersion", "Process.0.Arguments.asset_regex"]),
        .differs(["MinimumVersion", "Process.0.Arguments.asset_regex"]),
        "the YAML adds MinimumVersion and edits asset_regex (content edits)"
      ),
      "davidbpirie__AzulZuluOpenJDK17LTS.pkg": (
        .differs(["Description", "MinimumVersion"]), .differs(["Description", "MinimumVersion"]),
        "Description whitespace (indent, trailing newline) and the MinimumVersion edit"
      ),
      "davidbpirie__AzureDataStudio.munki": (
        .differs(Self.azurePaths), .differs(Self.azurePaths),
        "'additional_pkginfo:' is left empty: a null (and the recipe was restructured)"
      ),
      "davidbpirie__ComicLife3.download": (
        .differs(["MinimumVersion"]), .differs(["MinimumVersion", "Process.2.Arguments.purge_destination"]),
        "MinimumVersion edit; YAML 1.1 also reads unquoted YES as true where the plist has the string YES"
      ),
      "davidbpirie__GenericDockItem.munki": (
        .differs(["Description", "MinimumVersion", "Process.1.Arguments.file_content"]),
        .differs(["Description", "MinimumVersion", "Process.1.Arguments.file_content"]),
        "tabs became spaces in a block scalar, Description re-wrapped, MinimumVersion edit"
      ),
      "davidbpirie__Unity3DComponent.munki": (
        .differs([
          "Description", "MinimumVersion", "Process.0.Arguments.additional_pkginfo.installcheck_script",
          "Process.0.Arguments.additional_pkginfo.postinstall_script",
          "Process.0.Arguments.additional_pkginfo.postuninstall_script",
        ]),
        .differs([
          "Description", "MinimumVersion", "Process.0.Arguments.additional_pkginfo.installcheck_script",
          "Process.0.Arguments.additional_pkginfo.postinstall_script",
          "Process.0.Arguments.additional_pkginfo.postuninstall_script",
        ]),
        "scripts: tabs became spaces, trailing newline, stray '\"'; Description re-wrapped; MinimumVersion edit"
      ),
      "fleet__FleetGitOpsUploader": (
        .plistError, .plistError,
        "the plist has two XML declarations and does not parse"
      ),
      "grahampugh__AppleHPPrinterDrivers.pkg": (
        .equal, .equal,
        "equal; key order only"
      ),
      "grahampugh__CarbonCopyCloner.jamf": (
        .differs(["Process.4.Arguments.replace_group", "Process.5.Arguments.replace_policy"]),
        .differs(["Process.4.Arguments.replace_group", "Process.5.Arguments.replace_policy"]),
        "unquoted True is a bool where the plist has the string True"
      ),
      "grahampugh__Carbon_Copy_Cloner.jss-uninstall": (
        .differs(["MinimumVersion", "Process"]), .differs(["MinimumVersion", "Process"]),
        "Process: [] where the plist has an empty dict; MinimumVersion edit"
      ),
      "grahampugh__DataWarrior.download": (
        .equal, .equal,
        "equal; key order only"
      ),
      "grahampugh__EclipseTemurin8.pkg": (
        .equal, .equal,
        "equal; key order only"
      ),
      "grahampugh__EndNoteUpdates.pkg": (
        .equal, .equal,
        "equal; key order only"
      ),
      "grahampugh__MAU-profile.jamf": (
        .differs(["Input.REPLACE_PROFILE", "Process.0.Arguments.replace_category", "Process.1.Arguments.replace_group"]
        ),
        .differs(["Input.REPLACE_PROFILE", "Process.0.Arguments.replace_category", "Process.1.Arguments.replace_group"]
        ),
        "unquoted False is a bool where the plist has the string False"
      ),
      "grahampugh__Miro.jamf": (
        .equal, .equal,
        "equal; key order only"
      ),
      "grahampugh__ParallelsDesktop.pkg": (
        .differs(["Input.SOFTWARE_UPDATES_AUTO_DOWNLOAD", "MinimumVersion"]), .differs(["MinimumVersion"]),
        "MinimumVersion edit; YAML 1.2 also reads 'off' as a string where the plist has <false/>"
      ),
      "grahampugh__PreProcessors": (
        .equal, .equal,
        "equal"
      ),
      "homebysix__Quicksilver.pkg": (
        .equal, .equal,
        "equal; key order only"
      ),
      "kevinmcox__Frame.download": (
        .differs(["Process.0.Arguments.re_pattern", "Process.0.Arguments.url", "Process.4.Arguments.requirement"]),
        .differs(["Process.0.Arguments.re_pattern", "Process.0.Arguments.url", "Process.4.Arguments.requirement"]),
        "url and re_pattern edited; the folded requirement gained a trailing newline"
      ),
      "smithjw__DisplayLink_Manager.download": (
        .yamlError("74:43: mapping values are not allowed in this context"),
        .yamlError("74:43: mapping values are not allowed in this context"),
        "the .yaml file is an XML plist, which is not valid YAML"
      ),
      "smithjw__DisplayLink_Manager.pkg": (
        .differs(["(top)"]), .differs(["(top)"]),
        "the .yaml file is an XML plist, which YAML reads as one plain string"
      ),
    ]

    /// Where the AzureDataStudio recipe's YAML and plist differ: its null, and the restructuring.
    static let azurePaths = [
      "Input.MUNKI_NAME", "Input.pkginfo.category", "Input.pkginfo.description", "Input.pkginfo.developer",
      "Input.pkginfo.display_name", "Input.pkginfo.minimum_os_version", "Input.pkginfo.name", "MinimumVersion",
      "Process.0.Arguments.additional_pkginfo",
    ]

    static func outcome(yaml: Data, plist: Data, version: YAMLVersion) -> Outcome {
      let mine: PrefValue
      do {
        mine = try codec.decode(yaml, options: ReadOptions(yamlVersion: version))
      } catch {
        return .yamlError(String(describing: error))
      }
      guard let theirs = try? plistValue(plist) else { return .plistError }
      let paths = differences(mine, theirs)
      return paths.isEmpty ? .equal : .differs(paths)
    }

    @Test("each pair reads as pinned, in YAML 1.2 and 1.1", .needsCorpus("autopkg"))
    func pairsCompare() throws {
      let root = try #require(TestSupport.corpus("autopkg"))
      let folder = root.appendingPathComponent("pairs")
      let stems = TestSupport.files(in: folder).map(\.lastPathComponent).filter { $0.hasSuffix(".recipe.yaml") }
        .map { String($0.dropLast(".recipe.yaml".count)) }
      #expect(stems.count == 24)
      for stem in stems {
        let yaml = try Data(contentsOf: folder.appendingPathComponent(stem + ".recipe.yaml"))
        let plist = try Data(contentsOf: folder.appendingPathComponent(stem + ".recipe.plist"))
        let v12 = Self.outcome(yaml: yaml, plist: plist, version: .v1_2)
        let v11 = Self.outcome(yaml: yaml, plist: plist, version: .v1_1)
        print("autopkg: \(stem): 1.2 \(v12); 1.1 \(v11)")
        guard let pinned = Self.pairs[stem] else {
          Issue.record("\(stem) is not pinned")
          continue
        }
        #expect(v12 == pinned.v12, "\(stem) (1.2): \(pinned.why)")
        #expect(v11 == pinned.v11, "\(stem) (1.1): \(pinned.why)")
      }
      // The null is read as one; written as a plist it is refused by its path, or dropped.
      let stem = "davidbpirie__AzureDataStudio.munki"
      let yaml = try Data(contentsOf: folder.appendingPathComponent(stem + ".recipe.yaml"))
      let value = try codec.decode(yaml)
      let path = try #require(value.firstNullPath)
      #expect(path.description.hasSuffix("additional_pkginfo"))
      #expect(throws: PrefsError(.null(path: path))) { try Format.xml.encode(value) }
      let warnings = Warnings()
      let dropped = try Format.xml.encode(value, options: WriteOptions(dropNulls: true), warnings: warnings)
      #expect(warnings.all.map(\.refused) == [.null(path: path)])
      #expect(try Format.xml.decode(dropped) == value.droppingNulls(warnings: Warnings()))
    }

    @Test(
      "every YAML recipe reads (the two with a null too), except the XML file",
      .needsCorpus("autopkg"))
    func everyRecipeReads() throws {
      let root = try #require(TestSupport.corpus("autopkg"))
      var files = TestSupport.files(in: root.appendingPathComponent("pairs"))
      files += TestSupport.files(in: root.appendingPathComponent("unpaired"))
      let yamlFiles = files.filter { $0.pathExtension == "yaml" }
      #expect(yamlFiles.count == 29)
      let refused: [String: String] = [
        "smithjw__DisplayLink_Manager.download.recipe.yaml": "74:43: mapping values are not allowed in this context"
      ]
      var ambiguous: [String: [String]] = [:]
      for file in yamlFiles {
        let data = try Data(contentsOf: file)
        let name = file.lastPathComponent
        for version in YAMLVersion.allCases {
          do {
            _ = try codec.decode(data, options: ReadOptions(yamlVersion: version))
            #expect(refused[name] == nil, "\(name) read")
          } catch {
            #expect(refused[name] == String(describing: error), "\(name) (\(version.rawValue)): \(error)")
          }
        }
        if let found = try? YAMLCodec.ambiguities(in: data), !found.isEmpty {
          ambiguous[name] = found.map(\.description)
        }
      }
      // The files where PyYAML and ruamel.yaml disagree (SOURCES.md), and no others.
      #expect(
        ambiguous == [
          "grahampugh__ParallelsDesktop.pkg.recipe.yaml": [
            "14:35: 'off' is bool false in YAML 1.1 but string in YAML 1.2"
          ],
          "davidbpirie__ComicLife3.download.recipe.yaml": [
            "21:24: 'YES' is bool true in YAML 1.1 but string in YAML 1.2"
          ],
          "MLBZ521__BeyondTrustRemoteSupportJumpClient.pkg.recipe.yaml": [
            "53:14: '0755' is integer 493 in YAML 1.1 but integer 755 in YAML 1.2"
          ],
        ])
    }

    @Test(.needsCorpus("autopkg")) func unpairedRecipesKeepTheirTypes() throws {
      let root = try #require(TestSupport.corpus("autopkg"))
      let folder = root.appendingPathComponent("unpaired")
      func load(_ name: String, _ version: YAMLVersion = .v1_2) throws -> PrefValue {
        try codec.decode(
          Data(contentsOf: folder.appendingPathComponent(name)), options: ReadOptions(yamlVersion: version))
      }
      /// Every value stored under `key`, at any depth.
      func values(of key: String, in value: PrefValue) -> [PrefValue] {
        switch value {
        case .dictionary(let dict): dict.flatMap { ($0.key == key ? [$0.value] : []) + values(of: key, in: $0.value) }
        case .array(let items): items.flatMap { values(of: key, in: $0) }
        default: []
        }
      }
      let test = try load("jgstew__VariableToString.test.recipe.yaml")
      #expect(values(of: "float", in: test) == [.real(1.2)])
      #expect(values(of: "int", in: test) == [.integer(1)])
      let beyond = "MLBZ521__BeyondTrustRemoteSupportJumpClient.pkg.recipe.yaml"
      #expect(values(of: "tmp", in: try load(beyond)).contains(.integer(755)))
      #expect(values(of: "tmp", in: try load(beyond, .v1_1)).contains(.integer(493)))
      let garage = String(describing: try load("kevinmcox__GarageBand.munki.recipe.yaml"))
      #expect(garage.contains("\u{2014}") || garage.contains("—"))
      // Each recipe survives our own round trip.
      for file in TestSupport.files(in: folder) where file.pathExtension == "yaml" {
        let value = try codec.decode(Data(contentsOf: file), options: ReadOptions())
        #expect(try codec.decode(codec.encode(value)) == value, "\(file.lastPathComponent)")
      }
    }
  }
}
