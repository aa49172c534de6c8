import AppFlip
import AppFlipConformance
import AppFlipMutants
import Testing

/// The bundled vectors and the kill matrix, computed once for every test in this file.
private enum MutantRun {
  static let catalog = VectorLoader.loadBundled()
  static let matrix = Task { await KillMatrix.compute(catalog: catalog) }

  /// The configurations every mutant must be caught under, by name (`TestConfigurations`).
  static let configurations = TestConfigurations.byName

  /// The kill matrix under each configuration, computed once.
  static let matrices: [String: Task<KillMatrix, Never>] = configurations.mapValues { configuration in
    configuration == .default
      ? matrix : Task { await KillMatrix.compute(catalog: catalog, configuration: configuration) }
  }

  /// How many vectors must catch each mutant, so that no single vector's wording decides whether a bug is found.
  static let margin = 3

  /// Ids of every bundled vector.
  static let vectorIDs = Set(catalog.vectors.map(\.vector.id))

  /// One specific bundled vector that must catch each of these mutants.
  static let requiredCatches: [(mutant: String, vector: String)] = [
    ("prefix-match-redirect", "redirect-uri/trailing/slash"),
    ("client-id-ignored", "incoming/client-id-other-project"),
    ("first-of-duplicates", "incoming/client-id-duplicate-good-then-bad"),
    ("literal-plus-in-reply", "state/plus"),
    ("code-in-error-reply", "reply/rejected-wrong-client-with-state"),
    ("hard-coded-reply-url", "incoming/baseline-valid"),
    ("error-to-disallowed-redirect", "redirect-uri/userinfo/before-host"),
    ("authorize-before-validate", "check-order/valid-redirect-wrong-client-id-granted"),
    ("offline-unrecoverable", "reply/outcome-offline-with-scope"),
    ("consent-denied-cancelled", "reply/outcome-consent-denied-with-scope"),
    ("state-not-echoed", "incoming/baseline-valid"),
    ("client-id-unicode-equivalence", "configuration/client-id-kelvin-sign"),
    ("code-reuse", "flow/replay-gets-fresh-code"),
    ("stale-state", "flow/two-links-own-state"),
  ]

  /// A readable account of results that should not be there.
  static func describe(_ results: [VectorResult]) -> String {
    results.map { result in
      "\(result.id): \(result.status.rawValue) "
        + (result.message.isEmpty
          ? result.findings.map { "\($0.rule) \($0.field)" }.joined(separator: "; ") : result.message)
    }.joined(separator: "\n")
  }
}

@Suite("Mutants")
struct MutantTests {
  @Test("Every mutant is caught by at least one bundled vector", arguments: Mutant.all.map(\.name))
  func mutantIsCaught(name: String) async throws {
    let row = try #require(await MutantRun.matrix.value.row(named: name))
    #expect(row.isKilled, "\(name) survives every bundled vector: \(row.bug)")
    let shown = row.caughtBy.prefix(5).joined(separator: ", ")
    print("\(name): caught by \(row.catches.count) vectors: \(shown)\(row.catches.count > 5 ? ", …" : "")")
  }

  @Test(
    "Every mutant is caught by at least 3 vectors under the default, a Google Home, a single-URL and a two-URL partner configuration",
    arguments: TestConfigurations.names)
  func marginUnderConfiguration(name: String) async throws {
    let matrix = try #require(await MutantRun.matrices[name]?.value)
    let thin = matrix.rows.filter { $0.catches.count < MutantRun.margin }
    #expect(
      thin.isEmpty,
      "under \(name): \(thin.map { "\($0.name) caught by \($0.catches.count): \($0.caughtBy)" }.joined(separator: "; "))"
    )
  }

  @Test(
    "Under a Google Home configuration, case-insensitive, standardized and scheme+host+path redirect checks and a case-insensitive client id fail",
    arguments: [
      "case-insensitive-redirect", "standardized-redirect", "scheme-host-path-redirect", "prefix-match-redirect",
      "client-id-case-insensitive",
    ])
  func googleHomeFailures(mutant: String) async throws {
    let row = try #require(await MutantRun.matrices["google-home"]?.value.row(named: mutant))
    let failures = row.catches.filter { $0.status == .failed }
    #expect(failures.count >= MutantRun.margin, "\(mutant) fails only \(failures.map(\.id))")
  }

  @Test("A handler that form-decodes the link (a raw + as a space) warns under AF-IN-9 and never fails")
  func formDecodingWarns() async throws {
    for (name, task) in MutantRun.matrices {
      let row = try #require(await task.value.row(named: "form-decoding"))
      #expect(row.catches.count >= MutantRun.margin, "under \(name): \(row.caughtBy)")
      #expect(row.catches.allSatisfy { $0.status == .warning }, "under \(name): \(MutantRun.describe(row.catches))")
      #expect(
        row.catches.allSatisfy { $0.findings.contains { $0.rule == "AF-IN-9" } },
        "under \(name): \(MutantRun.describe(row.catches))")
    }
  }

  @Test("There are at least 32 mutants, each with a unique kebab-case name and a bug")
  func catalogOfMutants() {
    let names = Mutant.all.map(\.name)
    #expect(names.count >= 32)
    #expect(
      Set(names).count == names.count, "duplicate names: \(names.filter { name in names.count { $0 == name } > 1 })")
    for mutant in Mutant.all {
      #expect(mutant.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(mutant.name) is not kebab-case")
      #expect(!mutant.bug.isEmpty, "\(mutant.name) has no bug description")
    }
  }

  @Test("A named bundled vector catches the mutant", arguments: MutantRun.requiredCatches)
  func vectorCatchesMutant(mutant: String, vector: String) async throws {
    #expect(MutantRun.vectorIDs.contains(vector), "\(vector) is not a bundled vector")
    let row = try #require(await MutantRun.matrix.value.row(named: mutant), "no mutant named \(mutant)")
    #expect(row.caughtBy.contains(vector), "\(vector) does not catch \(mutant); caught by: \(row.caughtBy)")
  }

  @Test(
    "The reference handler passes every bundled vector under each configuration: no vector catches it",
    arguments: TestConfigurations.names)
  func referenceIsCaughtByNone(name: String) async throws {
    #expect(MutantRun.catalog.problems.isEmpty, "\(MutantRun.catalog.problems)")
    let configuration = try #require(MutantRun.configurations[name])
    let catches = await KillMatrix.catches(
      of: { ReferenceHandlerAdapter(configuration: $0) }, name: "reference", catalog: MutantRun.catalog,
      configuration: configuration)
    #expect(catches.isEmpty, "\(MutantRun.describe(catches))")
  }

  @Test(
    "The partner-style handler the mutants are made from passes every bundled vector, so each mutant isolates its bug")
  func skeletonIsCaughtByNone() async {
    let catches = await KillMatrix.catches(
      of: { PartnerHandler(configuration: $0) }, name: "partner-handler", catalog: MutantRun.catalog)
    #expect(catches.isEmpty, "\(MutantRun.describe(catches))")
  }

  @Test(
    "Every finding the mutants draw, under each configuration, says what happened without a level of its own",
    arguments: TestConfigurations.names)
  func findingSentencesStateNoLevel(name: String) async throws {
    let matrix = try #require(await MutantRun.matrices[name]?.value)
    var findings = 0
    for row in matrix.rows {
      for result in row.catches {
        for finding in result.findings {
          findings += 1
          #expect(
            SentenceLevelTests.levels(in: finding.message).isEmpty,
            "\(row.name), \(result.id): [\(finding.rule), \(finding.level.keyword)] \(finding.message)")
        }
      }
    }
    #expect(findings > 1_000)
  }
}
