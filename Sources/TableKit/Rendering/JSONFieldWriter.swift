/// Writes a row's fields into its JSON object, the members of its `fields` object in order, for a
/// data source that writes them straight from its storage
/// (``TableDataSource/writeFields(forRowAt:into:)``).
///
///     fields.write("name", .string(product.name))
///     fields.write("price", .number(product.price))
///
/// A field is written as a ``CellField`` with that ``CellField/json`` would be: a number that is
/// not finite as `null`, strings escaped as every JSON string of a page.
public struct JSONFieldWriter {
    /// The output, lent by the emitter for the row's fields.
    var out: OutputBuffer
    /// How many fields were written: the first opens the `fields` object.
    private(set) var count = 0

    init(out: OutputBuffer) {
        self.out = out
    }

    /// Writes a field named `name` whose value is `value`.
    public mutating func write(_ name: String, _ value: JSONValue) {
        write(name, json: value, text: "")
    }

    /// Writes a cell's fields, in order: each its JSON value, or its text as a string when it has none.
    mutating func write(fieldsOf cell: TableCell) {
        for field in cell.content.fields {
            write(field.name, json: field.json, text: field.value)
        }
    }

    private mutating func write(_ name: String, json: JSONValue?, text: String) {
        let isFirst = count == 0
        count += 1
        switch json {
        case .array?, .object?:
            out.append(isFirst ? ",\"fields\":{" : ",")
            out.appendJSONString(name)
            out.append(":")
            if let json { JSONEmitter.appendValue(json, into: &out) }
        default:
            // A database page writes hundreds of these per request: one reservation per field,
            // not one per name, colon and value.
            let value = switch json {
            case nil: ByteWriter.maxEscapedCount(text)
            case .string(let string)?: ByteWriter.maxEscapedCount(string)
            default: ByteWriter.maxNumberCount
            }
            out.append(maxCount: 20 + ByteWriter.maxEscapedCount(name) + value) { out in
                out.write(isFirst ? ",\"fields\":{" : ",")
                out.writeJSONString(name)
                out.write(":")
                switch json {
                case nil: out.writeJSONString(text)
                case .null?: out.write("null")
                case .bool(let value)?: out.write(value ? "true" : "false")
                case .integer(let value)?: out.write(Int(value))
                case .number(let value)? where value.isFinite: out.write(value)
                case .number?: out.write("null")
                case .string(let string)?: out.writeJSONString(string)
                case .array?, .object?: out.write("null")  // Never: such fields are written above.
                }
            }
        }
    }

    /// Closes the `fields` object when a field opened it.
    mutating func finish() {
        if count > 0 {
            out.append("}")
        }
    }
}
