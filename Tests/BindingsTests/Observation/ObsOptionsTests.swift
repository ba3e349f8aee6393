import Testing
@testable import Bindings

/// One combination of options and the notifications Foundation sends for it, given the
/// value before (`a`) and the value set twice (`b`, equal values notify too).
struct ObsOptionCase: Sendable, CustomTestStringConvertible {
    typealias Change = KeyValueObservedChange<String>
    let options: KeyValueObservingOptions
    let name: String
    /// How many notifications arrive inside `observe` (1 with `.initial`).
    let initialCount: Int
    let expected: @Sendable (_ a: String, _ b: String) -> [Change]

    var testDescription: String { name }

    static let all: [ObsOptionCase] = [
        .init(options: [], name: "[]", initialCount: 0) { _, _ in
            [.set(new: nil, old: nil), .set(new: nil, old: nil)]
        },
        .init(options: [.new], name: "[.new]", initialCount: 0) { _, b in
            [.set(new: b, old: nil), .set(new: b, old: nil)]
        },
        .init(options: [.old], name: "[.old]", initialCount: 0) { a, b in
            [.set(new: nil, old: a), .set(new: nil, old: b)]
        },
        .init(options: [.old, .new], name: "[.old, .new]", initialCount: 0) { a, b in
            [.set(new: b, old: a), .set(new: b, old: b)]
        },
        .init(options: [.initial], name: "[.initial]", initialCount: 1) { _, _ in
            [.set(new: nil, old: nil), .set(new: nil, old: nil), .set(new: nil, old: nil)]
        },
        .init(options: [.initial, .new], name: "[.initial, .new]", initialCount: 1) { a, b in
            [.set(new: a, old: nil), .set(new: b, old: nil), .set(new: b, old: nil)]
        },
        .init(options: [.initial, .old], name: "[.initial, .old]", initialCount: 1) { a, b in
            [.set(new: nil, old: nil), .set(new: nil, old: a), .set(new: nil, old: b)]
        },
        .init(options: [.initial, .old, .new], name: "[.initial, .old, .new]", initialCount: 1) { a, b in
            [.set(new: a, old: nil), .set(new: b, old: a), .set(new: b, old: b)]
        },
        .init(options: [.prior], name: "[.prior]", initialCount: 0) { _, _ in
            [.prior(old: nil), .set(new: nil, old: nil), .prior(old: nil), .set(new: nil, old: nil)]
        },
        .init(options: [.prior, .new], name: "[.prior, .new]", initialCount: 0) { _, b in
            [.prior(old: nil), .set(new: b, old: nil), .prior(old: nil), .set(new: b, old: nil)]
        },
        .init(options: [.prior, .old], name: "[.prior, .old]", initialCount: 0) { a, b in
            [.prior(old: a), .set(new: nil, old: a), .prior(old: b), .set(new: nil, old: b)]
        },
        .init(options: [.prior, .old, .new], name: "[.prior, .old, .new]", initialCount: 0) { a, b in
            [.prior(old: a), .set(new: b, old: a), .prior(old: b), .set(new: b, old: b)]
        },
        .init(options: [.initial, .prior], name: "[.initial, .prior]", initialCount: 1) { _, _ in
            [.set(new: nil, old: nil),
             .prior(old: nil), .set(new: nil, old: nil), .prior(old: nil), .set(new: nil, old: nil)]
        },
        .init(options: [.initial, .prior, .new], name: "[.initial, .prior, .new]", initialCount: 1) { a, b in
            [.set(new: a, old: nil),
             .prior(old: nil), .set(new: b, old: nil), .prior(old: nil), .set(new: b, old: nil)]
        },
        .init(options: [.initial, .prior, .old], name: "[.initial, .prior, .old]", initialCount: 1) { a, b in
            [.set(new: nil, old: nil),
             .prior(old: a), .set(new: nil, old: a), .prior(old: b), .set(new: nil, old: b)]
        },
        .init(options: [.initial, .prior, .old, .new], name: "[.initial, .prior, .old, .new]", initialCount: 1) { a, b in
            [.set(new: a, old: nil),
             .prior(old: a), .set(new: b, old: a), .prior(old: b), .set(new: b, old: b)]
        },
    ]
}

@Suite("Observation: options, as Foundation's")
struct ObsOptionsTests {
    @Test func allSixteenCombinationsAreListed() {
        #expect(Set(ObsOptionCase.all.map(\.options.rawValue)) == Set(0..<16))
    }

    @Test(arguments: ObsOptionCase.all)
    func observedProperty(_ c: ObsOptionCase) {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String>] = []
        var observedObjects: [ObjectIdentifier] = []
        let token = person.observe(\.firstName, options: c.options) { object, change in
            observedObjects.append(ObjectIdentifier(object))
            changes.append(change)
        }
        #expect(changes.count == c.initialCount, "`.initial` fires before observe returns")
        person.firstName = "Grace"
        person.firstName = "Grace"
        #expect(changes == c.expected("Ada", "Grace"))
        #expect(changes.allSatisfy { $0.kind == .setting && $0.indexes == nil })
        #expect(Set(observedObjects) == [ObjectIdentifier(person)])
        token.invalidate()
        person.firstName = "Ada"
        #expect(changes == c.expected("Ada", "Grace"), "nothing after invalidate()")
    }

    @Test(arguments: ObsOptionCase.all)
    func computedProperty(_ c: ObsOptionCase) {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.fullName, options: c.options) { _, change in
            changes.append(change)
        }
        #expect(changes.count == c.initialCount, "`.initial` fires before observe returns")
        person.lastName = "Byron"
        person.lastName = "Byron"
        #expect(changes == c.expected("Ada Lovelace", "Ada Byron"))
        token.invalidate()
        person.lastName = "King"
        #expect(changes == c.expected("Ada Lovelace", "Ada Byron"), "nothing after invalidate()")
    }

    @Test(arguments: ObsOptionCase.all)
    func chainedKeyPath(_ c: ObsOptionCase) {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.address.city, options: c.options) { _, change in
            changes.append(change)
        }
        #expect(changes.count == c.initialCount)
        person.address.city = "Paris"
        person.address.city = "Paris"
        #expect(changes == c.expected("London", "Paris"))
        withExtendedLifetime(token) {}
    }

    @Test func initialIsDeliveredBeforeObserveReturnsWithOldValueNil() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String>] = []
        let token = person.observe(\.lastName, options: [.initial, .old, .new]) { _, change in
            changes.append(change)
        }
        #expect(changes == [KeyValueObservedChange(kind: .setting, newValue: "Lovelace", oldValue: nil)])
        #expect(changes.first?.isPrior == false)
        withExtendedLifetime(token) {}
    }

    @Test func optionalPropertyArrivesAsSomeNil() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String?>] = []
        let token = person.observe(\.nickname, options: [.initial, .old, .new]) { _, change in
            changes.append(change)
        }
        person.nickname = "Al"
        person.nickname = nil
        #expect(changes == [
            KeyValueObservedChange(kind: .setting, newValue: .some(nil), oldValue: nil),
            KeyValueObservedChange(kind: .setting, newValue: .some("Al"), oldValue: .some(nil)),
            KeyValueObservedChange(kind: .setting, newValue: .some(nil), oldValue: .some("Al")),
        ])
        // The wrapped `nil` is a value: present, and nil inside.
        #expect(changes[0].newValue != nil)
        #expect(changes[0].newValue! == nil)
        #expect(changes[0].oldValue == nil)
        #expect(changes[1].oldValue! == nil)
        #expect(changes[2].newValue! == nil)
        withExtendedLifetime(token) {}
    }

    @Test func optionalComputedPropertyArrivesAsSomeNil() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String?>] = []
        let token = person.observe(\.loudNickname, options: [.initial, .old, .new, .prior]) { _, change in
            changes.append(change)
        }
        person.nickname = "al"
        person.nickname = nil
        #expect(changes == [
            KeyValueObservedChange(kind: .setting, newValue: .some(nil), oldValue: nil),
            KeyValueObservedChange(kind: .setting, newValue: nil, oldValue: .some(nil), isPrior: true),
            KeyValueObservedChange(kind: .setting, newValue: .some("AL"), oldValue: .some(nil)),
            KeyValueObservedChange(kind: .setting, newValue: nil, oldValue: .some("AL"), isPrior: true),
            KeyValueObservedChange(kind: .setting, newValue: .some(nil), oldValue: .some("AL")),
        ])
        #expect(changes[0].newValue! == nil)
        #expect(changes[1].newValue == nil, "a prior notice carries no new value")
        withExtendedLifetime(token) {}
    }

    @Test func optionalPropertyWithoutNewOrOldCarriesNothing() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<String?>] = []
        let token = person.observe(\.nickname, options: [.initial]) { _, change in
            changes.append(change)
        }
        person.nickname = "Al"
        #expect(changes == [
            KeyValueObservedChange(kind: .setting, newValue: nil, oldValue: nil),
            KeyValueObservedChange(kind: .setting, newValue: nil, oldValue: nil),
        ])
        #expect(changes.allSatisfy { $0.newValue == nil && $0.oldValue == nil })
        withExtendedLifetime(token) {}
    }

    @Test func enumsCarryRealOldAndNewValues() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<ObsMood>] = []
        let token = person.observe(\.mood, options: [.old, .new, .prior]) { _, change in
            changes.append(change)
        }
        person.mood = .busy(3)
        person.mood = .away("lunch")
        person.mood = .away("lunch")
        #expect(changes == [
            .prior(old: .calm), .set(new: .busy(3), old: .calm),
            .prior(old: .busy(3)), .set(new: .away("lunch"), old: .busy(3)),
            .prior(old: .away("lunch")), .set(new: .away("lunch"), old: .away("lunch")),
        ])
        withExtendedLifetime(token) {}
    }

    @Test func inPlaceMutationCarriesOldAndNew() {
        let person = ObsPerson()
        var changes: [KeyValueObservedChange<[String]>] = []
        let token = person.observe(\.tags, options: [.old, .new, .prior]) { _, change in
            changes.append(change)
        }
        person.tags.append("x")
        person.tags[0] = "y"
        #expect(changes == [
            .prior(old: []), .set(new: ["x"], old: []),
            .prior(old: ["x"]), .set(new: ["y"], old: ["x"]),
        ])
        withExtendedLifetime(token) {}
    }

    @Test func observersWithDifferentOptionsOnOnePropertyEachGetTheirOwn() {
        let person = ObsPerson()
        var plain: [KeyValueObservedChange<String>] = []
        var full: [KeyValueObservedChange<String>] = []
        let t1 = person.observe(\.firstName, options: [.new]) { _, change in plain.append(change) }
        let t2 = person.observe(\.firstName, options: [.old, .new, .prior]) { _, change in full.append(change) }
        person.firstName = "Grace"
        t2.invalidate()
        person.firstName = "Mary"
        #expect(plain == [.set(new: "Grace", old: nil), .set(new: "Mary", old: nil)])
        #expect(full == [.prior(old: "Ada"), .set(new: "Grace", old: "Ada")])
        withExtendedLifetime(t1) {}
    }

    @Test func optionsHaveFoundationsRawValues() {
        #expect(KeyValueObservingOptions.new.rawValue == 1)
        #expect(KeyValueObservingOptions.old.rawValue == 2)
        #expect(KeyValueObservingOptions.initial.rawValue == 4)
        #expect(KeyValueObservingOptions.prior.rawValue == 8)
        #expect(KeyValueChange.setting.rawValue == 1)
        #expect(KeyValueChange.replacement.rawValue == 4)
    }
}
