// The engine's invariants, checked in code when the module is built with
// `GLUE_INTERNAL_CHECKS` (see Package.swift). Documentation/Internals/Glue.md states each one
// (G1, G2, ...) and the reasoning behind it; the messages below name them.
//
// Without the flag every hook is an empty inline function and no type carries an extra
// field: the checks cost nothing.

import ReactiveCore

/// The invariant checks' switch, for tests.
package enum GlueChecks {
    /// Whether this build of the module checks the engine's invariants
    /// (`GLUE_INTERNAL_CHECKS`).
    package static var isEnabled: Bool {
        #if GLUE_INTERNAL_CHECKS
            true
        #else
            false
        #endif
    }
}

/// Stops with a message naming the invariant `invariant` when `condition` is false.
@usableFromInline
func glueCheck(
    _ condition: Bool, _ invariant: StaticString, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition {
        preconditionFailure("Glue internal check \(invariant) failed: \(message())", file: file, line: line)
    }
}

/// G1 on the sending side: what one observable sends is a sequence of whole transactions,
/// never nested (a begin, its changes, its end).
struct TransactionWire {
    #if GLUE_INTERNAL_CHECKS
        private var isOpen = false
    #endif

    /// Notes that `update` is being sent, checking that it fits the transactions sent so far.
    @inline(__always)
    mutating func note<Change>(_ update: Update<Change>) {
        #if GLUE_INTERNAL_CHECKS
            switch update {
            case .beginTransaction:
                glueCheck(!isOpen, "G1", "a transaction begins inside another")
                isOpen = true
            case .change:
                glueCheck(isOpen, "G1", "a change is sent outside a transaction")
            case .endTransaction:
                glueCheck(isOpen, "G1", "a transaction ends that did not begin")
                isOpen = false
            }
        #endif
    }
}

#if GLUE_INTERNAL_CHECKS
    /// G3's reference: the base's elements as a plain array, kept by applying each change the
    /// plain way (`ArrayChange.apply(on:)`), so that a view's elements can be compared with
    /// the view recomputed from them. A view reads `base.value` once, when it is made; after
    /// that the base's value may already hold a change the view has not been delivered (a
    /// change queued behind the one under way), so the view, and this check, follow the
    /// changes alone.
    struct G3Shadow<Element> {
        private(set) var elements: [Element]
        private var changesSinceComparison = 0

        init(_ elements: [Element]) {
            self.elements = elements
        }

        /// Applies `change`, checking that every element it removes or replaces is the one
        /// there (when elements are `Equatable`).
        mutating func apply(_ change: ArrayChange<Element>, in view: String) {
            var copy = elements
            for modification in change.modifications {
                switch modification {
                case .remove(let old, let index), .replace(let old, let index, _):
                    glueCheck(
                        index < copy.count && glueSame(copy[index], old) != false, "G3",
                        "a change to a \(view) removes or replaces an element at \(index) that its base does not hold")
                case .replaceSlice(let old, let index, _):
                    glueCheck(
                        index + old.count <= copy.count
                            && zip(copy[index...], old).allSatisfy { glueSame($0, $1) != false }, "G3",
                        "a change to a \(view) replaces elements at \(index) that its base does not hold")
                case .insert:
                    break
                }
                ArrayChange(initialCount: copy.count, modifications: [modification]).apply(on: &copy)
            }
            elements = copy
        }

        /// Applies a set's change: its removed elements leave, its inserted ones are appended
        /// (a set has no order; the sorted view gives it one).
        mutating func applySet(_ change: SetChange<Element>) where Element: Hashable {
            let removed = Set(change.removed)
            elements.removeAll { removed.contains($0) }
            elements.append(contentsOf: change.inserted)
        }

        /// Whether to compare the view now: after every change while the base holds up to
        /// 2,000 elements, then once every as many changes as it holds (so the check costs
        /// a constant per change on average).
        mutating func isTimeToCompare() -> Bool {
            changesSinceComparison += 1
            guard elements.count > 2_000 else { return true }
            guard changesSinceComparison >= elements.count else { return false }
            changesSinceComparison = 0
            return true
        }
    }

    /// Whether `a` equals `b`, if their type is `Equatable`; `nil` if it is not.
    func glueSame<Element>(_ a: Element, _ b: Element) -> Bool? {
        func equal<T: Equatable>(_ a: T, _ b: Any) -> Bool { (b as? T) == a }
        guard let a = a as? any Equatable else { return nil }
        return equal(a, b)
    }

    /// G3: `actual` holds `expected`'s elements, in order (compared when `Equatable`; counted
    /// otherwise).
    func glueCheckSameElements<Element>(_ actual: [Element], _ expected: [Element], in view: String) {
        glueCheck(
            actual.count == expected.count, "G3",
            "a \(view) holds \(actual.count) elements where its base, recomputed, gives \(expected.count)")
        for (index, (element, wanted)) in zip(actual, expected).enumerated() {
            glueCheck(
                glueSame(element, wanted) != false, "G3",
                "a \(view) holds \(element) at \(index) where its base, recomputed, gives \(wanted)")
        }
    }
#endif
