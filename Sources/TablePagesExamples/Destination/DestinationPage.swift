import TablePages

/// A destination guide: header, map, information rows, rating, and reviews with a "Load more"
/// row that appends reviews live.
enum DestinationPage {
    static func definition(guide: DestinationGuide) -> PageDefinition {
        PageDefinition(
            name: "destination", title: "Destination", summary: "Heterogeneous sections and a live \u{201C}Load more\u{201D}.",
            cellKinds: [.map]
        ) { _ in
            DestinationRoot(guide: guide)
        }
    }
}
