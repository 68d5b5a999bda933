extension String {
    /// The string with leading zeros up to `width` characters: `"7".leftPadded(3)` is `"007"`.
    package func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    /// The string as a JSON string literal, quotes included, escaping what JSON requires
    /// (as `JSONBuffer` writes every string).
    ///
    /// - Complexity: O(n).
    package var jsonQuoted: String {
        let json = JSONBuffer(capacity: utf8.count + 2)
        json.string(self)
        return json.text
    }

    /// The string with the characters XML reserves escaped (`&`, `<`, `>`, `"`), for text
    /// and attribute values.
    ///
    /// - Complexity: O(n).
    package var xmlEscaped: String {
        var escaped = ""
        for character in self {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// `value` rounded to a whole number for a message: `"12"`, or `"NaN"`, `"inf"`, `"-inf"`;
/// never a trap, whatever the `Double`.
package func wholeNumber(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : value > 0 ? "inf" : "-inf" }
    guard let whole = Int(wholeNumber: value.rounded()) else { return String(value.rounded()) }
    return String(whole)
}
