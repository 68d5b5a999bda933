extension Collection where Element == Double {
    /// The middle value of the collection in order, or the mean of the two middle values
    /// when the count is even; nil when it is empty.
    ///
    ///     [3, 1, 2].median      // 2
    ///     [4, 1, 2, 3].median   // 2.5
    ///
    /// - Complexity: O(n log n), sorting a copy.
    package var median: Double? {
        guard !isEmpty else { return nil }
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
