import Dispatch
import MicroHTTP

extension PageEndpoints {
    /// The handler of `GET /pages/{page}.csv` or `.ndjson`: every row of the variant the query
    /// names, streamed. Whatever goes wrong before the first byte is a status (404 for a page that
    /// does not export, 400 for a bad query, 503 for a read past the time limit); a failure later
    /// ends the transfer without its last chunk, so the client sees it truncated.
    func export(as format: ExportFormat) -> PageMiddleware.Handler {
        { request, context in try await exportRows(request, context: context, as: format) }
    }

    private func exportRows(_ request: Request, context: PageContext, as format: ExportFormat) async throws -> Response {
        let (definition, host) = (context.definition, context.host)
        let exporter = try await mapTableErrors { try await host.exporter(as: format) }
        guard let exporter else {
            throw HTTPError(404, "The page \u{201C}\(definition.name)\u{201D} cannot be downloaded as \(format.rawValue).")
        }
        guard exports.take() else {
            throw HTTPError(503, "\(exports.limit) downloads are running already; try again shortly.", headers: ["Retry-After": "1"])
        }
        // The first chunk is read before answering, so a failing read is still a status.
        let first: [UInt8]?
        do {
            first = try await mapTableErrors { try await Self.inBackground { try exporter.nextChunk() } }
        } catch {
            exports.give()
            throw error
        }
        let body = BodyStream(maxBufferedBytes: settings.exportBufferBytes)
        let (logger, exports) = (logger, exports)
        let name = definition.name
        Task.detached {
            defer { exports.give() }
            do {
                var chunk = first
                while let bytes = chunk {
                    // False once the client has gone: stop reading.
                    guard await body.write(bytes) else { return }
                    chunk = try await Self.inBackground { try exporter.nextChunk() }
                }
                body.finish()
            } catch {
                logger.warning("export of \(name) as \(format.rawValue) stopped: \(error)")
                body.abort()
            }
        }
        return Response(body: body, contentType: format.contentType, headers: [
            "Content-Disposition": ContentDisposition.attachment(filename: name + "." + format.rawValue),
            "Cache-Control": "no-store",
        ])
    }

    /// Runs `work`, which may block on a database, on a background dispatch thread: neither Swift's
    /// cooperative pool nor a page's lane waits for an export's reads.
    private static func inBackground<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(with: Result(catching: work)) }
        }
    }
}
