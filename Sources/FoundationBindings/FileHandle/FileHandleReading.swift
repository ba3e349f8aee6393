/// A ``FileHandleReader`` without its framer's type: the reading thread's `@Sendable`
/// body would otherwise capture the framer's metatype, which Swift 6 does not let cross
/// threads.
protocol FileHandleReading: AnyObject, Sendable {
    /// The reading thread's body.
    func run()
}

extension FileHandleReader: FileHandleReading {}
