// Lists the public symbols of a symbol graph that have no documentation comment, leaving out
// what the compiler synthesises (Hashable, RawRepresentable, Codable, OptionSet members).
// Usage: swift scripts/undocumented.swift MODULE.symbols.json   (exit status 1 if any)
import Foundation

let synthesised: Set<String> = [
    "hashValue", "hash(into:)", "init(rawValue:)", "rawValue", "init(from:)", "encode(to:)", "==(_:_:)", "!=(_:_:)",
]
let path = CommandLine.arguments.dropFirst().first ?? ""
guard let data = FileManager.default.contents(atPath: path),
    let graph = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
    let symbols = graph["symbols"] as? [[String: Any]]
else {
    FileHandle.standardError.write(Data("undocumented: \(path): not a symbol graph\n".utf8))
    exit(2)
}
var missing: [String] = []
for symbol in symbols where symbol["accessLevel"] as? String == "public" && symbol["docComment"] == nil {
    let path = symbol["pathComponents"] as? [String] ?? []
    // A symbol without a source location is the compiler's (OptionSet and the like).
    guard let name = path.last, !synthesised.contains(name), let location = symbol["location"] as? [String: Any] else {
        continue
    }
    let file = (location["uri"] as? String ?? "").components(separatedBy: "/Sources/").last ?? ""
    let line = (location["position"] as? [String: Any])?["line"] as? Int ?? 0
    missing.append("Sources/\(file):\(line + 1): \(path.joined(separator: ".")) has no documentation")
}
for line in missing.sorted() { print(line) }
print("\(symbols.count) symbols, \(missing.count) public ones undocumented")
exit(missing.isEmpty ? 0 : 1)
