import AppFlipConformance
import AppFlipMutants
import Foundation

/// How many catching vector ids a line shows without `--full`.
let shownIDs = 3

/// The command line: `--full`, `--show`, `--config`.
struct Options {
  var full = false
  var show: Mutant?
  var config: String?
}
let table = OptionTable<Options>([
  .init(["--full"], nil, "list every catching vector, not only the first \(shownIDs)") { options, _ in
    options.full = true
  },
  .init(
    ["--show"], "NAME", "print the console report of the bundled vectors against one mutant, as a partner would see it",
    expected: "a mutant name, one of: " + Mutant.all.map(\.name).joined(separator: ", "),
    { name in Mutant.all.first { $0.name == name } }, set: { $0.show = $1 }),
  .init(
    ["--config"], "FILE", "render the vectors with this partner configuration (as appflip-conformance --config)"
  ) { $0.config = $1 },
])
let options = table.parseCommandLine(Options()) {
  """
  usage: appflip-mutants [--full] [--show NAME] [--config FILE]

  Runs the bundled vectors against every deliberately broken handler and prints, for each, how many
  vectors catch it and which. Exits 1 when a mutant survives (no vector catches it).

  \(table.help())
  """
}
var configuration = PartnerConfiguration.default
if let configPath = options.config {
  do {
    configuration = try PartnerConfiguration.load(URL(fileURLWithPath: configPath))
  } catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(2)
  }
}
let catalog = VectorLoader.loadBundled()
for problem in catalog.problems {
  FileHandle.standardError.write(Data("error: \(problem)\n".utf8))
}
if let mutant = options.show {
  print("\(mutant.name): \(mutant.bug)")
  let results = await KillMatrix.catches(
    of: mutant.make, name: mutant.name, catalog: catalog, configuration: configuration)
  print(ConsoleReport.render(results), terminator: "")
  exit(results.isEmpty ? 1 : 0)
}
let matrix = await KillMatrix.compute(catalog: catalog, configuration: configuration)
let width = matrix.rows.map(\.name.count).max() ?? 0
print("kill matrix: \(matrix.rows.count) mutants × \(matrix.vectorCount) bundled vectors")
for row in matrix.rows {
  let name = row.name.padding(toLength: width, withPad: " ", startingAt: 0)
  let count = String(format: "%4ld", row.catches.count)
  guard row.isKilled else {
    print("\(name) \(count)  SURVIVED: \(row.bug)")
    continue
  }
  let ids = options.full ? row.caughtBy : Array(row.caughtBy.prefix(shownIDs))
  let more = ids.count < row.caughtBy.count ? ", …" : ""
  print("\(name) \(count)  \(ids.joined(separator: ", "))\(more)")
}
let survived = matrix.survivors.count
print("\(matrix.rows.count) mutants, \(matrix.rows.count - survived) killed, \(survived) survived")
exit(survived == 0 ? 0 : 1)
