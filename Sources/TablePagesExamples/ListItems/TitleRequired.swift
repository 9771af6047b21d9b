import TablePages

/// A new item sent without a title (nothing, or only spaces): a 400 that says what to do instead,
/// where a declined insert would only say that nothing was added. It names the `title` field, so
/// the page shows it below the add form and marks the input, as for any field's problem.
struct TitleRequired: HTTPErrorConvertible {
    /// What the list holds, in words: "to-do", "item".
    let item: String

    var httpError: HTTPError {
        FormFieldProblem(
            field: ItemTitle.field.name, message: "Nothing was added: a new \(item) needs a title. Type what it is in the box, then press Add."
        ).httpError
    }
}
