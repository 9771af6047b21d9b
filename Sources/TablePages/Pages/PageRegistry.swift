import MicroHTTP
import TableKit

/// The pages the service offers, in index order, and the files they use besides the site's own.
///
///     var pages = PageRegistry()
///     pages.register(todoPage)
///     pages.register(publicFiles: BuiltInFiles(["images/todo.svg": iconBytes]))
public struct PageRegistry: Sendable {
    /// The pages, in the order they were registered.
    public private(set) var pages: [PageDefinition] = []
    /// Files the pages use (pictures, say), served under `/public/` beside ``SiteAssets``.
    public private(set) var publicFiles = BuiltInFiles()

    /// Creates an empty registry.
    public init() {}

    /// Adds a page; a page with the same name replaces the earlier one.
    public mutating func register(_ page: PageDefinition) {
        pages.removeAll { $0.name == page.name }
        pages.append(page)
    }

    /// Removes the page named `name`, if there is one (its table was dropped, say).
    public mutating func remove(named name: String) {
        pages.removeAll { $0.name == name }
    }

    /// Adds files the pages use; a file at a path already here, or in ``SiteAssets``, is replaced.
    public mutating func register(publicFiles files: BuiltInFiles) {
        publicFiles.add(files)
    }

    /// The page named `name`, or nil.
    public func page(named name: String) -> PageDefinition? {
        pages.first { $0.name == name }
    }

    /// The page a URL's path segment (percent-decoded) names: the tilde-encoded name that
    /// ``/TableKit/PageContract/pagePath(named:)`` writes, else the name as it is; nil for neither.
    public func page(inPath segment: String) -> PageDefinition? {
        PageContract.firstPage(inPath: segment, page(named:))
    }
}
