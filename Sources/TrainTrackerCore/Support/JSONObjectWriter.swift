/// Writes one JSON object with keys in the order given, `null` for missing values, as text:
/// for small outputs (bench figures, speed and mode reports). Lines written by the thousand
/// use `JSONBuffer` directly, which this writes through.
package struct JSONObjectWriter {
    private let json = JSONBuffer(capacity: 256)

    package init() { json.beginObject() }

    package mutating func string(_ name: String, _ value: String?) {
        json.key(named: name)
        json.string(value)
    }

    package mutating func number(_ name: String, _ value: Double?) {
        json.key(named: name)
        json.number(value)
    }

    package mutating func integer(_ name: String, _ value: Int?) {
        json.key(named: name)
        json.integer(value)
    }

    package mutating func raw(_ name: String, _ text: String) {
        json.key(named: name)
        json.raw(text)
    }

    package mutating func finish() -> String {
        json.endObject()
        return json.text
    }

    package static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",") + "]" }
}
