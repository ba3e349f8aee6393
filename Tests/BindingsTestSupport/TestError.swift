/// The one error the test suites fail their publishers with: `.boom` and `.other` where
/// one or two kinds are enough, `TestError(7)` where a test tells many apart.
///
/// No custom description: a test may compare the default one
/// (`BindingsTestSupport.TestError.boom`) where a completion is printed.
package enum TestError: Error, Hashable, Sendable {
    case boom
    case other
    case numbered(Int)

    /// A numbered error.
    package init(_ code: Int) { self = .numbered(code) }
}
