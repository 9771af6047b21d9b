import TableKit

/// One row of the benchmark page: three text fields, with some characters that need escaping.
struct BenchmarkItem: Identifiable {
    let id: Int
    let name: String
    let note: String
    let price: String

    /// `count` items with deterministic text.
    static func make(count: Int) -> [BenchmarkItem] {
        (0..<count).map { index in
            BenchmarkItem(
                id: index,
                name: "Item \(index) — Fish & Chips",
                note: "Fresh \"daily\" <special> batch number \(index % 97)",
                price: "\(index % 50).99 €"
            )
        }
    }
}

/// Adapts an item to the cell data provider, as a page would.
struct BenchmarkItemCell: CellDataProvider {
    let item: BenchmarkItem
    var title: String? { item.name }
    var subtitle: String? { item.note }
    var detail: String? { item.price }
}
