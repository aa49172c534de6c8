import AppFlipConformance
import Foundation

// Lints the vector corpus of a repository checkout (the current folder, or --root DIR); argument handling only.
/// The command line: `--root`, `--update`.
struct Options {
  var root = FileManager.default.currentDirectoryPath
  var update = false
}
let table = OptionTable<Options>([
  .init(["--root"], "DIR", "the repository checkout (default: the current folder)") { $0.root = $1 },
  .init(
    ["--update", "--update-manifest"], nil,
    """
    record new vector ids in Vectors/manifest.json (never removes or changes entries)
    and rewrite the coverage section of RULES.md and its copy Vectors/RULES.md
    """
  ) { options, _ in options.update = true },
])
let usage = """
  usage: appflip-lint [--root DIR] [--update]

  Checks the vector corpus: every file loads strictly (the JSON Schema's rules), ids are unique and never reused,
  every flag is defined, every vector cites rules that RULES.md defines, every rule has at least
  \(CorpusLint.minimumVectorsPerRule) vectors, and no released id disappeared or changed meaning (Vectors/manifest.json).
  Prints the rule coverage table. Exits 0 when clean, 1 with problems, 2 on bad usage.

  \(table.help())
  """
let options = table.parseCommandLine(Options()) { usage }
let root = URL(fileURLWithPath: options.root)

/// Ends with the error's sentence, which names the file by its full path, so a wrong --root (or folder) shows.
func fail(_ error: any Error) -> Never {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(2)
}

let lint: CorpusLint
do {
  lint = try CorpusLint.load(root: root)
} catch {
  fail(error)
}
if options.update {
  let manifest = lint.manifest.adding(lint.catalog.vectors)
  let rulesText = lint.updatingCoverage(in: lint.rulesText ?? "")
  do {
    try ReportFile.write(ReportFile.json(manifest), to: root.appendingPathComponent("Vectors/manifest.json").path)
    print("manifest: \(manifest.vectors.count - lint.manifest.vectors.count) new ids recorded")
    try ReportFile.write(Data(rulesText.utf8), to: root.appendingPathComponent("RULES.md").path)
    // The copy the Markdown report reads (a resource of the vectors target) stays the same as the original.
    try ReportFile.write(Data(rulesText.utf8), to: root.appendingPathComponent("Vectors/RULES.md").path)
  } catch {
    fail(error)
  }
  report(CorpusLint(catalog: lint.catalog, rules: lint.rules, manifest: manifest, rulesText: rulesText))
} else {
  report(lint)
}

func report(_ lint: CorpusLint) -> Never {
  print(lint.coverageTable)
  let problems = lint.problems
  for problem in problems { print("problem: \(problem)") }
  print("\(lint.catalog.vectors.count) vectors, \(lint.rules.rules.count) rules, \(problems.count) problems")
  exit(problems.isEmpty ? 0 : 1)
}
