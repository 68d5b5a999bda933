import Foundation
import Testing

@testable import TrainTrackerCore

/// The byte writer behind the JSONL contract writes what the `String` forms write, and JSON
/// that a parser reads back to the same values, whatever the text holds.
@Suite struct JSONBufferTests {
    /// Strings, and the JSON literal each must become: quotes, backslashes and control
    /// characters escaped (`\n`, `\r`, `\t`, else `\u00xx`), everything else copied as it is.
    static let strings: [(String, String)] = [
        ("", #""""#), ("a", #""a""#), ("Tokyu.Toyoko", #""Tokyu.Toyoko""#),
        ("E792CE55-C0A7-40A8-9DFC-81A6BFF8F87A", #""E792CE55-C0A7-40A8-9DFC-81A6BFF8F87A""#),
        ("quote \" inside", #""quote \" inside""#), ("\"", #""\"""#), ("\\", #""\\""#),
        ("back\\slash", #""back\\slash""#), ("tab\there", #""tab\there""#),
        ("line\nbreak\r\n", #""line\nbreak\r\n""#), ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
        ("12345678\"", #""12345678\"""#), ("1234567\u{1F}8", #""1234567\u001f8""#), ("渋谷 → 横浜", "\"渋谷 → 横浜\""),
        ("émoji 🚆 train", "\"émoji 🚆 train\""),
        (
            String(repeating: "long text without escapes ", count: 20) + "\u{7}",
            "\"" + String(repeating: "long text without escapes ", count: 20) + #"\u0007""#
        ),
        ("</script><script>alert(1)</script>", #""</script><script>alert(1)</script>""#),
        ("\u{7F}\u{80}\u{2028}", "\"\u{7F}\u{80}\u{2028}\""),
    ]

    @Test(arguments: strings)
    func aStringIsWrittenAsAJSONLiteral(_ text: String, _ literal: String) throws {
        let json = JSONBuffer(capacity: 4)
        json.string(text)
        #expect(json.text == literal)
        #expect(text.jsonQuoted == literal)
        let parsed = try JSONSerialization.jsonObject(with: Data(("[" + json.text + "]").utf8)) as? [String]
        #expect(parsed == [text])
    }

    @Test(arguments: [0.0, -0.0, 1, -0.5, 1e-05, 0.19546417290382684, -163.39898310869394, 1.2345678901234567e+20, .pi])
    func aNumberIsWrittenAsSwiftWritesIt(_ value: Double) {
        let json = JSONBuffer()
        json.number(value)
        #expect(json.text == "\(value)")
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNumberThatIsNotFiniteIsNull(_ value: Double) {
        let json = JSONBuffer()
        json.number(value)
        json.number(nil)
        json.integer(nil)
        json.integer(-42)
        #expect(json.text == "null,null,null,-42")
    }

    @Test(arguments: [0, 1_758_355_200.123, -1, 951_782_400, 4_102_444_800.999, -1e12, 1e15, .nan])
    func aTimeIsWrittenAsItsISO8601(_ seconds: Double) {
        let time = Timestamp(secondsSince1970: seconds)
        let json = JSONBuffer()
        json.timestamp(time)
        #expect(json.text == "\"" + time.iso8601 + "\"")
    }

    @Test func objectsAndArraysGetTheirCommasAndTheBufferIsReused() throws {
        let json = JSONBuffer(capacity: 1)
        for round in 0..<3 {
            json.removeAll()
            json.beginObject()
            json.key("round")
            json.number(Double(round))
            json.key("list")
            json.beginArray()
            json.beginObject()
            json.key("ok")
            json.bool(true)
            json.endObject()
            json.string(nil)
            json.bool(false)
            json.endArray()
            json.key(named: "name with \"quote\"")
            json.timestamp(nil)
            json.endObject()
            #expect(
                json.text == #"{"round":\#(Double(round)),"list":[{"ok":true},null,false],"name with \"quote\"":null}"#)
        }
    }
}
