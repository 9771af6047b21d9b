import Testing
import TableKit

@Suite("Model data sources")
struct DataSourceTests {
    struct Pet: Identifiable, Equatable {
        let id: String
        let name: String
        let species: String
    }

    struct PetCell: CellDataProvider {
        let pet: Pet
        var title: String? { pet.name }
        var subtitle: String? { pet.species }
    }

    static let pets = [
        Pet(id: "rex", name: "Rex", species: "Dog"),
        Pet(id: "tom", name: "Tom", species: "Cat"),
        Pet(id: "fido", name: "Fido", species: "Dog"),
    ]

    static func cell(_ pet: Pet, _ indexPath: TableIndexPath) -> TableCell { TableCell(.subtitle, PetCell(pet: pet)) }

    @Test("A list shows every model in one section, identified by the model's id")
    func list() {
        let table = TableView(root: ListDataSource(models: Self.pets, title: "Pets", cell: Self.cell))
        #expect(table.numberOfSections == 1)
        #expect(table.indexPath(forRowID: "fido") == TableIndexPath(section: 0, row: 2))
        #expect(table.rowRecord(at: TableIndexPath(section: 0, row: 1)).cell.content == CellContent(title: "Tom", subtitle: "Cat"))
        #expect(table.sectionRecord(at: 0).headerTitle == "Pets")
    }

    @Test("Sections group models by key in order of first appearance")
    func sections() {
        let source = SectionsDataSource(models: Self.pets, sectionKey: \.species, cell: Self.cell)
        let table = TableView(root: source)
        #expect(table.sectionID(at: 0) == "Dog" && table.sectionID(at: 1) == "Cat")
        #expect(table.indexPath(forRowID: "fido") == TableIndexPath(section: 0, row: 1))
        #expect(source.model(at: TableIndexPath(section: 1, row: 0)).name == "Tom")
    }

    @Test("A page switches between a list and sections at runtime, and subscribers get a reset")
    func switching() {
        let table = TableView(root: ListDataSource(models: Self.pets, cell: Self.cell))
        var published: [Changeset] = []
        table.onChange = { published.append($0) }
        table.root = SectionsDataSource(models: Self.pets, sectionKey: \.species, cell: Self.cell)
        #expect(published == [.reset])
        #expect(table.numberOfSections == 2)
        #expect(table.sectionIndex(forSectionID: "Cat") == 1)
    }

    @Test("Changing models and reloading a row sends only the row that changed")
    func modelChange() {
        let list = ListDataSource(models: Self.pets, cell: Self.cell)
        let table = TableView(root: list)
        var published: [Changeset] = []
        table.onChange = { published.append($0) }
        list.models[1] = Pet(id: "tom", name: "Thomas", species: "Cat")
        table.reloadRows(at: [TableIndexPath(section: 0, row: 0), TableIndexPath(section: 0, row: 1)])
        #expect(published == [Changeset([.replaceRow("tom")])])
    }
}
