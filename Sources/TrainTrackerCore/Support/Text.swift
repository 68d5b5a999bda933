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
    /// and attribute values, and those XML does not allow at all (control characters other
    /// than tab, line feed and carriage return; lone surrogates cannot occur in a `String`)
    /// replaced by U+FFFD, so that a name from outside never breaks a picture.
    ///
    /// - Complexity: O(n).
    package var xmlEscaped: String {
        var escaped = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// The string with control characters (which move a terminal's cursor, clear its screen or
    /// ring its bell) replaced by U+FFFD, for text from outside printed in a table.
    ///
    /// - Complexity: O(n).
    package var printable: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.properties.generalCategory == .control ? "\u{FFFD}" : $0 }))
    }
}

/// `value` rounded to a whole number for a message: `"12"`, or `"NaN"`, `"inf"`, `"-inf"`;
/// never a trap, whatever the `Double`.
package func wholeNumber(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : value > 0 ? "inf" : "-inf" }
    guard let whole = Int(wholeNumber: value.rounded()) else { return String(value.rounded()) }
    return String(whole)
}
