/// The cell kinds a table knows, by reuse identifier; starts with the built-in kinds.
///
///     var kinds = CellKindRegistry()
///     kinds.register(myKind)
///     kinds.kind(for: "subtitle").reuseIdentifier // "subtitle"
public struct CellKindRegistry: Sendable {
    private var kinds: [String: CellKind] = [:]

    /// Creates a registry holding the built-in kinds.
    public init() {
        for kind in CellKind.builtIns {
            register(kind)
        }
    }

    /// Registers `kind`, replacing any kind with the same reuse identifier.
    public mutating func register(_ kind: CellKind) {
        kinds[kind.reuseIdentifier] = kind
    }

    /// The kind registered under `reuseIdentifier`, or ``CellKind/basic`` when none is, so that a
    /// typo shows a plain cell instead of failing the whole page.
    public func kind(for reuseIdentifier: String) -> CellKind {
        kinds[reuseIdentifier] ?? .basic
    }

    /// Whether a kind is registered under `reuseIdentifier`.
    public func contains(_ reuseIdentifier: String) -> Bool {
        kinds[reuseIdentifier] != nil
    }
}
