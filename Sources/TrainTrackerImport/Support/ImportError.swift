/// Why an input file cannot be imported: the file, where in it (a line, a record or an
/// entry), the field, and the problem. `description` is the one line the tool prints.
public struct ImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file at fault.
    public var file: String
    /// Where in the file, e.g. `line 12` or `railway 'Tokyu.Toyoko'`; `nil` for the whole file.
    public var location: String?
    /// The field or column at fault, if one.
    public var field: String?
    /// What is wrong.
    public var problem: String

    /// Creates an error.
    public init(file: String, location: String? = nil, field: String? = nil, problem: String) {
        self.file = file
        self.location = location
        self.field = field
        self.problem = problem
    }

    /// One line: `file: location: field 'name': problem`.
    public var description: String {
        var parts = [file]
        if let location { parts.append(location) }
        if let field { parts.append("field '\(field)'") }
        parts.append(problem)
        return parts.joined(separator: ": ")
    }
}
