import Logging
import Synchronization

/// The live hosts, one per page variant, made on first use.
final class PageHosts: Sendable {
    let registry: PageRegistry
    let settings: LiveSettings
    private let hosts = Mutex<[PageVariant: PageHost]>([:])

    let logger: Logger

    init(registry: PageRegistry, settings: LiveSettings, logger: Logger) {
        self.registry = registry
        self.settings = settings
        self.logger = logger
    }

    /// The hosts made so far.
    var all: [PageHost] { hosts.withLock { Array($0.values) } }

    /// The host of `variant`, creating its table on first use.
    func host(for variant: PageVariant, definition: PageDefinition) throws -> PageHost {
        if let host = hosts.withLock({ $0[variant] }) { return host }
        // Built outside the lock: a page's factory may be slow (it may read a database).
        let made = try PageHost(definition: definition, variant: variant, settings: settings, logger: logger)
        return hosts.withLock { hosts in
            if let existing = hosts[variant] { return existing }
            hosts[variant] = made
            return made
        }
    }
}
