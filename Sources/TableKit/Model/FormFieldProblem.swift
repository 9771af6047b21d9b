/// Why submitted values do not fit a form's fields: which field, and a sentence a visitor
/// understands, naming the field by its label (a 400 beside the form).
///
///     catch let problem as FormFieldProblem { print(problem.field, problem.message) }
public struct FormFieldProblem: Error, Hashable, Sendable {
    /// The ``FormField/name`` of the field at fault.
    public var field: String
    /// What is wrong and what to do, e.g. “Pages” must be a whole number, such as 12.
    public var message: String

    /// Creates a problem with a field.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}
