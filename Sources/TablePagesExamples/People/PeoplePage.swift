import TableKit
import TablePages
import TableStore

/// People and pets: one reusable cell kind, two data providers. Users have no picture, so their
/// image area collapses; pets show an avatar, breed, owner and weight.
enum PeoplePage {
    static func definition(store: any SQLStore, changes: ChangeFeed) -> PageDefinition {
        PageDefinition(name: "people", title: "People & pets", summary: "One reusable cell, two data providers.", changes: changes) { variant in
            try PeopleDataSource(store: store)
        }
    }
}
