import MicroHTTP
import TableKit

extension PageEndpoints {
    /// A page of the only section's rows after a row or from a position (`?_next=`, `?after=`,
    /// `?_at=` on the page's URL), started on the event thread and answered from the database lane
    /// that reads it (``/MicroHTTP/HTTPAnswer/elsewhere(_:)``), when everything it needs is at hand
    /// there: the variant's host is made and not stale, its root pages rows away from it
    /// (``PageHost/detachedSection(_:after:at:limit:as:controls:)``) and no
    /// lane is too busy. Nil otherwise: ``page(_:resolved:)`` then answers as for any page,
    /// reporting what is wrong.
    ///
    /// The answer is the one ``page(_:resolved:)`` gives, without its turns on the cooperative
    /// pool: the event thread hands the work to the lane, and the lane resumes the connection
    /// (half the thread hand-offs of a page of rows at random keyset positions).
    func sectionOnLane(page: PageRequest, variant: PageVariant, window: RowWindow) -> (@Sendable (@escaping @Sendable (Result<Response, any Error>) -> Void) -> Void)? {
        guard let host = hosts.existingHost(for: variant), let section = host.onlySectionID else { return nil }
        let (after, position) = (window.after, window.position)
        let format: RenderFormat = page.json ? .json : .html
        guard let work = host.detachedSection(section, after: after, at: position?.index, limit: window.limit ?? settings.pageRowLimit, as: format, controls: page.view.controls) else { return nil }
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
