// `import SignalGraph` gives users `Connection` and the rest of the common module too.
@_exported import ReactiveCore
