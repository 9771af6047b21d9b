/// Something `/readyz` asks whether it answers, such as a database: the server counts as ready
/// only while every probe given to ``Site`` answers within ``LiveSettings/readinessTimeout``.
///
/// ``probe()`` runs on a database lane, where blocking is expected, so a probe waits behind the
/// pages' own database work and a lane held by a slow page shows up as "not ready".
/// TablePagesDatabase makes TableStore's `Store` one:
///
///     let site = Site(pages: pages, readinessProbes: [store])
public protocol ReadinessProbe: Sendable {
    /// Does one small read, blocking its thread until it is answered; throws when it cannot. The
    /// error's description is `/readyz`'s message, so it should say what failed and where.
    func probe() throws
}
