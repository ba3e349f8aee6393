@testable import Bindings

// The models of the observation tests (the `Obs…` suites).

final class ObsCountry: KeyValueObservable {
    @Observed var name: String
    init(_ name: String = "UK") { self.name = name }
}

final class ObsAddress: KeyValueObservable {
    @Observed var city: String
    @Observed var country: ObsCountry
    init(_ city: String = "London", country: ObsCountry = ObsCountry()) {
        self.city = city
        self.country = country
    }
}

enum ObsMood: Equatable, Sendable {
    case calm
    case busy(Int)
    case away(String)
}

final class ObsPerson: KeyValueObservable {
    @Observed var firstName = "Ada"
    @Observed var lastName = "Lovelace"
    @Observed var address = ObsAddress()
    @Observed var tags: [String] = []
    @Observed var nickname: String? = nil
    @Observed var useNickname = false
    @Observed var name = "Ada"
    @Observed var mood = ObsMood.calm
    @Observed var count = 0
    /// Not observable: plain storage.
    var plain = 0

    var fullName: String { "\(firstName) \(lastName)" }
    var display: String { useNickname ? (nickname ?? "") : name }
    var loudNickname: String? { nickname?.uppercased() }
    var plainDescription: String { "plain \(plain)" }
}

/// A model with an optional link to an observed object, for `\.home?.city`.
final class ObsTenant: KeyValueObservable {
    @Observed var home: ObsAddress?
    init(home: ObsAddress? = nil) { self.home = home }
}

extension KeyValueObservedChange {
    /// A `.setting` change (not prior).
    static func set(new: Value?, old: Value?) -> Self {
        KeyValueObservedChange(kind: .setting, newValue: new, oldValue: old)
    }

    /// A prior notice.
    static func prior(old: Value?) -> Self {
        KeyValueObservedChange(kind: .setting, newValue: nil, oldValue: old, isPrior: true)
    }
}

// The synthesized `_property` storage is private to this file: these expose it to the
// other test files, to look at the channels (see Support/InternalProbes.swift).

extension ObsPerson {
    var firstNameStorage: Observed<String> { _firstName }
    var lastNameStorage: Observed<String> { _lastName }
    var addressStorage: Observed<ObsAddress> { _address }
    var tagsStorage: Observed<[String]> { _tags }
    var countStorage: Observed<Int> { _count }
}

extension ObsAddress {
    var cityStorage: Observed<String> { _city }
    var countryStorage: Observed<ObsCountry> { _country }
}

extension ObsCountry {
    var nameStorage: Observed<String> { _name }
}
