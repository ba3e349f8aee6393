/// A ``UserDefaultsReader`` without its value type: the notification block and the
/// dispatch blocks that trigger a re-read are `@Sendable`, and capturing the generic
/// reader itself would capture its value's metatype, which Swift 6 does not let cross
/// threads.
protocol UserDefaultsChecking: AnyObject, Sendable {
    /// Re-reads the default and sends it if it changed; on the reader's queue only.
    func check()
}

extension UserDefaultsReader: UserDefaultsChecking {}
