/// One line of a product's detail page: a labelled value in a group, or a link elsewhere.
struct ProductFact: Identifiable, Hashable {
    let id: String
    let group: String
    let label: String
    let value: String
    /// Where selecting the line leads; nil for a plain value.
    var location: String?

    /// The lines describing `product`, grouped as the page shows them.
    static func facts(of product: Product) -> [ProductFact] {
        [
            ProductFact(id: "name", group: "Product", label: "Name", value: product.name),
            ProductFact(id: "category", group: "Product", label: "Category", value: product.category),
            ProductFact(id: "summary", group: "Product", label: "About", value: product.summary),
            ProductFact(id: "price", group: "Price and stock", label: "Price", value: product.formattedPrice),
            ProductFact(id: "stock", group: "Price and stock", label: "In stock", value: String(product.stock)),
            ProductFact(id: "all-products", group: "More", label: "All products", value: "", location: "/pages/products"),
        ]
    }
}
