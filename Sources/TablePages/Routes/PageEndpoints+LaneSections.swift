import MicroHTTP
import TableKit

extension PageEndpoints {
    /// A page of the only section's rows after a row or from a position (`?_next=`, `?after=`,
    /// `?_at=` on the page's URL), started on the event thread and answered from the database lane
    /// that reads it (``/MicroHTTP/FirstStep/elsewhere(_:)``), when everything it needs is at hand
    /// there: the variant's host is made and not stale, its root pages rows away from it
    /// (``PageHost/detachedSection(_:after:at:limit:as:controls:)``), the query is valid and no
    /// lane is too busy. Nil otherwise: ``page(_:resolved:)`` then answers as for any page,
    /// reporting what is wrong.
    ///
    /// The answer is the one ``page(_:resolved:)`` gives, without its turns on the cooperative
    /// pool: the event thread hands the work to the lane, and the lane resumes the connection
    /// (half the thread hand-offs of a page of rows at random keyset positions).
    func sectionOnLane(_ request: Request, page: PageRequest, variant: PageVariant) -> (@Sendable (@escaping @Sendable (Result<Response, any Error>) -> Void) -> Void)? {
        let query = request.query
        guard let host = hosts.existingHost(for: variant), let section = host.onlySectionID,
              case .success(let after) = Result(catching: { () throws(HTTPError) in try Self.afterRow(query) }),
              case .success(let position) = Result(catching: { () throws(HTTPError) in try Self.startPosition(query, after: after) }),
              case .success(let limit) = Result(catching: { () throws(HTTPError) in try Self.rowLimit(query, settings: settings) }) else { return nil }
        let format: RenderFormat = request.prefersJSON ? .json : .html
        let controls = view(of: page.actor, definition: page.definition).controls
        guard let work = host.detachedSection(section, after: after, at: position?.index, limit: limit ?? settings.pageRowLimit, as: format, controls: controls) else { return nil }
        // The async path admits on the host's lane (as for any page) and on the lane that reads.
        let lanes = hosts.lanes(readingFrom: position?.index)
        let lane = lanes.leastBusy()
        guard (try? lanes.admit(host.lane)) != nil, (try? lanes.admit(lane)) != nil else { return nil }
        return { finish in
            lane.submit {
                finish(Result {
                    do {
                        let bytes = try work()
                        return format == .json ? .json(bytes) : .html(bytes)
                    } catch {
                        throw sectionFailure(error, section: section)
                    }
                })
            }
        }
    }
}
