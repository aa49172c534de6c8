import AppFlipConformance
import Foundation

extension ConformanceHarness {
  /// Creates a harness for an in-process handler.
  ///
  /// - Parameters:
  ///   - name: names the harness in its summary, and its reports where a path holds `{name}`.
  ///   - handler: the partner's handler, wrapped as an `AppFlipHandler`.
  ///   - configuration: the partner's client id, universal link and allow-list.
  ///   - vectors: extra vector files or folders, loaded like the bundled ones.
  ///   - bundled: whether to include the bundled vectors.
  ///   - filter: which vectors to run.
  ///   - junit: where to write JUnit, relative to the working directory (the package root under `swift test`);
  ///     `{name}` stands for the harness's name; `nil` writes none.
  ///   - strict: whether SHOULD findings fail.
  ///   - timeout: seconds one step may take.
  ///   - waivers: a waiver file: waived failures pass as skipped, stale or unmatched waivers fail; errors stay errors.
  ///   - platform: the app's target (`.ios16`, `.ios17`, `.android`): vectors whose links it cannot deliver are skipped.
  public convenience init(
    name: String = "appflip-conformance", handler: some AppFlipHandler, configuration: PartnerConfiguration = .default,
    vectors: [URL] = [], bundled: Bool = true, filter: VectorFilter = VectorFilter(),
    junit: String? = "Reports/{name}-swift-testing.xml", strict: Bool = false, timeout: Double = 10,
    waivers: URL? = nil,
    platform: DeliveryPlatform? = nil
  ) {
    self.init(
      name: name, adapter: InProcessAdapter(handler), configuration: configuration,
      options: Self.options(vectors, bundled, filter, junit, strict, timeout, waivers, platform))
  }

  /// Creates a harness that builds the partner's handler for each configuration, so vectors with their own
  /// configuration run too; the parameters are those of `init(name:handler:…)`.
  public convenience init(
    name: String = "appflip-conformance",
    makeHandler: @escaping @Sendable (PartnerConfiguration) -> some AppFlipHandler,
    configuration: PartnerConfiguration = .default, vectors: [URL] = [], bundled: Bool = true,
    filter: VectorFilter = VectorFilter(), junit: String? = "Reports/{name}-swift-testing.xml", strict: Bool = false,
    timeout: Double = 10, waivers: URL? = nil, platform: DeliveryPlatform? = nil
  ) {
    self.init(
      name: name, adapter: InProcessAdapter(make: makeHandler), configuration: configuration,
      options: Self.options(vectors, bundled, filter, junit, strict, timeout, waivers, platform))
  }

  /// The options the parameters of `init(name:handler:…)` stand for.
  private static func options(
    _ vectors: [URL], _ bundled: Bool, _ filter: VectorFilter, _ junit: String?, _ strict: Bool, _ timeout: Double,
    _ waivers: URL?, _ platform: DeliveryPlatform?
  ) -> ConformanceOptions {
    ConformanceOptions(
      vectors: vectors.map(\.path), bundled: bundled, filter: filter, strict: strict, timeout: timeout,
      platform: platform, waivers: waivers?.path, junit: junit)
  }

  /// Creates a harness that builds the partner's handler for each configuration and does what `options` say (the
  /// command line's options: reports, waivers, selection, shard, max failures, strict, timeout, platform, jobs).
  public convenience init(
    name: String = "appflip-conformance",
    makeHandler: @escaping @Sendable (PartnerConfiguration) -> some AppFlipHandler,
    configuration: PartnerConfiguration = .default, options: ConformanceOptions
  ) {
    self.init(name: name, adapter: InProcessAdapter(make: makeHandler), configuration: configuration, options: options)
  }

  /// Creates a harness for an in-process handler that does what `options` say.
  public convenience init(
    name: String = "appflip-conformance", handler: some AppFlipHandler, configuration: PartnerConfiguration = .default,
    options: ConformanceOptions
  ) {
    self.init(name: name, adapter: InProcessAdapter(handler), configuration: configuration, options: options)
  }
}
