// `import Resin` gives users Incremental's `I` (the store's state is one) and the common
// module's `Connection`, `Connector` and schedulers.
@_exported import Incremental
@_exported import ReactiveCore
