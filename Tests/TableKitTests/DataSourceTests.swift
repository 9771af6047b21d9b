import HostileTextSupport
import PropertyBased
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
        let table = TableAdapter(root: ListDataSource(models: Self.pets, title: "Pets", cell: Self.cell))
        #expect(table.numberOfSections == 1)
        #expect(table.indexPath(forRowID: "fido") == TableIndexPath(section: 0, row: 2))
        #expect(table.rowRecord(at: TableIndexPath(section: 0, row: 1)).cell.content == CellContent(title: "Tom", subtitle: "Cat"))
        #expect(table.sectionRecord(at: 0).headerTitle == "Pets")
    }

    @Test("Sections group models by key in order of first appearance")
    func sections() {
        let source = SectionsDataSource(models: Self.pets, sectionKey: \.species, cell: Self.cell)
        let table = TableAdapter(root: source)
        #expect(table.sectionID(at: 0) == "Dog" && table.sectionID(at: 1) == "Cat")
        #expect(table.indexPath(forRowID: "fido") == TableIndexPath(section: 0, row: 1))
        #expect(source.model(at: TableIndexPath(section: 1, row: 0)).name == "Tom")
    }

    @Test("With one key, the key is both each section's identifier and its header title")
    func sectionKeyIsIdentifierAndTitle() {
        let table = TableAdapter(root: SectionsDataSource(models: Self.pets, sectionKey: \.species, cell: Self.cell))
        #expect((0..<2).map { table.sectionID(at: $0) } == ["Dog", "Cat"])
        #expect((0..<2).map { table.sectionRecord(at: $0).headerTitle } == ["Dog", "Cat"])
    }

    struct Book: Identifiable {
        let id: String
        let genreCode: String
        let genre: String
    }

    static func bookCell(_ book: Book, _ indexPath: TableIndexPath) -> TableCell { TableCell(.basic, CellContent(title: book.id)) }

    static func byGenre(_ books: [Book]) -> SectionsDataSource<Book> {
        SectionsDataSource(models: books, section: { (id: SectionID($0.genreCode), title: $0.genre) }, cell: Self.bookCell)
    }

    @Test("Sections keep an identifier apart from their title; a section's first model names its title")
    func sectionIdentifierApartFromTitle() {
        let table = TableAdapter(root: Self.byGenre([
            Book(id: "dune", genreCode: "sf", genre: "Science fiction"),
            Book(id: "emma", genreCode: "classic", genre: "Classics"),
            Book(id: "solaris", genreCode: "sf", genre: "Sci-fi"),
        ]))
        #expect(table.numberOfSections == 2)
        #expect(table.sectionID(at: 0) == "sf" && table.sectionID(at: 1) == "classic")
        #expect(table.sectionRecord(at: 0).headerTitle == "Science fiction")
        #expect(table.sectionRecord(at: 1).headerTitle == "Classics")
        #expect(table.indexPath(forRowID: "solaris") == TableIndexPath(section: 0, row: 1))
        #expect(table.sectionIndex(forSectionID: "Science fiction") == nil)
    }

    @Test("Renaming a section's title keeps its identity: reconciling replaces the section, rows untouched")
    func renamedTitleKeepsSection() {
        let source = Self.byGenre([Book(id: "dune", genreCode: "sf", genre: "Science fiction")])
        let table = TableAdapter(root: source)
        var published: [Changeset] = []
        table.onChange = { published.append($0) }
        source.models = [Book(id: "dune", genreCode: "sf", genre: "Sci-fi")]
        table.reconcileData()
        #expect(published == [Changeset([.replaceSection("sf")])])
        #expect(table.sectionRecord(at: 0).headerTitle == "Sci-fi")
    }

    @Test("Any models group into one section per identifier, in order of first appearance, each model once, in order")
    func groupingArbitraryModels() async {
        await propertyCheckFailingOnThrow(input: Gen.int(in: 0...4).array(of: 0...24), HostileText.text.array(of: 5)) { groups, titles in
            let books = groups.enumerated().map { Book(id: "b\($0.offset)", genreCode: "g\($0.element)", genre: titles[$0.element]) }
            let source = Self.byGenre(books)
            let table = TableAdapter(root: source)
            var firstAppearance: [Int] = []
            for group in groups where !firstAppearance.contains(group) { firstAppearance.append(group) }
            #expect(table.numberOfSections == firstAppearance.count)
            for (index, group) in firstAppearance.enumerated() {
                #expect(table.sectionID(at: index) == SectionID("g\(group)"))
                #expect(table.sectionRecord(at: index).headerTitle == titles[group])
                #expect(source.sections[index].models.map(\.id) == books.filter { $0.genreCode == "g\(group)" }.map(\.id))
            }
            for book in books {
                #expect(table.indexPath(forRowID: RowID(book.id)).map { table.sectionID(at: $0.section) } == SectionID(book.genreCode))
            }
        }
    }

    @Test("A model data source shows sections arranged by hand, and reconciles when they are replaced")
    func handArrangedSections() {
        let source = ModelDataSource(sections: [
            ModelSection(id: "dogs", title: "Dogs", models: [Self.pets[0], Self.pets[2]]),
            ModelSection(id: "cats", title: nil, models: [Self.pets[1]]),
        ], cellProvider: Self.cell)
        let table = TableAdapter(root: source)
        #expect(table.sectionID(at: 1) == "cats" && table.sectionRecord(at: 1).headerTitle == nil)
        #expect(table.indexPath(forRowID: "fido") == TableIndexPath(section: 0, row: 1))
        var published: [Changeset] = []
        table.onChange = { published.append($0) }
        source.sections.remove(at: 1)
        table.reconcileData()
        #expect(published == [Changeset([.deleteSection("cats")])])
    }

    @Test("A page switches between a list and sections at runtime, and subscribers get a reset")
    func switching() {
        let table = TableAdapter(root: ListDataSource(models: Self.pets, cell: Self.cell))
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
        let table = TableAdapter(root: list)
        var published: [Changeset] = []
        table.onChange = { published.append($0) }
        list.models[1] = Pet(id: "tom", name: "Thomas", species: "Cat")
        table.reloadRows(at: [TableIndexPath(section: 0, row: 0), TableIndexPath(section: 0, row: 1)])
        #expect(published == [Changeset([.replaceRow("tom")])])
    }
}
