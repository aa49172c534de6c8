/// A vector together with where it came from.
///
/// Its fields live in one shared box: a run hands each vector to its plan, its result and the callbacks, and a copy
/// of the box is one retain where a copy of the fields is one per string and array in them.
public struct LoadedVector: Sendable, Hashable {
  private struct Fields: Sendable, Hashable {
    var vector: Vector
    var file: String
    var area: String
    var profile: VectorFile.Profile
    var partnerRule: PartnerRule.Citation?
  }

  private var shared: Shared<Fields>

  /// The vector.
  package var vector: Vector {
    get { shared.value.vector }
    set { shared.value.vector = newValue }
  }

  /// The file it was read from, as shown in messages and reports.
  public var file: String {
    get { shared.value.file }
    set { shared.value.file = newValue }
  }

  /// The area of its file.
  public var area: String {
    get { shared.value.area }
    set { shared.value.area = newValue }
  }

  /// The profile of its file.
  package var profile: VectorFile.Profile { shared.value.profile }

  /// The partner rule the vector asserts its expectation under (`VectorDefinitions.assertedRule(citedBy:)`): its
  /// findings count at that rule's level, capped by the vector's; `nil` for a vector citing no rule of a partner's.
  package var partnerRule: PartnerRule.Citation? { shared.value.partnerRule }

  /// Creates a loaded vector.
  package init(
    vector: Vector, file: String, area: String, profile: VectorFile.Profile = .app,
    partnerRule: PartnerRule.Citation? = nil
  ) {
    shared = Shared(Fields(vector: vector, file: file, area: area, profile: profile, partnerRule: partnerRule))
  }
}

extension VectorResult {
  /// The result of `loaded` with this status and message, carrying what every result of a vector carries from it (id,
  /// area, file, level, spec, tags, flags, rules): the one place a vector's result is made, run or not.
  package init(_ loaded: LoadedVector, status: Status, message: String = "") {
    let vector = loaded.vector
    self.init(
      id: vector.id, area: loaded.area, file: loaded.file, level: vector.level, spec: vector.spec, tags: vector.tags,
      flags: vector.flags, status: status, message: message, rules: vector.rules)
  }

  /// The result of `loaded` left out because the run stopped early: skipped, "not run: REASON".
  package init(_ loaded: LoadedVector, notRun reason: String) {
    self.init(loaded, status: .skipped, message: "not run: \(reason)")
    isNotRun = true
  }
}

/// Value fields kept in one shared, never-changed box (`LoadedVector`, `Vector.Step`): a copy is one retain where a
/// copy of the fields is one per string and array in them, and setting a field makes a new box.
struct Shared<Value: Sendable & Hashable>: Sendable, Hashable {
  private final class Box: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }

  private var box: Box

  init(_ value: Value) { box = Box(value) }

  var value: Value {
    get { box.value }
    set { box = Box(newValue) }
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.box === rhs.box || lhs.value == rhs.value }

  func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
