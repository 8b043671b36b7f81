// `import Glue` gives users `Connection`, `Connector` and the schedulers too, as GlueKit's
// README expects of its own connections.
@_exported import ReactiveCore
