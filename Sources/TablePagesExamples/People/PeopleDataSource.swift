import TableKit
import TablePages
import TableStore

/// The people page's data source: people and pets in two sections, one cell kind for both.
final class PeopleDataSource: SectionsDataSource<Profile>, VersionedDataSource {
    private let store: any SQLStore

    init(store: any SQLStore) throws {
        self.store = store
        super.init(models: try Profile.all(in: store), sectionKey: \.group) { profile, _ in profile.cell }
    }

    func reloadFromSource() throws {
        models = try Profile.all(in: store)
    }

    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { false }
}
