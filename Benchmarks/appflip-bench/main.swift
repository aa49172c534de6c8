import Foundation

// Argument handling and exit codes only; the measurements are in Bench.
let code = await Bench.main()
exit(code)
