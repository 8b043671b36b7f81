// `import Incremental` gives users `Connection`, `Connector` and the schedulers too.
@_exported import ReactiveCore
