import TablePages
import TablePagesDatabase

/// People and pets: one reusable cell kind, two data providers. Users have no picture, so their
/// image area collapses; pets show an avatar, breed, owner and weight.
enum PeoplePage {
    static func definition(data: ExampleData) -> PageDefinition {
        PageDefinition(
            name: "people", title: "People & pets", summary: "One reusable cell, two data providers.",
            // Nothing on it can be changed through the web, so nobody is asked to sign in.
            access: .everyoneReads
        ) { variant in
            ObservedSource(data, fetch: Profile.all, kind: .subtitle, section: { (id: $0.group, title: $0.group) }, cell: \.content)
        }
    }
}
