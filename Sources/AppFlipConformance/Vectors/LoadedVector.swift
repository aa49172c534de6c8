/// A vector together with where it came from.
///
/// Its fields live in one shared box: a run hands each vector to its plan, its result and the callbacks, and a copy
/// of the box is one retain where a copy of the fields is one per string and array in them.
public struct LoadedVector: Sendable, Hashable {
  /// The fields, never changed in place: setting one makes a new box.
  private final class Storage: Sendable, Hashable {
    let vector: Vector
    let file: String
    let area: String
    let profile: VectorFile.Profile
    let partnerRule: PartnerRule.Citation?

    init(
      vector: Vector, file: String, area: String, profile: VectorFile.Profile, partnerRule: PartnerRule.Citation?
    ) {
      self.vector = vector
      self.file = file
      self.area = area
      self.profile = profile
      self.partnerRule = partnerRule
    }

    static func == (lhs: Storage, rhs: Storage) -> Bool {
      lhs === rhs
        || (lhs.vector == rhs.vector && lhs.file == rhs.file && lhs.area == rhs.area && lhs.profile == rhs.profile
          && lhs.partnerRule == rhs.partnerRule)
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(vector)
      hasher.combine(file)
      hasher.combine(area)
      hasher.combine(profile)
      hasher.combine(partnerRule)
    }
  }

  private var storage: Storage

  /// The vector.
  package var vector: Vector {
    get { storage.vector }
    set { storage = Storage(vector: newValue, file: file, area: area, profile: profile, partnerRule: partnerRule) }
  }

  /// The file it was read from, as shown in messages and reports.
  public var file: String {
    get { storage.file }
    set { storage = Storage(vector: vector, file: newValue, area: area, profile: profile, partnerRule: partnerRule) }
  }

  /// The area of its file.
  public var area: String {
    get { storage.area }
    set { storage = Storage(vector: vector, file: file, area: newValue, profile: profile, partnerRule: partnerRule) }
  }

  /// The profile of its file.
  package var profile: VectorFile.Profile {
    get { storage.profile }
    set { storage = Storage(vector: vector, file: file, area: area, profile: newValue, partnerRule: partnerRule) }
  }

  /// The partner rule the vector asserts its expectation under (`VectorDefinitions.assertedRule(citedBy:)`): its
  /// findings count at that rule's level, capped by the vector's; `nil` for a vector citing no rule of a partner's.
  package var partnerRule: PartnerRule.Citation? { storage.partnerRule }

  /// Creates a loaded vector.
  package init(
    vector: Vector, file: String, area: String, profile: VectorFile.Profile = .app,
    partnerRule: PartnerRule.Citation? = nil
  ) {
    storage = Storage(vector: vector, file: file, area: area, profile: profile, partnerRule: partnerRule)
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
