import Foundation

extension NotificationCenter {
    /// A source of the notifications named `name` (from `object`, or from any object if
    /// `nil`), as the GlueKit README's midnight example uses:
    ///
    /// ```swift
    /// let midnight = NotificationCenter.default.source(forName: .NSCalendarDayChanged)
    /// let connection = midnight.subscribe { _ in print("Ding dong!") }
    /// ```
    ///
    /// Each subscription registers an observer that delivers synchronously, on the thread
    /// that posts; disconnecting removes it. Like everything in Glue, it belongs to one
    /// isolation domain: notifications must be posted from that domain. For notifications
    /// posted from other threads, observe them with the center's own API and hop to the
    /// domain first.
    public func source(forName name: Notification.Name, object: AnyObject? = nil) -> Source<Notification> {
        Source { [self] sink in
            let deliver = IsolatedSink(sink)
            let token = addObserver(forName: name, object: object, queue: nil) { notification in
                deliver(notification)
            }
            let observer = ObserverToken(token)
            return Connection(isolated: { self.removeObserver(observer.token) })
        }
    }
}

/// Holds the center's observer token for removal.
private final class ObserverToken {
    let token: any NSObjectProtocol

    init(_ token: any NSObjectProtocol) {
        self.token = token
    }
}
