import MicroHTTP
import TableKit

/// A value that does not fit its form's field is the visitor's mistake: a 400 whose message
/// names the field by its label, and whose `TablePages-Field` header names the input, so the
/// page script shows the message beside the form and marks that input.
extension FormFieldProblem: HTTPErrorConvertible {
    /// The header that names the input at fault.
    static let fieldHeader = "TablePages-Field"

    /// A 400 with the problem's message and the field's name.
    public var httpError: HTTPError {
        HTTPError(400, message, headers: [Self.fieldHeader: field])
    }
}
