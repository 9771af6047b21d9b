/// Reads an export's rows and encodes them, one chunk at a time.
///
/// Implementation requirements: ``nextChunk()`` may block on a database (it is called on a
/// background thread, never on Swift's cooperative pool); one producer calls it at a time, and
/// stops calling it once it returns nil or throws.
public protocol RowExporter: Sendable {
    /// The next bytes of the body (the first call includes any header), or nil after the last.
    func nextChunk() throws -> [UInt8]?
}
