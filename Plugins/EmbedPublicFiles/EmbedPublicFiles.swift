import Foundation
import PackagePlugin

/// Compiles files of `Public/` into a target as a Swift source, so that a built binary serves them
/// wherever it runs: each target names the part of `Public/` it carries, and gets a generated
/// `generatedPublicFiles` list of (path, base64) it hands to `BuiltInFiles`.
@main
struct EmbedPublicFiles: BuildToolPlugin {
    /// The part of `Public/` each target carries: the library its own assets (the files at the top),
    /// the examples their pictures (everything under `images/`), so that a library user gets the
    /// former without the latter.
    static let selections: [String: (folder: String, recursive: Bool)] = [
        "TablePages": (folder: "", recursive: false),
        "TablePagesExamples": (folder: "images", recursive: true),
    ]

    struct UnknownTarget: Error, CustomStringConvertible {
        let name: String
        var description: String { "EmbedPublicFiles does not know which files of Public/ target \(name) carries." }
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let selection = Self.selections[target.name] else { throw UnknownTarget(name: target.name) }
        let publicDirectory = context.package.directoryURL.appending(path: "Public")
        let paths = try Self.relativePaths(in: publicDirectory, folder: selection.folder, recursive: selection.recursive)
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedPublicFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding public files in \(target.name)",
                executable: try context.tool(named: "PublicFilesEmbedder").url,
                arguments: [output.path, publicDirectory.path] + paths,
                inputFiles: paths.map { publicDirectory.appending(path: $0) },
                outputFiles: [output]
            ),
        ]
    }

    /// The regular, visible files under `folder` of `root`, relative to `root`, sorted so that the
    /// generated source is the same on every machine.
    static func relativePaths(in root: URL, folder: String, recursive: Bool) throws -> [String] {
        let manager = FileManager.default
        let base = folder.isEmpty ? root : root.appending(path: folder)
        let names = recursive ? (manager.subpaths(atPath: base.path) ?? []) : try manager.contentsOfDirectory(atPath: base.path)
        return names.filter { name in
            var isDirectory: ObjCBool = false
            let visible = !name.split(separator: "/").contains { $0.hasPrefix(".") }
            return visible && manager.fileExists(atPath: base.appending(path: name).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        .map { folder.isEmpty ? $0 : folder + "/" + $0 }
        .sorted()
    }
}
