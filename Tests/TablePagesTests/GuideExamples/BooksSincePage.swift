import TablePages

/// The books published in or after any year, `/pages/since?year=1965`. No list of values names
/// every year, so a resolver reads the query, checks its form and chooses the variant.
enum BooksSincePage {
    static let books = [(title: "Dune", year: 1965), (title: "Neuromancer", year: 1984), (title: "Piranesi", year: 2020)]

    /// A whole number from 1450 on, kept as the variant's `year`; none (or an empty one) is the
    /// default variant, so `/pages/since` and `/pages/since?year=` share one live table. It runs for
    /// every request, on the server's threads: it checks the form only and reads nothing.
    /// A closure written in place spells out `throws(PageDefinition.VariantError)`: a plain
    /// `throws` would be `any Error`, which the resolver's type does not accept.
    static let resolveYear: PageDefinition.VariantResolver = { query throws(PageDefinition.VariantError) in
        guard let text = query["year"], !text.isEmpty else { return [:] }
        guard let year = Int(text), year >= 1450 else {
            throw PageDefinition.VariantError(message: "year must be a whole number from 1450 on, such as 1965.")
        }
        return ["year": String(year)]
    }

    static let definition = PageDefinition(name: "since", title: "Books since", resolveVariant: resolveYear) { variant in
        let year = variant["year"].flatMap { Int($0) } ?? 0
        let rows = books.filter { $0.year >= year }.map { book in
            StaticRow(id: RowID(book.title), cell: TableCell(.subtitle, CellContent(title: book.title, subtitle: String(book.year))))
        }
        return CascadingRootTableDelegate(childDelegates: [StaticSection(id: "books", rows: rows)])
    }
}
