import AppFlipConformance
import Foundation

// Argument handling and exit codes only; everything else is in the library.
let code = await ConformanceCommand.run(Array(CommandLine.arguments.dropFirst()))
ChildProcesses.killAll()  // a curl a signal cut short, whose thread had not ended it yet
exit(code.rawValue)
