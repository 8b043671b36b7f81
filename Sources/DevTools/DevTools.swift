// DevTools draws what ReactiveCore's traces and inspections hold: `import DevTools` brings them.
@_exported import ReactiveCore
