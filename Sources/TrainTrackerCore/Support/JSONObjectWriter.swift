/// Writes one JSON object with keys in the order given, `null` for missing values.
///
/// The replay output is a contract with fixed keys; writing it directly keeps the key
/// order stable and costs a fraction of a general-purpose encoder per line.
package struct JSONObjectWriter {
    package init() {}

    package private(set) var text = "{"
    private var isFirst = true

    private mutating func key(_ name: String) {
        if !isFirst { text += "," }
        isFirst = false
        Self.appendString(name, to: &text)
        text += ":"
    }

    package mutating func string(_ name: String, _ value: String?) {
        key(name)
        if let value { Self.appendString(value, to: &text) } else { text += "null" }
    }

    package mutating func number(_ name: String, _ value: Double?) {
        key(name)
        if let value, value.isFinite { text += "\(value)" } else { text += "null" }
    }

    package mutating func integer(_ name: String, _ value: Int?) {
        key(name)
        if let value { text += "\(value)" } else { text += "null" }
    }

    package mutating func raw(_ name: String, _ json: String) {
        key(name)
        text += json
    }

    package mutating func finish() -> String {
        text += "}"
        return text
    }

    package static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",") + "]" }

    package static func appendString(_ value: String, to text: inout String) {
        text += value.jsonQuoted
    }
}
