import TablePages

/// The destination page, a long page of different sections as in CascadingTableDelegate's
/// sample: each section is its own delegate, each info line its own row delegate.
final class DestinationRoot: ObservedSource<DestinationGuide.Reading?> {
    private let header = StaticSection(id: "header")
    private let map = StaticSection(id: "map")
    private let contact = StaticSection(id: "contact", header: "Information")
    private let rating = StaticSection(id: "rating", header: "Rating")
    private let reviews = StaticSection(id: "reviews", header: "Reviews")
    private let loadMore: LoadMoreRow

    init(guide: DestinationGuide) {
        loadMore = LoadMoreRow(guide: guide)
        super.init(guide.data, fetch: DestinationGuide.read)
        childDelegates = [header, map, contact, rating, reviews]
    }

    // The destination's name heads the page; nil (the page's title) until there is one.
    private var destinationName: String?

    override func titleForTable() -> String? { destinationName }

    override func show(_ reading: DestinationGuide.Reading?) {
        guard let reading else {
            destinationName = nil
            for section in [header, map, contact, rating, reviews] { section.childDelegates = [] }
            return
        }
        let (place, shown, reviewCount) = (reading.destination, reading.reviews, reading.reviewCount)
        destinationName = place.name
        header.childDelegates = [
            StaticRow(id: "photo", cell: TableCell(.image, CellContent(
                title: place.name, subtitle: place.location,
                image: CellImage(url: place.photo, alt: place.name, size: .init(width: 720, height: 300))))),
            StaticRow(id: "description", cell: TableCell(.subtitle, CellContent(title: "About", subtitle: place.summary))),
        ]
        map.headerView = TableCell(.value, CellContent(title: "Where it is", detail: Self.coordinates(place)))
        map.childDelegates = [
            StaticRow(id: "map", cell: TableCell(.map, CellContent(
                title: place.name, subtitle: Self.coordinates(place),
                image: CellImage(url: place.map, alt: "Map of \(place.name)", size: .init(width: 600, height: 240))))),
        ]
        contact.childDelegates = [
            StaticRow(id: "address", cell: TableCell(.value, CellContent(title: "Address", detail: place.address))),
            StaticRow(id: "website", cell: TableCell(.value, CellContent(title: "Website", detail: place.website))),
            StaticRow(id: "phone", cell: TableCell(.value, CellContent(title: "Phone", detail: place.phone))),
        ]
        rating.childDelegates = [
            StaticRow(id: "rating", cell: TableCell(.value, CellContent(
                title: Self.stars(place.rating), detail: "\(place.rating) out of 5 · \(reviewCount) reviews"))),
        ]
        var rows: [any CascadingTableDelegate] = shown.map { review in
            StaticRow(id: RowID("review-\(review.id ?? 0)"), cell: TableCell(.subtitle, CellContent(
                title: review.author, subtitle: review.text, detail: Self.stars(Double(review.stars)))))
        }
        loadMore.remaining = reviewCount - shown.count
        if loadMore.remaining > 0 { rows.append(loadMore) }
        // The section's header and footer stay as they are, so more reviews arrive as inserted
        // rows rather than as a replaced section.
        reviews.childDelegates = rows
    }

    static func stars(_ rating: Double) -> String {
        let full = Int(rating.rounded())
        return String(repeating: "★", count: full) + String(repeating: "☆", count: max(0, 5 - full))
    }

    static func coordinates(_ place: Destination) -> String {
        let latitude = (place.latitude * 100).rounded() / 100, longitude = (place.longitude * 100).rounded() / 100
        return "\(abs(latitude))° \(latitude >= 0 ? "N" : "S"), \(abs(longitude))° \(longitude >= 0 ? "E" : "W")"
    }
}
