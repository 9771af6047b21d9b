import TableKit
import TablePages

/// A destination guide: header, map, information rows, rating, and reviews with a "Load more"
/// row that appends reviews live.
enum DestinationPage {
    static func definition(guide: DestinationGuide, changes: ChangeFeed) -> PageDefinition {
        PageDefinition(
            name: "destination", title: "Destination", summary: "Heterogeneous sections and a live \u{201C}Load more\u{201D}.",
            changes: changes, cellKinds: [.map]
        ) { _ in
            try DestinationRoot(guide: guide)
        }
    }
}
