import TableKit

/// A delegate below a page's root declares page abilities (it is a ``PageSource``), which only the
/// root's are routed to: the page's host refuses to start rather than ignore them. Declare the
/// abilities on the root, which may ask the delegate.
public struct PageSourceMisplaced: Error, CustomStringConvertible {
    /// The page whose tree holds the delegate.
    public let page: String
    /// The delegate's type.
    public let delegateType: String

    /// Says what is wrong and what to do.
    public var description: String {
        "page \(page): \(delegateType) below the root is a PageSource, but only the root's abilities are routed to; declare them on the root"
    }

    /// Throws when a delegate below `root` (its children, theirs, and so on) is a ``PageSource``.
    ///
    /// A check for a mistake, not a way to find abilities: the host asks the root's declared ones.
    static func check(_ root: any TableRoot, page: String) throws {
        guard let cascading = root as? any CascadingTableDelegate else { return }
        var pending = cascading.childDelegates
        while let delegate = pending.popLast() {
            if delegate is any PageSource {
                throw PageSourceMisplaced(page: page, delegateType: String(describing: type(of: delegate)))
            }
            pending.append(contentsOf: delegate.childDelegates)
        }
    }
}
