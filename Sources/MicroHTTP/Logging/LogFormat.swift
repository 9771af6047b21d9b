/// How log lines are written: `text` for people reading a terminal, `json` for log shippers.
///
/// Both put one event on one line and name the same fields: `time`, `level`, `label`, `message`,
/// then the event's own fields (an access line adds `method`, `path`, `status`, `duration_ms`,
/// `peer` and, when known, `actor`). See ``LogLine``.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-11-22T10:20:35.123Z info tablepages: GET /pages/todo 200 0.42ms peer=127.0.0.1`
    case text
    /// `{"time":"2026-11-22T10:20:35.123Z","level":"info","label":"tablepages","message":"GET /pages/todo 200 0.42ms","method":"GET",…}`
    case json
}
