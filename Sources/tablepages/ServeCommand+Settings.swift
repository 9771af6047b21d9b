import Logging
import MicroHTTP
import TablePages
import TablePagesDatabase

extension ServeCommand {
    /// The server's settings from the options.
    var serverConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration(host: host, port: port)
        configuration.threads = threads
        configuration.connectionLimit = connectionLimit
        configuration.perClientConnectionLimit = perClientConnectionLimit
        configuration.connectionTimeout = connectionTimeout
        configuration.requestTimeout = .seconds(requestTimeout)
        configuration.maxStreamsPerClient = maxStreamsPerClient
        configuration.trustedProxies = trustedProxy.compactMap(AddressRange.init)
        configuration.maxBodySize = maxBodySize
        configuration.connectionMemoryLimit = connectionMemoryLimit
        configuration.heartbeatInterval = .seconds(heartbeatInterval)
        configuration.accessLogFormat = logFormat
        configuration.accessLogBufferSize = accessLogBufferSize
        return configuration
    }

    /// The live pages' bounds from the options.
    var liveSettings: LiveSettings {
        var settings = LiveSettings()
        settings.renderCacheByteLimit = renderCacheSize
        settings.maxLiveVariants = maxLiveVariants
        settings.liveVariantsByteLimit = liveVariantsSize
        settings.maxVariantsPerPage = maxVariantsPerPage
        settings.maxPagesPerStream = maxPagesPerStream
        settings.patchLogByteLimit = patchLogSize
        settings.idempotencyByteLimit = idempotencyCacheSize
        settings.exportBufferBytes = exportBufferSize
        settings.maxConcurrentExports = maxExports
        settings.databaseConcurrency = databaseConcurrency
        settings.databaseQueueLimit = databaseQueueLimit
        settings.queryLaneQueueLimit = liveQueryQueueLimit
        settings.maxWatchedQueriesPerClient = maxWatchedQueriesPerClient
        settings.unwatchedQueryLifetime = .seconds(unwatchedQueryLifetime)
        settings.positionalQueueLimit = positionalQueueLimit
        settings.stallTimeout = .seconds(stallTimeout)
        return settings
    }

    /// Who may do what, from the options, with the credentials file opened (and its session
    /// secret rotated with `--rotate-secret`).
    /// - Throws: a message naming the credentials file when it cannot be opened.
    func accessSettings(logger: Logger) throws -> AccessSettings {
        let hostNames = HostAllowList.defaultNames(listeningOn: host) + allowedHosts
        var access = AccessSettings(anonymousWrites: anonymousWrites, allowedHosts: hostNames, corsOrigins: corsOrigins)
        access.signInLimiterSize = signInLimiterSize
        access.signInLinkLifetime = signInLinks.lifetime
        access.secureCookies = secureCookies
        do {
            let store = try credentials.open()
            if rotateSecret { _ = try store.rotateSessionSecret() }
            access.credentials = store
        } catch {
            throw CredentialsUnopened(path: credentials.credentials, error: error)
        }
        return access
    }

    /// The limits of the SQL page's and canned queries' queries.
    var queryLimits: QueryLimits {
        var limits = QueryLimits()
        limits.rows = sqlRowLimit
        limits.bytes = sqlResultSize
        limits.time = queryTimeLimit > 0 ? .milliseconds(queryTimeLimit) : nil
        return limits
    }
}
