// expect-error: does not conform to the 'Sendable' protocol
// A Signals property delivers on the thread that writes it: it cannot drive a store (a
// single-threaded target) without a hop to the store's queue, `drive(_:on:)`.
import Resin
import Signals

struct Network: Equatable { var isOnline = false }
struct IsOnline: Action { var isOnline: Bool }

func connect(_ isOnline: Property<Bool>, to store: Store<Network>) -> Connection {
    isOnline.drive(store.actionTarget { IsOnline(isOnline: $0) })
}
