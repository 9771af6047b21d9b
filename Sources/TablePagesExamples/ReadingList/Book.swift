/// One book of the in-memory reading list example.
struct Book: Identifiable, Sendable, Equatable {
    let id: String
    var title: String
    var author: String
}
