/// Files compiled into the program, by path relative to the folder they stand for (`images/a.svg`),
/// for ``StaticFiles`` to serve without reading a disk.
///
///     var files = BuiltInFiles(base64Encoded: [(path: "site.css", base64: "Ym9keSB7fQ==")])
///     files.add(BuiltInFiles(["favicon.svg": iconBytes]))
///     let statics = StaticFiles(builtIn: files)
public struct BuiltInFiles: Sendable {
    /// Each file's bytes by its relative path.
    public private(set) var contents: [String: [UInt8]]

    /// The files in `contents`.
    public init(_ contents: [String: [UInt8]] = [:]) {
        self.contents = contents
    }

    /// Decodes files a build step wrote as base64 literals; a literal that is not valid base64 is a
    /// broken build, so it stops the program with the file's path rather than serve wrong bytes.
    public init(base64Encoded files: [(path: String, base64: StaticString)]) {
        var contents: [String: [UInt8]] = [:]
        for file in files {
            guard let bytes = file.base64.withUTF8Buffer(Base64.decode) else {
                preconditionFailure("The built-in file \(file.path) is not valid base64.")
            }
            contents[file.path] = bytes
        }
        self.init(contents)
    }

    /// The bytes of the file at `path`, or nil.
    public subscript(path: String) -> [UInt8]? {
        contents[path]
    }

    /// Adds `other`'s files; a file at a path already here replaces the earlier one.
    public mutating func add(_ other: BuiltInFiles) {
        contents.merge(other.contents) { _, new in new }
    }
}
