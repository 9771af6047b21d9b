import TableKit
import TablePages
import TableStore

/// People and pets: one reusable cell kind, two data providers. Users have no picture, so their
/// image area collapses; pets show an avatar, breed, owner and weight.
enum PeoplePage {
    static func definition(store: any SQLStore, changes: ChangeFeed) -> PageDefinition {
        PageDefinition(
            name: "people", title: "People & pets", summary: "One reusable cell, two data providers.",
            // Nothing on it can be changed through the web, so nobody is asked to sign in.
            changes: changes, access: .everyoneReads
        ) { variant in
            try PeopleDataSource(store: store)
        }
    }
}
