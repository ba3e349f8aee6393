import Testing

/// What an exit test's child process wrote to standard error.
package func standardError(of result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

/// `value`, in a way the optimizer cannot fold, so that an exit test's misuse happens
/// at run time.
package func runtimeValue<Value: BinaryInteger>(_ value: Value) -> Value {
    CommandLine.arguments.count > 1_000_000 ? 0 : value
}
