/// A publisher that produces nothing until it is connected, as in Combine: subscribers
/// attach first, then ``connect()`` starts the upstream, so none misses the first values.
///
/// ```swift
/// let connectable = readings.makeConnectable()
/// let a = connectable.sink { print("a", $0) }
/// let b = connectable.sink { print("b", $0) }
/// let connection = connectable.connect()   // both see every reading from now on
/// ```
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the upstream, which starts producing values; cancel the result to stop.
    func connect() -> any Cancellable
}

extension ConnectablePublisher {
    /// Connects when the first subscriber attaches, and cancels the connection when the
    /// last one cancels (a later subscriber connects again), as Combine's does.
    ///
    /// ```swift
    /// let shared = readings.multicast { PassthroughSubject() }.autoconnect()
    /// let c = shared.sink { print($0) }   // connects
    /// c.cancel()                          // disconnects
    /// ```
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}
