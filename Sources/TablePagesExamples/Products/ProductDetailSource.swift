import TablePages
import TablePagesDatabase

/// A product's fields as a grouped table of value cells, re-read when the database changes;
/// titled with the product's name.
final class ProductDetailSource: ObservedSource<Product?> {
    private var productName: String?
    // The groups shown, kept by name, as their rows are kept by fact.
    private var groups: [String: ObservedSection<ProductFact>] = [:]

    init(data: ExampleData, productID: Int64) {
        super.init(data, fetch: { db in try Product.find(productID, db) })
    }

    override func titleForTable() -> String? { productName }

    override func show(_ product: Product?) {
        productName = product?.name
        let facts = product.map(ProductFact.facts(of:)) ?? []
        var names: [String] = []
        for fact in facts where !names.contains(fact.group) { names.append(fact.group) }
        groups = Dictionary(uniqueKeysWithValues: names.map { name in
            (name, groups[name] ?? ObservedSection(id: SectionID(name), header: name) { fact in ProductFactRow(item: fact) })
        })
        for name in names {
            groups[name]?.show(facts.filter { $0.group == name })
        }
        childDelegates = names.compactMap { groups[$0] }
    }
}

/// One line of a product's detail: a labelled value, or a link to another page.
private final class ProductFactRow: ObservedRow<ProductFact> {
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell {
        item.location == nil
            ? TableCell(.value, CellContent(title: item.label, detail: item.value))
            : TableCell(.basic, CellContent(title: item.label, accessory: .disclosureIndicator))
    }

    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { false }
    override func linkForRow(at indexPath: TableIndexPath) -> String? { item.location }
}
