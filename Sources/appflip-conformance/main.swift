import AppFlipConformance
import Foundation


func printError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

let options: CommandLineOptions
do {
  options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  printError("error: \(error)")
  exit(2)
}
if options.help {
  print(CommandLineOptions.usage)
  exit(0)
}
if options.version {
  print("\(SuiteInfo.name) \(SuiteInfo.version)")
  exit(0)
}

var configuration = PartnerConfiguration.default
if let path = options.configPath {
  do {
    configuration = try PartnerConfiguration.load(URL(fileURLWithPath: path))
  } catch {
    printError("error: \(error)")
    exit(2)
  }
}

var catalog = options.bundled ? VectorLoader.loadBundled() : VectorCatalog()
for path in options.vectorPaths {
  catalog.merge(VectorLoader.load(URL(fileURLWithPath: path), displayPath: path))
}
catalog = options.filter.apply(to: catalog)
for problem in catalog.problems { printError("error: \(problem)") }

if options.validate {
  print("\(catalog.vectors.count) vectors valid, \(catalog.problems.count) problems")
  exit(catalog.problems.isEmpty ? 0 : 2)
}
if options.list {
  for loaded in catalog.vectors {
    print("\(loaded.vector.id)\t\(loaded.vector.level.rawValue)\t\(loaded.vector.tags.joined(separator: ","))")
  }
  exit(catalog.problems.isEmpty ? 0 : 2)
}

let adapter = InProcessAdapter(ReferenceHandlerAdapter(configuration: configuration), name: "AppFlipReferenceHandler")
let runner = Runner(adapter: adapter, configuration: configuration, timeout: options.timeout, strict: options.strict)
print("\(SuiteInfo.name) \(SuiteInfo.version): \(catalog.vectors.count) vectors against \(adapter.name)")
let results = await runner.run(catalog)
print(ConsoleReport.render(results), terminator: "")

let reportURL = URL(fileURLWithPath: options.reportPath)
do {
  try JUnitReport.write(results, implementation: adapter.name, to: reportURL)
  print("JUnit report: \(options.reportPath)")
} catch {
  printError("error: cannot write the JUnit report to '\(options.reportPath)' (\(error.localizedDescription)); check the folder.")
  exit(2)
}
let summary = RunSummary(results)
exit(!catalog.problems.isEmpty ? 2 : summary.isSuccess ? 0 : 1)
