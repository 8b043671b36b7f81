// `import Cycle` gives users `Connection` and the schedulers of the common module too.
@_exported import ReactiveCore
