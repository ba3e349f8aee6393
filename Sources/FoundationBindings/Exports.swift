// FoundationBindings extends Bindings' types (`Publisher`, `KeyValueObservable`, the
// schedulers): a program that imports FoundationBindings uses them too, so it re-exports
// Bindings, and `import FoundationBindings` is enough.
@_exported import Bindings
