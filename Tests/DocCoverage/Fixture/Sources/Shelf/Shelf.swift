/// A shelf of books.
open class Shelf {
    /// The titles on the shelf.
    public var titles: [String] = []

    /// Creates an empty shelf.
    public init() {}

    /// Puts a book on the shelf.
    // A plain comment between the summary and the declaration is allowed.
    @discardableResult
    open func add(_ title: String) -> Int {
        titles.append(title)
        return titles.count
    }

    public func undocumentedMethod() {}

    func internalHelper() {}
}

/// A shelf that keeps its books sorted.
public final class SortedShelf: Shelf {
    public override func add(_ title: String) -> Int {
        titles.append(title)
        titles.sort()
        return titles.count
    }
}

public struct UndocumentedType {}

/// Where a shelf stands.
public enum Room {
    /// The study.
    case study
    case kitchen
}

extension Shelf {
    /// The number of books.
    public var count: Int { titles.count }
}

public extension Room {
    var isQuiet: Bool { self == .study }
}

extension String {
    public var undocumentedExtensionOnStandardType: String { self }
}

/// Reads a shelf aloud.
public protocol Reader {
    func read(_ shelf: Shelf)
}
