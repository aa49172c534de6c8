/// RFC 3492 Punycode, encoding only: the part of an IDNA A-label after `xn--`.
enum Punycode {
  static func encode(_ input: [Unicode.Scalar]) -> String {
    let base = 36
    let tMin = 1
    let tMax = 26
    let skew = 38
    let damp = 700
    var n = 128
    var delta = 0
    var bias = 72
    var output = input.filter(\.isASCII).map { Character($0) }
    let basicCount = output.count
    var handled = basicCount
    if basicCount > 0 { output.append("-") }
    func digit(_ value: Int) -> Character {
      Character(Unicode.Scalar(UInt8(value < 26 ? value + 97 : value + 22)))
    }
    func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
      var delta = first ? delta / damp : delta / 2
      delta += delta / count
      var k = 0
      while delta > ((base - tMin) * tMax) / 2 {
        delta /= base - tMin
        k += base
      }
      return k + (base - tMin + 1) * delta / (delta + skew)
    }
    while handled < input.count {
      let m = input.map { Int($0.value) }.filter { $0 >= n }.min() ?? n
      delta += (m - n) * (handled + 1)
      n = m
      for scalar in input {
        let c = Int(scalar.value)
        if c < n { delta += 1 }
        if c == n {
          var q = delta
          var k = base
          while true {
            let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
            if q < t { break }
            output.append(digit(t + (q - t) % (base - t)))
            q = (q - t) / (base - t)
            k += base
          }
          output.append(digit(q))
          bias = adapt(delta, handled + 1, handled == basicCount)
          delta = 0
          handled += 1
        }
      }
      delta += 1
      n += 1
    }
    return String(output)
  }
}
