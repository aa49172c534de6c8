import AppFlipConformance
import Foundation

// Argument handling and exit codes only; everything else is in the library.
let code = await ConformanceCommand.run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
