import ReactiveCore

extension ObservableArrayType {
    /// An observable array of the current value of an observable member of each element,
    /// kept up to date when elements come and go and when any element's member changes.
    ///
    /// The view holds one subscription per element. A change of one element's member is
    /// one replacement at that element's index, found in O(log n); no other element is
    /// read again.
    ///
    /// ```swift
    /// let titles = todos.map(observing: \.title)
    /// ```
    public func map<Field: ObservableValueType>(
        observing field: @escaping (Element) -> Field
    ) -> FieldMappedObservableArray<Self, Field> {
        FieldMappedObservableArray(base: self, field: field)
    }

    /// An observable array of the elements whose observable member is `true`, in order,
    /// kept up to date when elements come and go and when any element's member changes.
    ///
    /// The view holds one subscription per element. A change of one element's member
    /// inserts or removes that element alone, at a position found in O(log n).
    ///
    /// ```swift
    /// let finished = todos.filter(observing: \.done)
    /// ```
    public func filter<Field: ObservableValueType>(
        observing field: @escaping (Element) -> Field
    ) -> FieldFilteredObservableArray<Self, Field> where Field.Value == Bool {
        FieldFilteredObservableArray(base: self, field: field, isIncluded: { $0 })
    }

    /// An observable array of the elements for which `isIncluded` holds of their
    /// observable member's value, in order, kept up to date when elements come and go and
    /// when any element's member changes.
    ///
    /// `isIncluded` runs once per element that joins and once per change of a member.
    ///
    /// ```swift
    /// let remaining = todos.filter(observing: \.done) { !$0 }
    /// ```
    public func filter<Field: ObservableValueType>(
        observing field: @escaping (Element) -> Field, _ isIncluded: @escaping (Field.Value) -> Bool
    ) -> FieldFilteredObservableArray<Self, Field> {
        FieldFilteredObservableArray(base: self, field: field, isIncluded: isIncluded)
    }

    /// An observable array of the elements sorted by an observable member of each,
    /// kept up to date when elements come and go and when any element's member changes.
    ///
    /// A change of one element's member moves that element alone: O(log n) comparisons of
    /// members' values. Elements whose members compare equivalent keep the order in which
    /// they joined the view or last changed their member to a value not equivalent to the
    /// one before; a change to an equivalent value moves nothing.
    ///
    /// ```swift
    /// let byPriority = todos.sorted(observing: \.priority, by: >)
    /// ```
    public func sorted<Field: ObservableValueType>(
        observing field: @escaping (Element) -> Field,
        by areInIncreasingOrder: @escaping (Field.Value, Field.Value) -> Bool
    ) -> FieldSortedObservableArray<Element, Field> {
        FieldSortedObservableArray(array: self, field: field, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// An observable array of the elements sorted by an observable member of each in
    /// increasing order; see ``sorted(observing:by:)``.
    public func sorted<Field: ObservableValueType>(
        observing field: @escaping (Element) -> Field
    ) -> FieldSortedObservableArray<Element, Field> where Field.Value: Comparable {
        sorted(observing: field, by: <)
    }
}

extension ObservableSetType {
    /// An observable array of this set's elements sorted by an observable member of each,
    /// kept up to date when elements come and go and when any element's member changes, by
    /// the rules and at the cost of ``ObservableArrayType/sorted(observing:by:)``.
    ///
    /// ```swift
    /// let byName = people.sorted(observing: \.name, by: <)
    /// ```
    public func sorted<Field: ObservableValueType>(
        observing field: @escaping (Element) -> Field,
        by areInIncreasingOrder: @escaping (Field.Value, Field.Value) -> Bool
    ) -> FieldSortedObservableArray<Element, Field> {
        FieldSortedObservableArray(set: self, field: field, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// An observable array of this set's elements sorted by an observable member of each in
    /// increasing order; see ``sorted(observing:by:)``.
    public func sorted<Field: ObservableValueType>(
        observing field: @escaping (Element) -> Field
    ) -> FieldSortedObservableArray<Element, Field> where Field.Value: Comparable {
        sorted(observing: field, by: <)
    }
}

// MARK: - Map

/// An observable array of each element's observable member; made by
/// ``ObservableArrayType/map(observing:)``.
///
/// Cost: O(log n) per element that joins or leaves, plus one subscription made or ended;
/// O(log n) per change of one element's member. Its `value` is built when first read after a
/// change, O(n); ``count`` and ``subscript(_:)`` read the tree.
public final class FieldMappedObservableArray<Base: ObservableArrayType, Field: ObservableValueType>:
    ObservableArrayType
{
    /// The type of the elements: the members' values.
    public typealias Element = Field.Value
    typealias Entry = FieldEntry<Base.Element, Field.Value>

    /// The entries in the base's order.
    private var entries = PositionalTree<Entry>()
    private var cachedValue: [Field.Value]?
    private let base: Base
    private let follower: FieldFollower<Base.Element, Field, ArrayChange<Field.Value>>

    init(base: Base, field: @escaping (Base.Element) -> Field) {
        self.base = base
        follower = FieldFollower(field: field)
        follower.signal.owner = self
        for element in base.value { _ = insertEntry(for: element, at: entries.count) }
        follower.fieldChanged = { [unowned self] entry, change in
            #if GLUE_INTERNAL_CHECKS
                defer { _checkInvariants() }
            #endif
            let index = entries.index(of: entry.baseHandle!)
            cachedValue = nil
            return ArrayChange(
                initialCount: entries.count, modifications: [.replace(change.old, at: index, with: change.new)])
        }
        follower.follow(base.updates) { [unowned self] change in
            #if GLUE_INTERNAL_CHECKS
                glueCheck(
                    change.initialCount == entries.count, "G3",
                    "a change for \(change.initialCount) elements reached a field map of \(entries.count)")
                defer { _checkInvariants() }
            #endif
            cachedValue = nil
            var output = ArrayChange<Field.Value>(initialCount: entries.count)
            for modification in change.modifications {
                switch modification {
                case .insert(let element, let index):
                    output.add(.insert(insertEntry(for: element, at: index), at: index))
                case .remove(_, let index):
                    output.add(.remove(removeEntry(at: index), at: index))
                case .replace(_, let index, let new):
                    let old = removeEntry(at: index)
                    output.add(.replace(old, at: index, with: insertEntry(for: new, at: index)))
                case .replaceSlice(let old, let index, let new):
                    let removed = (0..<old.count).map { _ in removeEntry(at: index) }
                    let inserted = new.enumerated().map { insertEntry(for: $1, at: index + $0) }
                    output.add(.replaceSlice(removed, at: index, with: inserted))
                }
            }
            return output
        }
    }

    private func insertEntry(for element: Base.Element, at index: Int) -> Field.Value {
        let entry = follower.makeEntry(element)
        entry.baseHandle = entries.insert(entry, at: index)
        return entry.value
    }

    private func removeEntry(at index: Int) -> Field.Value {
        let entry = entries.remove(at: index).element
        follower.retire(entry)
        return entry.value
    }

    /// The members' values, in the base's order.
    public var value: [Field.Value] {
        if let cachedValue { return cachedValue }
        let value = entries.array.map(\.value)
        cachedValue = value
        return value
    }

    /// The number of elements, O(1).
    public var count: Int { entries.count }

    /// The member's value of the element at `index`, O(log n).
    public subscript(index: Int) -> Field.Value { entries[index].value }

    /// The mapped array's transactions.
    public var updates: Source<Update<ArrayChange<Field.Value>>> { follower.signal.source }

    deinit {
        for entry in entries.array { entry.connection?.disconnect() }
    }
}

// MARK: - Filter

/// An observable array of the elements whose observable member passes a test; made by
/// ``ObservableArrayType/filter(observing:)`` and ``ObservableArrayType/filter(observing:_:)``.
///
/// Cost: O(log n) per element that joins or leaves, plus one test and one subscription made
/// or ended; one test and O(log n) per change of one element's member. Its `value` is built
/// when first read after a change, O(n); ``count`` and ``subscript(_:)`` read the tree.
public final class FieldFilteredObservableArray<Base: ObservableArrayType, Field: ObservableValueType>:
    ObservableArrayType
{
    /// The type of the elements.
    public typealias Element = Base.Element
    typealias Entry = FieldEntry<Base.Element, Field.Value>

    /// The entries in the base's order, marked when included.
    private var entries = PositionalTree<Entry>()
    /// The included elements in order.
    private var included = TreeElements<Base.Element>([])
    private let base: Base
    private let isIncluded: (Field.Value) -> Bool
    private let follower: FieldFollower<Base.Element, Field, ArrayChange<Base.Element>>

    init(base: Base, field: @escaping (Base.Element) -> Field, isIncluded: @escaping (Field.Value) -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
        follower = FieldFollower(field: field)
        follower.signal.owner = self
        var output = ArrayChange<Base.Element>(initialCount: 0)
        for element in base.value { insertEntry(for: element, at: entries.count, into: &output) }
        follower.fieldChanged = { [unowned self] entry, change in
            #if GLUE_INTERNAL_CHECKS
                defer { _checkInvariants() }
            #endif
            var output = ArrayChange<Base.Element>(initialCount: included.tree.count)
            let handle = entry.baseHandle!
            let isNowIncluded = isIncluded(change.new)
            guard entries.isMarked(handle: handle) != isNowIncluded else { return output }
            let position = entries.markedCount(before: entries.index(of: handle))
            entries.setMarked(isNowIncluded, handle: handle)
            if isNowIncluded {
                included.edit { $0.insert(entry.element, at: position) }
                output.add(.insert(entry.element, at: position))
            } else {
                included.edit { $0.remove(at: position) }
                output.add(.remove(entry.element, at: position))
            }
            return output
        }
        follower.follow(base.updates) { [unowned self] change in
            #if GLUE_INTERNAL_CHECKS
                glueCheck(
                    change.initialCount == entries.count, "G3",
                    "a change for \(change.initialCount) elements reached a field filter of \(entries.count)")
                defer { _checkInvariants() }
            #endif
            var output = ArrayChange<Base.Element>(initialCount: included.tree.count)
            for modification in change.modifications {
                switch modification {
                case .insert(let element, let index):
                    insertEntry(for: element, at: index, into: &output)
                case .remove(_, let index):
                    removeEntry(at: index, into: &output)
                case .replace(_, let index, let new):
                    removeEntry(at: index, into: &output)
                    insertEntry(for: new, at: index, into: &output)
                case .replaceSlice(let old, let index, let new):
                    for _ in old { removeEntry(at: index, into: &output) }
                    for (offset, element) in new.enumerated() {
                        insertEntry(for: element, at: index + offset, into: &output)
                    }
                }
            }
            return output
        }
    }

    private func insertEntry(for element: Base.Element, at index: Int, into output: inout ArrayChange<Base.Element>) {
        let entry = follower.makeEntry(element)
        let include = isIncluded(entry.value)
        entry.baseHandle = entries.insert(entry, at: index, marked: include)
        guard include else { return }
        let position = entries.markedCount(before: index)
        included.edit { $0.insert(element, at: position) }
        output.add(.insert(element, at: position))
    }

    private func removeEntry(at index: Int, into output: inout ArrayChange<Base.Element>) {
        let position = entries.markedCount(before: index)
        let (entry, wasIncluded) = entries.remove(at: index)
        follower.retire(entry)
        guard wasIncluded else { return }
        included.edit { $0.remove(at: position) }
        output.add(.remove(entry.element, at: position))
    }

    /// The included elements, in the base's order.
    public var value: [Base.Element] { included.array() }

    /// The number of included elements, O(1).
    public var count: Int { included.tree.count }

    /// The included element at `index`, O(log n).
    public subscript(index: Int) -> Base.Element { included.tree[index] }

    /// The filtered array's transactions.
    public var updates: Source<Update<ArrayChange<Base.Element>>> { follower.signal.source }

    deinit {
        for entry in entries.array { entry.connection?.disconnect() }
    }
}

// MARK: - Sorted

/// An observable array of elements sorted by an observable member of each; made by
/// ``ObservableArrayType/sorted(observing:by:)`` and ``ObservableSetType/sorted(observing:by:)``.
///
/// Cost: O(log n) comparisons per element that joins or leaves, plus one subscription made
/// or ended; O(log n) comparisons per change of one element's member, which moves that
/// element alone. Its `value` is built when first read after a change, O(n); ``count`` and
/// ``subscript(_:)`` read the tree.
public final class FieldSortedObservableArray<Element, Field: ObservableValueType>: ObservableArrayType {
    typealias Entry = FieldEntry<Element, Field.Value>

    /// The entries in sorted order.
    private var sorted = PositionalTree<Entry>()
    /// For an array base: the entries in the base's order.
    private var entries = PositionalTree<Entry>()
    /// For a set base: the entry of each element.
    private var entriesByElement: [AnyHashable: Entry] = [:]
    private var cachedValue: [Element]?
    private let areInIncreasingOrder: (Field.Value, Field.Value) -> Bool
    private let base: AnyObject
    private let follower: FieldFollower<Element, Field, ArrayChange<Element>>

    init<Base: ObservableArrayType>(
        array base: Base, field: @escaping (Element) -> Field,
        areInIncreasingOrder: @escaping (Field.Value, Field.Value) -> Bool
    ) where Base.Element == Element {
        self.base = ObjectBox(base)
        self.areInIncreasingOrder = areInIncreasingOrder
        follower = FieldFollower(field: field)
        follower.signal.owner = self
        var output = ArrayChange<Element>(initialCount: 0)
        for element in base.value {
            let entry = follower.makeEntry(element)
            entry.baseHandle = entries.insert(entry, at: entries.count)
            place(entry, into: &output)
        }
        wireFieldChanges()
        follower.follow(base.updates) { [unowned self] change in
            #if GLUE_INTERNAL_CHECKS
                glueCheck(
                    change.initialCount == entries.count, "G3",
                    "a change for \(change.initialCount) elements reached a field-sorted view of \(entries.count)")
                defer { _checkInvariants() }
            #endif
            var output = ArrayChange<Element>(initialCount: sorted.count)
            func insert(_ element: Element, at index: Int) {
                let entry = follower.makeEntry(element)
                entry.baseHandle = entries.insert(entry, at: index)
                place(entry, into: &output)
            }
            func remove(at index: Int) {
                let entry = entries.remove(at: index).element
                follower.retire(entry)
                unplace(entry, into: &output)
            }
            for modification in change.modifications {
                switch modification {
                case .insert(let element, let index): insert(element, at: index)
                case .remove(_, let index): remove(at: index)
                case .replace(_, let index, let new):
                    remove(at: index)
                    insert(new, at: index)
                case .replaceSlice(let old, let index, let new):
                    for _ in old { remove(at: index) }
                    for (offset, element) in new.enumerated() { insert(element, at: index + offset) }
                }
            }
            return output
        }
    }

    init<Base: ObservableSetType>(
        set base: Base, field: @escaping (Element) -> Field,
        areInIncreasingOrder: @escaping (Field.Value, Field.Value) -> Bool
    ) where Base.Element == Element {
        self.base = ObjectBox(base)
        self.areInIncreasingOrder = areInIncreasingOrder
        follower = FieldFollower(field: field)
        follower.signal.owner = self
        var output = ArrayChange<Element>(initialCount: 0)
        for element in base.value {
            let entry = follower.makeEntry(element)
            entriesByElement[AnyHashable(element)] = entry
            place(entry, into: &output)
        }
        wireFieldChanges()
        follower.follow(base.updates) { [unowned self] change in
            #if GLUE_INTERNAL_CHECKS
                defer { _checkInvariants() }
            #endif
            var output = ArrayChange<Element>(initialCount: sorted.count)
            for element in change.removed {
                guard let entry = entriesByElement.removeValue(forKey: AnyHashable(element)) else { continue }
                follower.retire(entry)
                unplace(entry, into: &output)
            }
            for element in change.inserted {
                let entry = follower.makeEntry(element)
                entriesByElement[AnyHashable(element)] = entry
                place(entry, into: &output)
            }
            return output
        }
    }

    private func wireFieldChanges() {
        follower.fieldChanged = { [unowned self] entry, change in
            #if GLUE_INTERNAL_CHECKS
                defer { _checkInvariants() }
            #endif
            var output = ArrayChange<Element>(initialCount: sorted.count)
            // A member that changes to an equivalent value keeps its place: ties stay as
            // they were, and a write of the same value moves nothing.
            guard areInIncreasingOrder(change.old, change.new) || areInIncreasingOrder(change.new, change.old)
            else { return output }
            let oldIndex = sorted.index(of: entry.sortedHandle!)
            sorted.remove(at: oldIndex)
            // `entry.value` is already the new value: the entry goes where it now belongs,
            // after the members it is equivalent to.
            let newIndex = sorted.partitionIndex { !areInIncreasingOrder(entry.value, $0.value) }
            entry.sortedHandle = sorted.insert(entry, at: newIndex)
            checkPlacement(at: newIndex)
            guard newIndex != oldIndex else { return output }
            cachedValue = nil
            output.add(.remove(entry.element, at: oldIndex))
            output.add(.insert(entry.element, at: newIndex))
            return output
        }
    }

    /// Inserts `entry` after every entry not ordered after it.
    private func place(_ entry: Entry, into output: inout ArrayChange<Element>) {
        let index = sorted.partitionIndex { !areInIncreasingOrder(entry.value, $0.value) }
        entry.sortedHandle = sorted.insert(entry, at: index)
        checkPlacement(at: index)
        cachedValue = nil
        output.add(.insert(entry.element, at: index))
    }

    private func unplace(_ entry: Entry, into output: inout ArrayChange<Element>) {
        let index = sorted.index(of: entry.sortedHandle!)
        sorted.remove(at: index)
        cachedValue = nil
        output.add(.remove(entry.element, at: index))
    }

    /// G3: the entry just placed at `index` is in order with its neighbours, and after the
    /// equivalent ones.
    @inline(__always)
    private func checkPlacement(at index: Int) {
        #if GLUE_INTERNAL_CHECKS
            glueCheck(
                (index == 0 || !areInIncreasingOrder(sorted[index].value, sorted[index - 1].value))
                    && (index + 1 == sorted.count
                        || areInIncreasingOrder(sorted[index].value, sorted[index + 1].value)),
                "G3", "an element placed at \(index) is out of order with its neighbours, or precedes an equivalent one"
            )
        #endif
    }

    /// The elements, sorted by their members' values.
    public var value: [Element] {
        if let cachedValue { return cachedValue }
        let value = sorted.array.map(\.element)
        cachedValue = value
        return value
    }

    /// The number of elements, O(1).
    public var count: Int { sorted.count }

    /// The element at `index` in sorted order, O(log n).
    public subscript(index: Int) -> Element { sorted[index].element }

    /// The sorted array's transactions.
    public var updates: Source<Update<ArrayChange<Element>>> { follower.signal.source }

    deinit {
        for entry in sorted.array { entry.connection?.disconnect() }
    }
}

// MARK: - Invariants (Documentation/Internals/Glue.md)

extension FieldMappedObservableArray {
    /// Checks G7: every element followed has a live subscription and a handle that finds it.
    /// Does nothing unless the module is built with `GLUE_INTERNAL_CHECKS`.
    package func _checkInvariants() {
        #if GLUE_INTERNAL_CHECKS
            checkFieldEntries(entries)
        #endif
    }
}

extension FieldFilteredObservableArray {
    /// Checks G3 and G7: the included elements are the marked entries, in order, and every
    /// element followed has a live subscription and a handle that finds it. Does nothing
    /// unless the module is built with `GLUE_INTERNAL_CHECKS`.
    package func _checkInvariants() {
        #if GLUE_INTERNAL_CHECKS
            checkFieldEntries(entries)
            glueCheck(
                entries.markedTotal == included.tree.count, "G3",
                "\(entries.markedTotal) elements marked included, \(included.tree.count) in the filtered array")
            let marked = (0..<entries.count).filter { entries.isMarked(at: $0) }
            glueCheck(
                marked.allSatisfy { isIncluded(entries[$0].value) }
                    && (0..<entries.count).allSatisfy { entries.isMarked(at: $0) == isIncluded(entries[$0].value) },
                "G3", "an element's included mark disagrees with its member's value")
        #endif
    }
}

extension FieldSortedObservableArray {
    /// Checks G3 and G7: the entries are in order, and every element followed has a live
    /// subscription and a handle that finds it. Does nothing unless the module is built with
    /// `GLUE_INTERNAL_CHECKS`.
    package func _checkInvariants() {
        #if GLUE_INTERNAL_CHECKS
            if entriesByElement.isEmpty { checkFieldEntries(entries) }
            for index in 0..<sorted.count {
                let entry = sorted[index]
                glueCheck(entry.connection != nil, "G7", "a sorted element has no subscription to its member")
                glueCheck(sorted.index(of: entry.sortedHandle!) == index, "G7", "a sorted element's handle is stale")
                glueCheck(
                    index == 0 || !areInIncreasingOrder(entry.value, sorted[index - 1].value), "G3",
                    "the elements at \(index - 1) and \(index) are out of order")
            }
            glueCheck(
                sorted.count == entries.count + entriesByElement.count, "G7",
                "\(sorted.count) elements sorted, \(entries.count + entriesByElement.count) followed")
        #endif
    }
}

#if GLUE_INTERNAL_CHECKS
    private func checkFieldEntries<Element, Value>(_ entries: PositionalTree<FieldEntry<Element, Value>>) {
        for index in 0..<entries.count {
            let entry = entries[index]
            glueCheck(entry.connection != nil, "G7", "an element at \(index) has no subscription to its member")
            glueCheck(entries.index(of: entry.baseHandle!) == index, "G7", "the element at \(index) has a stale handle")
        }
    }
#endif
