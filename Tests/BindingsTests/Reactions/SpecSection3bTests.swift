import BindingsTestSupport
import Testing
@testable import Bindings

// The code block of SPEC section 3b ("Beyond KVO"), line by line, with its comments as
// expectations.

private final class Person: KeyValueObservable {
    @Observed var firstName = "Ada"
    @Observed var lastName = "Lovelace"
    @Observed var tags: [String] = []
    var fullName: String { "\(firstName) \(lastName)" }
}

private final class Label {
    var text = ""
}

private final class Field: KeyValueObservable, BindingOwner {
    @Observed var text: String? = ""
    var subscriptions = Set<AnyCancellable>()
}

private final class Board: KeyValueObservable {
    let tasks = ObservableArray<String>()
}

@Suite("Reactions: SPEC section 3b")
struct SpecSection3bTests {
    @Test func theBlockBehavesAsItsCommentsSay() {
        let person = Person()
        let label = Label()
        var fullNames: [KeyValueObservedChange<String>] = []
        let watch = person.observe(\.fullName, options: [.old, .new]) { _, change in fullNames.append(change) }

        batchChanges {                                   // observers run once, at the end
            person.firstName = "Grace"
            person.lastName = "Hopper"
        }                                                // \.fullName: "Ada Lovelace" -> "Grace Hopper", no glitch
        #expect(fullNames == [KeyValueObservedChange(kind: .setting, newValue: "Grace Hopper", oldValue: "Ada Lovelace")])

        var texts: [String] = []
        let reaction = autorun {                         // re-runs when anything it read changes
            label.text = "\(person.fullName) (\(person.tags.count) tags)"
            texts.append(label.text)
        }
        person.tags = ["navy"]
        #expect(texts == ["Grace Hopper (0 tags)", "Grace Hopper (1 tags)"])

        let field = Field()
        person.reactive.firstName.bind(twoWay: field.reactive.text, forward: { $0 }, backward: { $0 })
        // field.text == "Grace"; field.text = "Ada" sets person.firstName, with no echo
        #expect(field.text == "Grace")
        var fieldTexts: [String?] = []
        let fieldWatch = field.observe(\.text, options: [.new]) { _, change in fieldTexts.append(change.newValue!) }
        field.text = "Ada"
        #expect(person.firstName == "Ada")
        #expect(fieldTexts == ["Ada"])

        let board = Board()
        var printed: [[CollectionChange<String>.Edit]] = []
        let changes = board.tasks.changes.sink { change in printed.append(change.changes) }   // [.insert("write the spec", at: 0)]
        let mirror = ["a"].applying(CollectionChange(collection: ["a", "b"], changes: [.insert("b", at: 1)]))   // ["a", "b"]
        #expect(mirror == ["a", "b"])
        board.tasks.append("write the spec")
        #expect(printed.map { "\($0)" } == [#"[.insert("write the spec", at: 0)]"#])
        board.tasks.batchUpdates { $0.remove(at: 0); $0.append("ship it") }       // one changeset
        #expect(printed.count == 2)
        var counts: [Int] = []
        let count = board.publisher(for: \.tasks.count).sink { counts.append($0) }        // tracked like @Observed
        board.tasks.append("celebrate")
        #expect(counts == [1, 2])
        withExtendedLifetime((watch, reaction, fieldWatch, changes, count)) {}
    }
}
