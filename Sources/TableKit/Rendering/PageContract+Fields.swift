extension PageContract {
    /// The fields of the forms a page renders, which action routes read from a form or JSON body.
    public enum Field {
        /// A form's stand-in for the HTTP method, which HTML forms cannot choose: ``deleteMethod``
        /// posted to a row's URL deletes it.
        public static let method = "_method"
        /// The value of ``method`` that deletes.
        public static let deleteMethod = "DELETE"
        /// A new row's title, posted to a section's rows.
        public static let title = "title"
        /// The section a moved row goes to.
        public static let section = "section"
        /// The row a moved row goes before.
        public static let before = "before"
        /// The row a moved row goes after.
        public static let after = "after"
        /// Comma-separated row ids the browser is about to show (prefetch).
        public static let rows = "rows"
        /// The session's CSRF token, for a form posted without the client script (which sends
        /// ``PageContract/csrfHeader`` instead); never a value for the delegate.
        public static let csrf = "_csrf"
    }

    /// The request header in which the client script sends the session's CSRF token.
    public static let csrfHeader = "X-CSRF-Token"
    /// The name of the `<meta>` element in a page's head whose `content` is the viewer's CSRF token.
    public static let csrfMetaName = "csrf-token"

    /// The query parameters of page, section and event-stream URLs that are not a page's own
    /// variant parameters.
    public enum Query {
        /// The last row already shown, in a section's `next` link.
        public static let after = "after"
        /// Rows per section in one response.
        public static let limit = "limit"
        /// `json` for patches without HTML on the event stream.
        public static let format = "format"
        /// The version the client has, for a first connection to the event stream.
        public static let lastEventID = "lastEventId"
        /// Datasette's name for ``limit``; the same bounds.
        public static let size = "_size"
        /// Datasette's name for ``after``; on a page's own URL, the page's only section pages on.
        public static let next = "_next"
        /// The position of a section's first row to show, counted from 0 (`_at=500000`): a page of
        /// rows starting anywhere in the section, where ``after`` needs the row before it.
        public static let at = "_at"
        /// All of them, which a page's variant must not claim.
        public static let all: Set<String> = [after, limit, format, lastEventID, size, next, at]
    }
}
