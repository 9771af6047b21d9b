import Foundation

// Used by the EmbedPublicFiles build-tool plugin:
//     PublicFilesEmbedder <output.swift> <public directory> <relative path>...
// writes a Swift source with each file's bytes in base64, which compiles quickly whatever the
// size (a literal array of bytes does not) and holds any bytes, text or not.

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: PublicFilesEmbedder <output.swift> <public directory> <relative path>...\n".utf8))
    exit(2)
}
let output = URL(fileURLWithPath: arguments[arguments.startIndex])
let root = URL(fileURLWithPath: arguments[arguments.startIndex + 1])
var source = """
    // Generated at build time by the EmbedPublicFiles plugin from Public/; do not edit.

    /// The files of Public/ this target carries, by path relative to Public/, in base64.
    let generatedPublicFiles: [(path: String, base64: StaticString)] = [

    """
for path in arguments.dropFirst(2) {
    let bytes = try Data(contentsOf: root.appending(path: path))
    let quotedPath = path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    source += "    (path: \"\(quotedPath)\", base64: \"\(bytes.base64EncodedString())\"),\n"
}
source += "]\n"
// Rewriting an unchanged file would make the target compile again for nothing.
if (try? String(contentsOf: output, encoding: .utf8)) != source {
    try source.write(to: output, atomically: true, encoding: .utf8)
}
