// `import Signals` gives users `Connection`, `Connector` and the schedulers too.
@_exported import ReactiveCore
