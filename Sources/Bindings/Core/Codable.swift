// `Subscribers.Completion` and `Subscribers.Demand` are `Codable`, as Combine's are, in
// the same shapes, so that what one encodes the other decodes.

extension Subscribers.Completion: Codable where Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case success
        case error
    }

    /// Decodes `{"success": true}` as `.finished` and `{"success": false, "error": ...}` as
    /// `.failure`, Combine's encoding.
    ///
    /// ```swift
    /// let completion = try JSONDecoder().decode(Subscribers.Completion<MyError>.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decode(Bool.self, forKey: .success) {
            self = .finished
        } else {
            self = .failure(try container.decode(Failure.self, forKey: .error))
        }
    }

    /// Encodes `.finished` as `{"success": true}` and `.failure(error)` as
    /// `{"success": false, "error": error}`, Combine's encoding.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}

extension Subscribers.Demand: Codable {
    /// Decodes a demand encoded by ``encode(to:)``: a single unsigned number, the count,
    /// where any number past `Int.max` is `.unlimited`.
    public init(from decoder: any Decoder) throws {
        let count = try decoder.singleValueContainer().decode(UInt.self)
        self = count > UInt(Int.max) ? .unlimited : .max(Int(count))
    }

    /// Encodes the demand as a single unsigned number: the count, or `Int.max + 1` for
    /// `.unlimited`, as Combine does.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(Subscribers.Demand.max(3))   // 3
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue == .max ? UInt(Int.max) + 1 : rawValue)
    }
}
