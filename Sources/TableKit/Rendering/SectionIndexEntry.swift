/// One title of the section index and the section it leads to.
struct SectionIndexEntry {
    var title: String
    var section: SectionID
}
